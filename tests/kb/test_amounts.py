"""Amounts and percentages read to one search token (kb/amounts.py): a message's chat form ("4,8 M", "500jt",
"Rp 4.8 billion") and an act's "Rp4.800.000.000,00" meet in the index, which splits both into unrelated
pieces ("rp4", "800", "000" vs "4", "8")."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from kb.amounts import message_figures, parse_number, passage_tokens, spelled_formally


@pytest.mark.parametrize(
    ("written", "tokens"),
    [
        ("batasnya 4,8 M kan", ["amt4800000000"]),
        ("kalau sudah 4,8 miliar", ["amt4800000000"]),
        ("kalau sudah 4,8 milyar", ["amt4800000000"]),
        ("turnover above Rp 4.8 billion", ["amt4800000000"]),
        ("honor 500jt setahun", ["amt500000000"]),
        ("gaji 60 juta sebulan", ["amt60000000"]),
        ("dibayar Rp50.000.000 tunai", ["amt50000000"]),
        ("dibayar Rp 50.000.000,00 tunai", ["amt50000000"]),
        ("uang saku 5 jt", ["amt5000000"]),
        ("snack 350rb per orang", ["amt350000"]),
        ("voucher 15k", ["amt15000"]),
        ("invoice IDR 500,000,000", ["amt500000000"]),
        ("nilai Rp5.000.000,- per bulan", ["amt5000000"]),
        ("1.500 juta", ["amt1500000000"]),
        ("tarif 0,5% final", ["pct0p5"]),
        ("tarif 0.5 persen", ["pct0p5"]),
        ("rate of 2.5 percent", ["pct2p5"]),
        ("PPN 11 persen", ["11%"]),  # a whole percentage is the index's own token
        # not amounts: a bare number, a year, a huruf after a Pasal number, a measure
        ("ada 17 faktur tahun 2023", []),
        ("Pasal 21 b", []),
        ("luas 200 m2", []),
    ],
)
def test_message_amounts_read_to_one_token(written: str, tokens: list[str]) -> None:
    assert [t for f in message_figures(written) for t in f.tokens] == tokens


def test_a_million_and_a_billion_never_meet() -> None:
    juta = [t for f in message_figures("omzet 4,8 juta") for t in f.tokens]
    miliar = [t for f in message_figures("omzet 4,8 miliar") for t in f.tokens]
    assert juta == ["amt4800000"] and miliar == ["amt4800000000"]
    act = passage_tokens("melebihi Rp4.800.000.000,00 (empat miliar delapan ratus juta rupiah)")
    assert act == ["amt4800000000"] and juta[0] not in act


def test_an_english_message_reads_a_lone_m_as_million_too() -> None:
    # Indonesian chat writes "M" for miliar; in English it is million: both are searched there
    assert [t for f in message_figures("omzet Rp 500M") for t in f.tokens] == ["amt500000000000"]
    assert [t for f in message_figures("turnover Rp 500M", "en") for t in f.tokens] == [
        "amt500000000000",
        "amt500000000",
    ]


@pytest.mark.parametrize(
    ("written", "value"),
    [
        ("4,8", Decimal("4.8")),
        ("4.8", Decimal("4.8")),
        ("0,500", Decimal("0.5")),  # a leading zero is never a thousands group
        ("50.000", Decimal(50000)),
        ("4.800.000.000,00", Decimal("4800000000.00")),
        ("4,800,000,000.00", Decimal("4800000000.00")),
        ("4.80.000", None),  # groups of two digits are no number
    ],
)
def test_number_separators(written: str, value: Decimal | None) -> None:
    assert parse_number(written) == value


def test_act_amounts_read_to_the_same_tokens() -> None:
    text = (
        "dikenai tarif 0,5% (nol koma lima persen) sampai dengan peredaran bruto Rp4.800.000.000,00 "
        "(empat miliar delapan ratus juta rupiah); PPN 11% dan luas 10 m2"
    )
    assert passage_tokens(text) == ["pct0p5", "amt4800000000"]  # "11%" is an index token as written


def test_chat_amounts_are_spelled_as_an_act_writes_them() -> None:
    assert spelled_formally("lewat 4,8 M, gaji 60 juta, 0,5% dan Pasal 21 b") == (
        "lewat Rp4.800.000.000, gaji Rp60.000.000, 0,5% dan Pasal 21 b"
    )


def test_a_malformed_scale_table_names_the_key(tmp_path: Path) -> None:
    import yaml

    from kb.lexicon import DEFAULT_LEXICON_PATH, LexiconError, load

    data = yaml.safe_load(DEFAULT_LEXICON_PATH.read_text(encoding="utf-8"))
    assert load(DEFAULT_LEXICON_PATH).amount_scales["chat"]["jt"] == 6
    data["amounts"]["scales"]["chat"]["jt"] = "juta"
    bad = tmp_path / "lexicon.yaml"
    bad.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(LexiconError, match=r"amounts.scales.chat must map a word to a power of ten"):
        load(bad)
