"""PII detection and masking: tables of (text, expected spans), stable placeholders, no raw values leak."""

from __future__ import annotations

import copy
import pickle

import pytest

from guardrails.errors import RecognizerConfigError
from guardrails.pii import MaskingSession, detect, mask
from guardrails.pii.recognizers import load_specs, parse_specs
from guardrails.pii.validators import (
    is_valid_id_phone,
    is_valid_nik,
    is_valid_nitku,
    is_valid_npwp,
    is_valid_npwp_or_formatted,
    nik_birth_date,
)


def spans(text: str) -> list[tuple[str, str]]:
    """Return (type, covered text) for every detected entity, in order."""
    return [(e.type, text[e.start : e.end]) for e in detect(text)]


DETECTION_TABLE = [
    ("Tolong cek NPWP 01.234.567.8-901.000 vendor PT Maju", [("ID_NPWP", "01.234.567.8-901.000")]),
    ("NIK saya 3171234501900001", [("ID_NIK", "3171234501900001")]),
    ("NIK saya 3171234501900001.", [("ID_NIK", "3171234501900001")]),
    ("transfer ke rekening BCA 1234567890 a.n. Budi", [("BANK_ACCOUNT", "1234567890")]),
    ("no. rek: 123-456-7890 ya", [("BANK_ACCOUNT", "123-456-7890")]),
    ("bayar ke 0987654321 a.n. PT Maju", [("BANK_ACCOUNT", "0987654321")]),
    ("+62 812-3456-7890", [("PHONE_NUMBER", "+62 812-3456-7890")]),
    (
        "hubungi 0812 3456 7890 atau (021) 555 1234",
        [("PHONE_NUMBER", "0812 3456 7890"), ("PHONE_NUMBER", "(021) 555 1234")],
    ),
    ("WA 6281234567890 ya", [("PHONE_NUMBER", "6281234567890")]),
    (
        "NPWP lama 016090524017000, baru 0016090524017000",
        [("ID_NPWP", "016090524017000"), ("ID_NPWP", "0016090524017000")],
    ),
    ("NPWP 02 . 433 . 917 . 8 - 011 . 000", [("ID_NPWP", "02 . 433 . 917 . 8 - 011 . 000")]),
    ("NITKU 0016090524017000000001 cabang Bekasi", [("ID_NITKU", "0016090524017000000001")]),
    (
        "email Budi.Santoso@maju.co.id dan ip 10.20.30.40",
        [("EMAIL_ADDRESS", "Budi.Santoso@maju.co.id"), ("IP_ADDRESS", "10.20.30.40")],
    ),
    ("kartu 4012 8888 8888 1881", [("CREDIT_CARD", "4012 8888 8888 1881")]),
    ("IBAN DE89370400440532013000", [("IBAN_CODE", "DE89370400440532013000")]),
]

UNTOUCHED = [
    "Sesuai PMK-168/PMK.010/2023 Pasal 17 ayat (1) huruf c",
    "PPh 21 atas penghasilan Rp60.000.000 dengan tarif 5% dan 2,5%",
    "Jatuh tempo 31-12-2023, laporan tanggal 2024-01-15 atau 15/01/2024",
    "PP 55 Tahun 2022 dan UU 7/2021 tentang HPP, PER-6/PJ/2024",
    "rekening sebesar Rp 60000000 dipotong pajak",
    "Nilai DPP 1.234.567.890.123.456 rupiah",
    "NIK 9971011708450001 (provinsi 99 tidak ada)",
    "NIK 3171013002001234 (30 Februari)",
    "nomor 3171011708450000 serial nol",
    "faktur 1234567890123456789 dan kode 08-12-2023",
]


@pytest.mark.parametrize(("text", "expected"), DETECTION_TABLE)
def test_detects_expected_spans(text: str, expected: list[tuple[str, str]]) -> None:
    assert spans(text) == expected


@pytest.mark.parametrize("text", UNTOUCHED)
def test_regulation_numbers_amounts_dates_and_invalid_ids_are_not_masked(text: str) -> None:
    assert spans(text) == []
    assert mask(text, MaskingSession())[0] == text


def test_entity_offsets_point_into_original_text() -> None:
    text = "NIK 3171234501900001, email a@b.co.id"
    entities = detect(text)
    assert [(e.type, e.start, e.end, e.score) for e in entities] == [
        ("ID_NIK", 4, 20, 1.0),
        ("EMAIL_ADDRESS", 28, 37, 1.0),
    ]


def test_placeholders_are_stable_within_a_session_and_numbered_per_type() -> None:
    session = MaskingSession()
    first, _ = mask("NIK 3171234501900001 dan 3171011708450001", session)
    second, _ = mask("ulang: 3171011708450001, lalu 3171234501900001; email x@maju.co.id", session)
    assert first == "NIK <NIK_1> dan <NIK_2>"
    assert second == "ulang: <NIK_2>, lalu <NIK_1>; email <EMAIL_1>"


def test_same_npwp_in_two_layouts_shares_a_placeholder() -> None:
    session = MaskingSession()
    masked, _ = mask("01.312.166.0-091.000 sama dengan 013121660091000", session)
    assert masked == "<NPWP_1> sama dengan <NPWP_1>"


def test_new_session_restarts_numbering() -> None:
    assert mask("NIK 3171011708450001", MaskingSession())[0] == "NIK <NIK_1>"
    assert mask("NIK 3171234501900001", MaskingSession())[0] == "NIK <NIK_1>"


def test_session_repr_has_counts_only_and_cannot_be_persisted() -> None:
    session = MaskingSession()
    mask("NIK 3171234501900001 email budi@maju.co.id", session)
    assert repr(session) == "MaskingSession(EMAIL=1, NIK=1)"
    assert "3171234501900001" not in str(session)
    assert session.reveal("<NIK_1>") == "3171234501900001"
    assert session.reveal("<NIK_9>") is None
    assert len(session) == 2
    with pytest.raises(TypeError):
        pickle.dumps(session)
    with pytest.raises(TypeError):
        copy.deepcopy(session)
    assert not hasattr(session, "__dict__")


@pytest.mark.parametrize(
    ("value", "valid"),
    [
        ("3171011708450001", True),
        ("3171015708450001", True),  # woman: day 57 = 17 + 40
        ("3171012902001234", True),  # 2000-02-29
        ("3171013002001234", False),  # 30 February
        ("9971011708450001", False),  # province 99
        ("3100011708450001", False),  # regency 00
        ("3171011713450001", False),  # month 13
        ("31710117084500", False),  # 14 digits
    ],
)
def test_nik_validator(value: str, valid: bool) -> None:
    assert is_valid_nik(value) is valid


def test_nik_birth_date_decodes_female_offset() -> None:
    assert str(nik_birth_date("3171015708450001")) == "1945-08-17"


@pytest.mark.parametrize(
    ("value", "valid"),
    [
        ("01.312.166.0-091.000", True),
        ("016090524017000", True),
        ("0016090524017000", True),
        ("01.451.869.7-054.000", False),  # bad check digit
        ("123456789", False),
    ],
)
def test_npwp_checksum(value: str, valid: bool) -> None:
    assert is_valid_npwp(value) is valid


def test_dotted_npwp_with_bad_checksum_is_masked_by_policy() -> None:
    assert is_valid_npwp_or_formatted("01.451.869.7-054.000") is True
    assert is_valid_npwp_or_formatted("014518697054000") is False


def test_nitku_and_phone_validators() -> None:
    assert is_valid_nitku("0016090524017000000001") is True
    assert is_valid_nitku("3171011708450001000001") is True  # NIK + 6
    assert is_valid_nitku("9916090524017000000001") is False
    assert is_valid_id_phone("+62 812-3456-7890") is True
    assert is_valid_id_phone("0812-2023") is False
    assert is_valid_id_phone("021 5551234") is False  # bare landline: too ambiguous


def test_recognizer_table_is_data_and_validated() -> None:
    entities = {spec.entity for spec in load_specs()}
    assert entities == {"ID_NIK", "ID_NPWP", "ID_NITKU", "PHONE_NUMBER", "BANK_ACCOUNT", "CREDIT_CARD"}
    with pytest.raises(RecognizerConfigError, match="unknown validator 'nope'"):
        parse_specs(
            {
                "recognizers": [
                    {"name": "X", "entity": "X", "placeholder": "X", "validator": "nope", "patterns": []}
                ]
            }
        )
    with pytest.raises(RecognizerConfigError, match="missing field 'entity'"):
        parse_specs({"recognizers": [{"name": "X", "validator": "nik", "patterns": []}]})
