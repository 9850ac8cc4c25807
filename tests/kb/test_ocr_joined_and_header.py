"""``scripts/ocr_repair.py``'s ``joined`` rule (two words the PDF text layer ran together), ``header`` rule
(an OCR'd act's page header run into its sentences) and ``digits`` rule (a number read with the letter O)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.scripts import load_script

ocr = load_script("scripts/ocr_repair.py")

#: three documents that write "biaya jabatan", "pihak-pihak" and "ratus juta" apart, often
APART_DOCS = [
    " ".join(
        ["biaya jabatan", "pihak-pihak", "ratus juta", "biaya", "jabatan", "pihak", "ratus", "juta"] * 4
    ),
    " ".join(
        ["biaya jabatan", "pihak-pihak", "ratus juta", "biaya", "jabatan", "pihak", "ratus", "juta"] * 3
    ),
    " ".join(["biaya", "jabatan", "pihak", "ratus", "juta", "biayanya"] * 6),
]


def _evidence(*extra: str) -> Any:
    return ocr.JoinEvidence.of([*APART_DOCS, *extra])


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        ("pengurangan biayajabatan sebesar 5%", "pengurangan biaya jabatan sebesar 5%"),
        ("Biayajabatan", "Biaya jabatan"),  # the case is kept
        ("para pihakpihak", "para pihak-pihak"),  # written with a hyphen where the corpus does
        ("tiga ratusjuta rupiah", "tiga ratus juta rupiah"),
    ],
)
def test_two_words_run_together_are_written_apart(text: str, fixed: str) -> None:
    lines = [text]
    changes = ocr.repair_joined(lines, _evidence())
    assert lines == [fixed]
    assert [(c.line, c.rule) for c in changes] == [(1, "joined")]


@pytest.mark.parametrize(
    "text",
    [
        "biayanya dihitung",  # a word the corpus writes whole, often
        "biayajab",  # too short to be two words run together
    ],
)
def test_a_word_of_its_own_is_left_alone(text: str) -> None:
    lines = [text]
    assert ocr.repair_joined(lines, _evidence()) == [] and lines == [text]


def test_a_joined_form_the_corpus_writes_often_is_a_word() -> None:
    # written whole three times: not an accident of one PDF (the rule needs a token seen at most twice)
    evidence = _evidence("biayajabatan biayajabatan biayajabatan")
    lines = ["biayajabatan"]
    assert ocr.repair_joined(lines, evidence) == [] and lines == ["biayajabatan"]


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        # PP 55/2022: the page header with its page number inside an ayat's list
        (
            "c. untuk harta berwujud. FRES IDEN REPUBLIK INDONESIA -29- (5) Apabila bangunan",
            "c. untuk harta berwujud. (5) Apabila bangunan",
        ),
        (
            "1. penghasilan FRES IDEN REPUBLIK INDONESIA _15_ 1. penghasilan berasal",
            "1. penghasilan 1. penghasilan berasal",
        ),
        ("dana FRESTDEN REPUBLIK INDONESIA -23- investasi", "dana investasi"),  # "dana" is the act's word
        ("Rp10.000,00 PRESIDEN REPUBLIK INDONESIA -11- setiap", "Rp10.000,00 setiap"),  # read right, numbered
        # without a page number: misread words only
        ("atau perikanan; FRES IDEN REPUBLIK INDONESIA f. pakan ternak", "atau perikanan; f. pakan ternak"),
        ("luar Daerah Pabean. REFUELIK INDONESIA 13. Pengusaha", "luar Daerah Pabean. 13. Pengusaha"),
        ("REPUEUK INDONESIA", ""),
    ],
)
def test_a_page_header_run_into_the_text_is_removed(text: str, fixed: str) -> None:
    lines = [text]
    changes = ocr.repair_headers(lines)
    assert lines == [fixed]
    assert [c.rule for c in changes] == ["header"]


@pytest.mark.parametrize(
    "text",
    [
        "DENGAN RAHMAT TUHAN YANG MAHA ESA PRESIDEN REPUBLIK INDONESIA,",  # the act's own words
        "Ditetapkan di Jakarta PRESIDEN REPUBLIK INDONESIA, ttd JOKO WIDODO",
        "Lembaran Negara Republik Indonesia Tahun 2021 Nomor 246",
        "PERATURAN PEMERINTAH REPUBLIK INDONESIA NOMOR 55 TAHUN 2022",
        "DEWAN PERWAKILAN RAKYAT REPUBLIK INDONESIA DAN PRESIDEN REPUBLIK INDONESIA",
    ],
)
def test_the_acts_own_words_for_the_republic_stay(text: str) -> None:
    lines = [text]
    assert ocr.repair_headers(lines) == [] and lines == [text]


def test_the_corpus_texts_hold_no_joined_word_or_page_header_the_rules_would_repair() -> None:
    texts = ocr.read_texts()
    evidence = ocr.JoinEvidence.of(reg.text for reg in texts)
    for reg in texts:
        lines = reg.text.split("\n")
        assert ocr.repair_joined(lines, evidence) == [], reg.folder.name
        if reg.noisy:
            assert ocr.repair_headers(lines) == [], reg.folder.name
    pmk = next(reg for reg in texts if reg.folder.name == "pmk-168-2023")
    assert "biayajabatan" not in pmk.text and "biaya jabatan" in pmk.text


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        ("II Bangunan Permanen 2O tahun 5%", "II Bangunan Permanen 20 tahun 5%"),
        ("Kelompok 3 16 tahun; 3OO hari; tahun 2oo7", "Kelompok 3 16 tahun; 300 hari; tahun 2007"),
        ("1O. Pemanfaatan Jasa Kena Pajak", "10. Pemanfaatan Jasa Kena Pajak"),
    ],
)
def test_a_number_read_with_the_letter_o_for_a_zero_is_repaired(text: str, fixed: str) -> None:
    lines = [text]
    changes = ocr.repair_digits(lines)
    assert lines == [fixed]
    assert {c.rule for c in changes} == {"digits"}


@pytest.mark.parametrize(
    "text",
    [
        "Rp2O.000,00 dibayar",  # an amount: the amount rule decides, with its spelled-out words
        "Pasal 6O ayat (1O)",  # a Pasal number, an ayat marker: the pasal and ayat rules decide
        "kode 2Ox dan O2 serta 1,5O",  # letters after it, an O first, a decimal
    ],
)
def test_a_token_that_is_not_a_plain_number_is_left_alone(text: str) -> None:
    lines = [text]
    assert ocr.repair_digits(lines) == [] and lines == [text]
