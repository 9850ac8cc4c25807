"""A percentage in the leading quote is read as "tarifnya X%" only when the question asks a rate, or asks no
kind of fact and the quote charges a tax.  A question whether a donation is deductible led by "Besarnya
biaya pensiun ... sebesar 5% dari penghasilan bruto" read "Menurut PMK 168/2023, tarifnya 5% dari penghasilan
bruto": a deduction told as a tax rate.  The sentences below are our own or the acts' wording, not eval
questions."""

from __future__ import annotations

import datetime as dt

from bot.answer.model import ShownClaim, SourceRef
from bot.answer.render import _fact_sentence


def _claim(quote: str) -> ShownClaim:
    source = SourceRef(
        "pmk-168-2023", "PMK 168/2023", "Pemotongan PPh 21", "Pasal 11", dt.date(2024, 1, 1), None,
        "in_force", None, False, "pmk-168-2023#pasal-11",
    )  # fmt: skip
    return ShownClaim(quote, quote, "regulation", False, "entailed", source)


DEDUCTION = (
    "Besarnya biaya pensiun sebagaimana dimaksud pada ayat (1) huruf a ditetapkan sebesar 5% (lima persen) "
    "dari penghasilan bruto"
)


def test_a_deduction_is_not_read_as_a_rate_when_no_rate_is_asked() -> None:
    line, rate = _fact_sentence(_claim(DEDUCTION), 1, "id", None, "sumbangan ke yayasan boleh jadi biaya?")
    assert "tarifnya" not in line and rate is None
    assert "Besarnya biaya pensiun" in line  # the rule's own words instead


def test_a_quote_that_charges_a_tax_still_reads_as_its_rate() -> None:
    quote = "dipotong Pajak Penghasilan sebesar 2% (dua persen) dari jumlah bruto atas imbalan jasa teknik"
    line, rate = _fact_sentence(_claim(quote), 1, "id", None, "jasa teknik ke PT lain gimana pajaknya?")
    assert line.startswith("Menurut PMK 168/2023, tarifnya 2%")
    assert rate is not None and rate.startswith("2%")


def test_a_rates_table_row_still_reads_as_its_rate() -> None:
    quote = "| Jenis jasa | Angkutan laut dalam negeri | 1,2% (peredaran bruto) |"
    line, _ = _fact_sentence(_claim(quote), 1, "id", None, "pembayaran ke pelayaran dalam negeri gimana?")
    assert "tarifnya 1,2%" in line


def test_an_asked_rate_is_read_from_any_quote() -> None:
    line, _ = _fact_sentence(_claim(DEDUCTION), 1, "id", "rate", "berapa persen biaya pensiun?")
    assert "tarifnya 5%" in line
