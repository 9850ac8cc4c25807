"""Selling land or a building is a "pengalihan hak atas tanah dan/atau bangunan" in the income tax acts.

PP 34/2016 never writes "jual": its Pasal 2 ayat (1) states the final rate on the "jumlah bruto nilai
pengalihan hak atas tanah dan/atau bangunan".  A question about selling a house, an office building or a
shophouse shared one word with it at most, so a VAT exemption that writes "harga jual" answered it, or the
sale was asked which income tax it meant.  Since session 49 "jual" is covered by "pengalihan"
(``law_words``), "gedung"/"ruko"/"properti" are searched as "bangunan" (``search_words``), "berapa PPh ...?"
is a rate question for retrieval as it already was for the composer, and a building named in a rate
question says what the income is.  Messages are our own.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer import clarify
from bot.answer.pipeline import answer_question
from kb import lexicon
from kb.lexical import coverage, question_concepts, stem
from kb.query import understand
from kb.retrieve import _RATE_Q

TODAY = dt.date(2026, 12, 5)
#: the shape of PP 34/2016 Pasal 2 ayat (1) huruf a (own words, shortened)
TRANSFER_RATE = (
    "Besarnya Pajak Penghasilan dari pengalihan hak atas tanah dan/atau bangunan adalah sebesar 2,5% dari "
    "jumlah bruto nilai pengalihan hak atas tanah dan/atau bangunan."
)


def _concept_of(question: str, word: str) -> frozenset:
    concepts = question_concepts(understand(question), question)
    (concept,) = [c for c in concepts if (stem(word),) in c]
    return concept


def test_selling_is_covered_by_the_transfer_the_act_writes() -> None:
    assert "pengalihan" in lexicon.law_words()["jual"]
    assert "pengalihan" in lexicon.law_words()["penjualan"]
    assert (
        coverage([_concept_of("Kalau kita jual tanah kosong, PPh-nya gimana?", "jual")], TRANSFER_RATE) == 1.0
    )
    assert coverage([_concept_of("Penjualan tanah kosong kena PPh apa?", "penjualan")], TRANSFER_RATE) == 1.0


def test_everyday_names_of_a_building_are_searched_as_bangunan() -> None:
    for word in ("gedung", "ruko"):
        plan = understand(f"Kami mau melepas {word} di pinggir kota")
        assert any("bangunan" in e.added for e in plan.expansions), word
    assert coverage([_concept_of("Kami mau melepas gedung di pinggir kota", "gedung")], TRANSFER_RATE) == 1.0


def test_berapa_then_the_tax_asks_a_rate_for_retrieval_too() -> None:
    assert _RATE_Q.search("berapa pph kalau kami menjual ruko?")
    assert _RATE_Q.search("berapa pajak yang kena kalau jual rumah?")
    assert not _RATE_Q.search("berapa lama faktur pajak boleh dibuat?")


def test_a_building_named_in_a_rate_question_says_what_the_income_is() -> None:
    assert (
        clarify.check("Perusahaan kami menjual gedung kantor lama, kena PPh berapa persen?", has_date=True)
        is None
    )
    # without any object the income is still asked for
    blocked = clarify.check("Kena PPh berapa persen ya kalau begitu?", has_date=True)
    assert blocked is not None


def test_the_rate_on_selling_a_shophouse_is_pp_34_2016_pasal_2(services: Any) -> None:
    answer = answer_question(
        "Berapa PPh kalau perusahaan kami menjual ruko?", services.cli_principal(None), services, as_of=TODAY
    )
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.chunk_id == "pp-34-2016#pasal-2/ayat-1"
    assert "2,5% (dua koma lima persen)" in lead.quote


def test_selling_an_office_building_is_answered_not_asked_which_income_tax(services: Any) -> None:
    answer = answer_question(
        "Perusahaan kami menjual gedung kantor lama, kena PPh berapa persen?",
        services.cli_principal(None),
        services,
        as_of=TODAY,
    )
    assert answer.status == "answered"
    assert answer.claims[0].source.chunk_id == "pp-34-2016#pasal-2/ayat-1"
    assert "2,5%" in answer.claims[0].quote
