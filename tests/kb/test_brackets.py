"""Rows of a rate table by bracket of an amount, read as the scan wrote them (kb.brackets), the annex of
PP 58/2023 chunked table by table, and "TER kategori A gaji 10 juta berapa?" answered with the row that holds
10 million.  Until session 65 the table was answered as a progressive scale: "tarifnya 0%, 0,25%, 0,5%, ...
dan 2,5% menurut lapisan Penghasilan Kena Pajak" (probes of our own)."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from typing import Any

import pytest

from kb.brackets import bracket_rows, class_of_status, classes_named, row_holding
from kb.chunking import chunk_document
from kb.pages import remove_page_furniture
from kb.ptkp import status_patterns
from tests.answer.chunk_sample import anonymous_answer
from tests.kb.test_structure_quirks import CORPUS, _meta

AS_OF = dt.date(2026, 12, 1)
TABLE = """A. TARIF EFEKTIF BULANAN KATEGORI A
Penghasilan Bruto Bulanan Tarif Pajak
sampai dengan Rp5.400.000,00 (lima juta empat ratus ribu rupiah)
0%
(nol persen)
di atas Rp5.400.000,00 (lima juta empat ratus ribu rupiah) sampai dengan Rp5.650.000,00 (lima juta enam
ratus lima puluh ribu rupiah)
0,25%
(nol koma dua lima persen)
di atas Rp5.650.000,00 (lima juta enam ratus lima puluh ribu rupiah) sampai dengan Rp5.950.000,00 (lima juta
sembilan ratus lima puluh ribu rupiah)
0,5%
(nol koma lima persen)
"""
# the scan read three rows' bounds, then their three rates (PP 58/2023's category B, 6,85 to 10,75 million)
APART = """di atas Rp6.500.000,00 (enam juta lima ratus ribu rupiah) sampai dengan Rp6.850.000,00 (enam juta
delapan ratus lima puluh ribu rupiah)
0,5%
(nol koma lima persen)
di atas Rp6.850.000,00 (enam juta delapan ratus lima puluh ribu rupiah) sampai dengan Rp7.300.000,00 (tujuh
juta tiga ratus ribu rupiah)
di atas Rp7.300.000,00 (tujuh juta tiga ratus ribu rupiah) sampai dengan Rp9.200.000,00 (sembilan juta dua
ratus ribu rupiah)
di atas Rp9.200.000,00 (sembilan juta dua ratus ribu rupiah) sampai dengan Rp10.750.000,00 (sepuluh juta
tujuh ratus lima puluh ribu rupiah)
0,75%
(nol koma tujuh lima persen)
1%
(satu persen)
1,5%
(satu koma lima persen)
"""


def _rows(text: str) -> list[tuple[Decimal | None, Decimal | None, str]]:
    return [(r.low, r.high, r.rate) for r in bracket_rows(text)]


def test_rows_are_read_with_their_bounds_and_rate() -> None:
    assert _rows(TABLE) == [
        (None, Decimal("5400000.00"), "0%"),
        (Decimal("5400000.00"), Decimal("5650000.00"), "0,25%"),
        (Decimal("5650000.00"), Decimal("5950000.00"), "0,5%"),
    ]
    row = row_holding(TABLE, (Decimal(5500000),))
    assert row is not None and row.rate == "0,25%"
    assert row_holding(TABLE, (Decimal(5400000),)).rate == "0%"  # "sampai dengan" holds its bound
    assert row_holding(TABLE, (Decimal(9000000),)) is None


def test_columns_the_scan_read_apart_keep_their_order() -> None:
    assert [(r.low, r.rate) for r in bracket_rows(APART)] == [
        (Decimal("6500000.00"), "0,5%"),
        (Decimal("6850000.00"), "0,75%"),
        (Decimal("7300000.00"), "1%"),
        (Decimal("9200000.00"), "1,5%"),
    ]
    row = row_holding(APART, (Decimal(8000000),))
    assert row is not None and row.rate == "1%"
    # what the row says, without the other rows printed between its bounds and its rate
    assert row.statement.startswith("di atas Rp7.300.000,00") and row.statement.endswith("1% (satu persen)")
    assert "0,75%" not in row.statement


def test_a_row_whose_bounds_are_lost_breaks_the_sequence_instead_of_shifting_the_rates() -> None:
    # "di atas Rp7!.0OO ..." read with "!" is an amount; "di atas Rp7x" is none: the rows after it would take
    # the rates of the rows before them
    lost = APART.replace("di atas Rp7.300.000,00", "di atas Rp7x", 1)
    rates = {r.low: r.rate for r in bracket_rows(lost + TABLE.split("\n", 2)[2])}
    assert rates.get(Decimal("9200000.00")) in (None, "1,5%")
    assert Decimal("7300000.00") not in rates


@pytest.mark.parametrize(
    "text",
    [
        "Tarif 5% (lima persen) dari penghasilan bruto.",
        # a sentence with one bound is no table
        "dikenai tarif 0,5% atas peredaran bruto sampai dengan Rp4.800.000.000,00 (empat miliar "
        "delapan ratus juta rupiah)",
    ],
)
def test_text_that_is_no_table_has_no_rows(text: str) -> None:
    assert bracket_rows(text) == ()


def test_categories_are_read_from_a_question_or_a_heading() -> None:
    assert classes_named("TER kategori B gaji 8 juta berapa?") == {"B"}
    assert classes_named("A. TARIFEFEKTIFBULANAN KATEGORIA") == {"A"}
    assert classes_named("tarif kategorinya apa?") == frozenset()


def test_pp_58_2023s_annex_is_chunked_table_by_table_in_whole_rows() -> None:
    text = remove_page_furniture((CORPUS / "pp-58-2023" / "text.txt").read_text(encoding="utf-8")).text
    chunks = {c.key: c for c in chunk_document(text, _meta("pp-58-2023")) if c.key.startswith("lampiran")}
    parts = {k: c for k, c in chunks.items() if c.indexed}
    assert {c.location for c in parts.values()} >= {
        "Lampiran huruf A",
        "Lampiran huruf B",
        "Lampiran huruf C",
    }
    assert all(
        c.heading_path and "KATEGORI" in c.heading_path[0]
        for k, c in parts.items()
        if "huruf-" in k and k[15] in "abc"
    )
    assert not chunks["lampiran"].indexed and not chunks["lampiran/huruf-a"].indexed
    # every part of a category's table starts a row (its bounds, or its rate where the scan printed the
    # rate first) or the table itself
    for key, c in parts.items():
        if "/part-" in key and not key.endswith("/part-1"):
            assert re.match(r"di atas|sampai dengan|\d{1,2}(,\d{1,2})?%", c.text), key
    rows = [
        r for k, c in sorted(parts.items()) if k.startswith("lampiran/huruf-a/") for r in bracket_rows(c.text)
    ]
    assert (rows[8].low, rows[8].high, rows[8].rate) == (Decimal("9650000.00"), Decimal("10050000.00"), "2%")


@pytest.mark.parametrize(
    ("question", "location", "rate"),
    [
        (
            "Tarif efektif bulanan kategori A untuk penghasilan bruto Rp10.000.000 berapa?",
            "Lampiran huruf A",
            "2%",
        ),
        ("TER kategori B gaji 8 juta sebulan berapa persen?", "Lampiran huruf B", "1%"),
    ],
)
def test_the_rate_of_a_monthly_income_is_its_rows(
    services: Any, question: str, location: str, rate: str
) -> None:
    answer = anonymous_answer(services, question, as_of=AS_OF)
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("pp-58-2023", location)
    assert f"tarifnya {rate} " in answer.answer or answer.answer.rstrip().endswith(f"tarifnya {rate} [1].")
    assert rate in lead.quote and "lapisan" not in answer.answer


def test_a_table_part_holding_the_amount_is_about_its_tables_heading(services: Any) -> None:
    # its rows say only amounts and rates; the heading "TARIF EFEKTIF BULANAN KATEGORI A" (OCR had run it
    # together as "TARIFEFEKTIFBULANAN KATEGORIA", repaired by hand) says what they are rates of
    answer = anonymous_answer(
        services,
        "What is the TER rate for category A with monthly gross income of 20 million?",
        as_of=AS_OF,
    )
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("pp-58-2023", "Lampiran huruf A")
    assert "the rate is 9%" in answer.answer
    assert "Rp19.750.000,00" in lead.quote and "Rp24.150.000,00" in lead.quote


def test_a_table_part_joins_when_only_its_acts_rules_were_found(services: Any) -> None:
    # no part of the table was among the candidates, only PP 58/2023 Pasal 2 (who is in which category), which
    # led at 0.44; the act's part holding the amount joins after it (session 65)
    answer = anonymous_answer(services, "TER kategori A untuk gaji Rp 6.000.000?", as_of=AS_OF)
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("pp-58-2023", "Lampiran huruf A")
    assert "Rp5.950.000,00" in lead.quote and "Rp6.300.000,00" in lead.quote and "0,75%" in lead.quote


def test_the_named_categorys_row_leads_whatever_the_lead_weights_say(services: Any) -> None:
    # the part of table B holding 15 million was 9th and PMK 168/2023's job-expense allowance (5% of gross
    # income) led: the row of the named category that holds the stated amount is the answer itself
    # (session 65)
    answer = anonymous_answer(
        services, "karyawan kategori B penghasilan bruto 15 juta sebulan, TER-nya berapa?", as_of=AS_OF
    )
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("pp-58-2023", "Lampiran huruf B")
    assert "Rp14.950.000,00" in lead.quote and "Rp16.400.000,00" in lead.quote and "6%" in lead.quote


#: PP 58/2023 Pasal 2 ayat (4), as the scan wrote it: the statuses written out, lines broken inside them
CATEGORIES = """(4) Kategori tarif efektif bulanan sebagaimana dimaksud pada
ayat (3) terdiri atas:
a. kategori A diterapkan atas penghasilan bruto bulanan
yang diterima atau diperoleh penerima penghasilan
dengan status Penghasilan Tidak Kena Pajak:
1. tidak kawin tanpa tanggungan;
2. tidak kawin dengan jumlah tanggungan
sebanyak 1 (satu) orang; atau
3. kawin tanpa tanggungan.
b. kategori B diterapkan atas penghasilan bruto bulanan
dengan status Penghasilan Tidak Kena Pajak:
1. tidak kawin dengan jumlah tanggungan
sebanyak 2 (dua) orang;
3. kawin dengan jumlah tanggungan sebanyak I
(satu) orang; atau
c. kategori C diterapkan atas penghasilan bruto bulanan
dengan status Penghasilan Tidak Kena Pajak kawin
dengan jumlah tanggungan sebanyak 3 (tiga) orang.
"""


@pytest.mark.parametrize(
    ("code", "category"),
    [("TK/0", "A"), ("TK/1", "A"), ("K/0", "A"), ("TK/2", "B"), ("K/1", "B"), ("K/3", "C"), ("K/2", None)],
)
def test_the_category_a_ptkp_status_is_in_is_read_from_the_acts_rule(code: str, category: str | None) -> None:
    # "kawin tanpa tanggungan" (K/0) inside "tidak kawin tanpa tanggungan" (TK/0) is not K/0's; a status the
    # text names under no category (K/2 is left out of this excerpt) has none
    (status,) = status_patterns(f"status {code}")
    assert class_of_status(status, CATEGORIES) == category


@pytest.mark.parametrize(
    ("question", "location", "row", "rate"),
    [
        # TK/0 is in category A: 8,55 to 9,65 million at 1,75% (before: PMK 168/2023's 50% at 0.65)
        (
            "Karyawan status TK/0 gaji 9 juta, tarif PPh 21 bulanannya berapa?",
            "Lampiran huruf A",
            "Rp8.550.000,00",
            "1,75%",
        ),
        # K/3 is in category C: 14,15 to 15,55 million at 5%; "TER" names a rate (lexicon question_kinds.rate)
        (
            "Berapa TER PPh 21 untuk pegawai K/3 dengan gaji Rp15.000.000 sebulan?",
            "Lampiran huruf C",
            "Rp14.150.000,00",
            "5%",
        ),
        # K/1 is in category B: 6,85 to 7,3 million at 0,75%
        (
            "gaji 7 juta status K/1, potongan PPh 21 per bulan berapa persen?",
            "Lampiran huruf B",
            "Rp6.850.000,00",
            "0,75%",
        ),
    ],
)
def test_the_rate_of_a_monthly_income_is_read_in_the_category_of_the_askers_status(
    services: Any, question: str, location: str, row: str, rate: str
) -> None:
    answer = anonymous_answer(services, question, as_of=AS_OF)
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("pp-58-2023", location)
    assert row in lead.quote and rate in lead.quote
    assert f"tarifnya {rate}" in answer.answer


def test_a_status_named_without_a_rate_asked_picks_no_table(services: Any) -> None:
    # an amount asked ("berapa PTKP"), not a rate: the status names no rate category, no table row answers
    answer = anonymous_answer(services, "Karyawan K/2 gaji 8 juta, berapa PTKP setahun?", as_of=AS_OF)
    assert not any(c.source.location.startswith("Lampiran") for c in answer.claims)


@pytest.mark.parametrize(
    ("question", "category", "status"),
    [
        # the last item of category B (K/2), read as TK/2 (the list's first item) before session 66
        (
            "Pegawai status K/2 masuk kategori TER apa?",
            "kategori B",
            "kawin dengan jumlah tanggungan sebanyak 2",
        ),
        ("Pegawai status TK/1 masuk kategori apa?", "kategori A", "tidak kawin dengan jumlah tanggungan"),
        # a chat message: Pasal 2 ayat (3) and (5) share its words, ayat (4) none of "K/1"
        (
            "halo, pegawai baru kami statusnya K/1 dan digaji bulanan. utk PPh 21 pakai TER kategori A, B "
            "atau C?",
            "kategori B",
            "(satu) orang",
        ),
        (
            "Which TER category applies to an employee with status K/3?",
            "kategori C",
            "kawin dengan jumlah tanggungan sebanyak 3",
        ),
        # a monthly income stated beside the status: the row of the category's table holding it (1,75%) led
        # the category question (session 67), a rate no one asked for
        (
            "Karyawan status TK/0 gaji 9jt, masuk kategori TER apa?",
            "kategori A",
            "tidak kawin tanpa tanggungan",
        ),
        (
            "Our new hire is K/1 and earns 7 million a month: which TER category applies?",
            "kategori B",
            "(satu) orang",
        ),
        # the status in words (kb.ptkp.statuses_named)
        (
            "Karyawan kawin anak 2 gaji 12 juta, masuk kategori TER apa?",
            "kategori B",
            "kawin dengan jumlah tanggungan sebanyak 2",
        ),
    ],
)
def test_the_category_of_a_status_is_answered_with_the_item_writing_it_out(
    services: Any, question: str, category: str, status: str
) -> None:
    # PP 58/2023 Pasal 2 ayat (4) shares no word with "K/2": it joins after its act's first hit, and the line
    # reads the status's own item with its category (kb.retrieve._with_status_rule, render._answer_part)
    answer = anonymous_answer(services, question, as_of=AS_OF)
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("pp-58-2023", "Pasal 2 ayat (4)")
    assert category in answer.answer and status in answer.answer
    if "K/2" in question:
        assert "tidak kawin" not in answer.answer
