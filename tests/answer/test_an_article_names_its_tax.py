"""An article of UU PPh is its tax type: Pasal 26 ayat (1) ("dipotong pajak sebesar 20% ... a. dividen")
never writes "Pasal 26", so "tarif PPh 26 atas dividen" found it irrelevant and PP 94/2010's elucidation
on when the tax on an interim dividend falls due led; the passage's tax (``kb.query.passage_tax_name``)
now names the article for the candidates' coverage and the composer's relevance. The rate's base ends
before the party it is withheld by ("dari jumlah bruto", not "dari jumlah bruto oleh pihak"). A surcharge
of a regime the question does not name does not lead a rate question for being the only percentage found.
Session 60; questions are our own."""

from __future__ import annotations

import datetime as dt
from typing import Any

from kb.query import passage_tax_name
from tests.answer.chunk_sample import anonymous_answer


def test_an_article_of_uu_pph_names_its_tax_type() -> None:
    # UU PPh Pasal 26 ayat (1) never writes "Pasal 26": the article is the tax type (session 60)
    assert passage_tax_name("UU 7/1983", "26", "1") == "Pajak Penghasilan Pasal 26"
    assert passage_tax_name("UU 7/1983", "4", "2") == "Pajak Penghasilan Pasal 4 ayat (2)"
    assert passage_tax_name("UU 7/1983", "17", "1") == "Pajak Penghasilan"
    assert passage_tax_name("UU 8/1983", "7", "1") == "Pajak Pertambahan Nilai"


def test_the_dividend_rate_of_pph26_is_led_by_uu_pph_pasal_26(services: Any) -> None:
    answer = anonymous_answer(services, "Berapa tarif PPh 26 atas dividen?", as_of=dt.date(2026, 12, 1))
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.location.startswith("Pasal 26 ayat (1)")
    # the base ends before the party it is withheld by
    assert "tarifnya 20% dari jumlah bruto [1]" in answer.answer


def test_a_surcharge_of_an_unasked_regime_does_not_lead_a_rate_question(services: Any) -> None:
    # with its article named, UU PPh Pasal 21 ayat (5a) (20% higher without NPWP) became relevant to a PPh 21
    # rate question and, the only passage stating a percentage, led it; its rates are all of a regime the
    # question does not name (session 60)
    answer = anonymous_answer(services, "tarif PPh 21 berapa ya?", as_of=dt.date(2026, 12, 1))
    assert answer.status == "answered"
    assert not answer.claims[0].source.location.startswith("Pasal 21 ayat (5a)")
    assert answer.claims[0].source.doc_id in ("pp-58-2023", "pmk-168-2023")
