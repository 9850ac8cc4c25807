"""An amount asked for a term the law sets in one Pasal is answered from that Pasal.

"berapa PTKP untuk status K/2?" (a probe of our own, session 53) was answered with PP 58/2023's TER category
of "tidak kawin dengan jumlah tanggungan sebanyak 2 (dua) orang": UU PPh Pasal 7 ayat (1) states the PTKP
amounts but not the word "status", which was a concept of the question, and its words rank the TER categories
first.  "status" frames the thing whose status it is (lexicon ``generic_words``); the reviewed alias ``ptkp``
names the Pasal that sets the term (``governs``, provision origin ``governs``), and when no rule leading the
results states an amount, the best passage of that Pasal stating one joins them after the best rule
(``kb.retrieve._with_governed_amount``), read as relevant however few of the story's words it shares.
"""

from __future__ import annotations

from typing import Any

from bot.answer.parts import answer_message
from kb.query import understand
from kb.store.protocol import SearchFilter
from tests.answer.chunk_sample import TODAY, anonymous_answer


def test_the_alias_names_the_governing_pasal_as_its_own_origin() -> None:
    hints = [(p.pasal, p.law, p.origin) for p in understand("PTKP karyawan berapa?").provisions]
    assert ("7", "UU 7/1983", "governs") in hints
    # a tax type's Pasal stays a tax-type hint
    assert ("23", "UU 7/1983", "tax_type") in [
        (p.pasal, p.law, p.origin) for p in understand("PPh 23 berapa?").provisions
    ]


def test_a_ptkp_asked_by_status_code_is_answered_with_the_amounts(services: Any) -> None:
    answer = anonymous_answer(services, "Kalau status K/2, PTKP setahunnya berapa?")
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "uu-7-2021" and lead.source.location.startswith("Pasal 7 ayat (1)")
    assert "Rp54.000.000,00" in lead.quote
    assert "kategori" not in answer.answer


def test_the_amount_leads_when_a_story_comes_first(services: Any) -> None:
    question = "Kami baru rekrut staf admin, statusnya K/1, gajinya dipotong PPh 21. Besaran PTKP nya brp?"
    answer = answer_message(question, services.cli_principal(None), services, as_of=TODAY)
    lead = answer.claims[0]
    assert lead.source.doc_id == "uu-7-2021" and lead.source.location.startswith("Pasal 7 ayat (1)")
    assert "Rp" in lead.quote


def _governed(services: Any, question: str) -> list[str]:
    found = services.retriever.search(question, SearchFilter(groups=frozenset({"everyone"}), as_of=TODAY))
    return [h.chunk.location for h in found.results if "graph:governed_amount" in h.via]


def test_only_an_amount_question_gets_the_amount_passage(services: Any) -> None:
    assert [loc[:16] for loc in _governed(services, "Kalau status K/2, PTKP setahunnya berapa?")] == [
        "Pasal 7 ayat (1)"
    ]
    # asking when, or asking nothing of an amount, adds nothing
    assert _governed(services, "PTKP ditentukan menurut keadaan kapan?") == []
    assert _governed(services, "Apa yang dimaksud PTKP?") == []


def test_an_english_what_is_the_threshold_question_asks_the_amount(services: Any) -> None:
    # "what is the <thing> threshold?" asks a figure as "how much" does (lexicon question_kinds.amount)
    answer = anonymous_answer(services, "What is the non-taxable income threshold for one person?")
    lead = answer.claims[0]
    assert lead.source.doc_id == "uu-7-2021" and lead.source.location.startswith("Pasal 7 ayat (1)")
    assert "Rp54.000.000,00" in lead.quote


def test_a_single_taxpayer_is_not_given_the_married_addition(services: Any) -> None:
    answer = anonymous_answer(services, "What is the non-taxable income threshold for a single taxpayer?")
    assert "Rp54.000.000,00" in answer.claims[0].quote
    assert "yang kawin" not in answer.claims[0].quote


def test_the_umkm_turnover_bound_is_answered_from_the_pasal_that_sets_it(services: Any) -> None:
    """Session 67 (a probe of our own): "batas omzet" shares no word with PP 55/2022 Pasal 57 ayat (1)
    ("peredaran bruto tidak melebihi Rp4.800.000.000,00"), which ranked 37th; the UMKM alias now names
    Pasal 57 as the Pasal that governs the regime's bound.  A rate asked is still answered with Pasal 56
    ayat (2)."""
    bound = anonymous_answer(services, "Batas omzet untuk PPh final UMKM berapa?")
    assert bound.status == "answered"
    lead = bound.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("pp-55-2022", "Pasal 57 ayat (1)")
    assert "Rp4.800.000.000,00" in lead.quote
    rate = anonymous_answer(services, "Berapa tarif PPh final UMKM?")
    assert (rate.claims[0].source.doc_id, rate.claims[0].source.location) == (
        "pp-55-2022",
        "Pasal 56 ayat (2)",
    )
    assert "tarifnya 0,5%" in rate.answer
