"""A rate question told through its case ("transaksi ke customer", "tagihan dari vendor ... benar tidak?") is
answered by the named tax's rate provision: the words naming the transaction, its document or its parties are
covered by a passage about that tax, and a check tag ("benar tidak?") or "tertanggal" names no topic.  A 0%
(zero-rating) is another regime than the tax's rate, never a conflicting value of it."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.conflicts import Fact, like
from bot.answer.pipeline import answer_question


def _lead(services: Any, question: str) -> tuple[str, str, str, str]:
    answer = answer_question(question, services.cli_principal(None), services)
    assert answer.status == "answered", answer.status
    lead = answer.claims[0]
    return answer.as_of.isoformat(), lead.source.doc_id, lead.source.location.split(" ")[1], lead.quote


def test_a_vat_rate_asked_about_a_transaction_is_led_by_the_rate(services: Any) -> None:
    as_of, doc, pasal, quote = _lead(services, "transaksi ke customer tahun 2023 kena PPN berapa persen ya")
    assert (as_of, doc, pasal) == ("2023-01-01", "uu-7-2021", "7")
    assert "11%" in quote


def test_a_checked_rate_on_a_dated_bill_is_confirmed_without_a_zero_rate_rival(services: Any) -> None:
    question = "tagihan dari vendor tertanggal 10 Januari 2022 kena PPN 10%, benar tidak?"
    answer = answer_question(question, services.cli_principal(None), services)
    assert answer.as_of == dt.date(2022, 1, 10)
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.quote) == (
        "uu-42-2009",
        "(1) Tarif Pajak Pertambahan Nilai adalah 10% (sepuluh persen).",
    )
    assert answer.conflicts == ()


def test_zero_rating_is_no_value_of_the_tax_rate() -> None:
    def rate(surface: str) -> Fact:
        return Fact("rate", frozenset({surface}), surface, "PPN", frozenset(), frozenset(), False)

    assert like(rate("10%"), rate("11%"))
    assert not like(rate("10%"), rate("0%"))
    assert not like(rate("0,0%"), rate("12%"))
    assert like(rate("0%"), rate("0%"))


def test_another_taxs_rate_in_the_same_pasal_does_not_lead(services: Any) -> None:
    # UU PPN's Pasal 8 states the PPnBM range ("Pajak Penjualan atas Barang Mewah ... paling rendah 10%"):
    # "penjualan" is a word of the case here, and the PPnBM range is no answer to a VAT rate question
    as_of, doc, pasal, quote = _lead(services, "PPN atas penjualan ke toko bulan Agustus 2022 berapa persen?")
    assert (as_of, doc, pasal) == ("2022-08-01", "uu-7-2021", "7")
    assert "11%" in quote and "Barang Mewah" not in quote


def test_the_long_name_of_ppnbm_is_a_tax_named() -> None:
    from bot.answer.conflicts import mentioned_taxes

    assert mentioned_taxes("Tarif Pajak Penjualan atas Barang Mewah paling tinggi 200%") == ["PPnBM"]
    both = "Pajak Pertambahan Nilai dan Pajak Penjualan atas Barang Mewah yang terutang"
    assert mentioned_taxes(both) == ["PPN", "PPnBM"]


def test_the_acts_name_of_the_transaction_is_a_word_of_the_case(services: Any) -> None:
    # "penyerahan" is the acts' word for the supply VAT is charged on; UU PPN Pasal 16A (VAT collectors)
    # writes it and led the rate question over Pasal 7, which does not (session 54, a probe of our own)
    as_of, doc, pasal, quote = _lead(services, "Tarif PPN untuk penyerahan tahun 2023 berapa?")
    assert (as_of, doc, pasal) == ("2023-01-01", "uu-7-2021", "7")
    assert "11%" in quote
