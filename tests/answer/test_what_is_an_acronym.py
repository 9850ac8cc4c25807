""" "What is PTKP?" asks what a term is, as "Apa itu PTKP?" does; a definition of another term that does not
even name the asked one is no answer to it.

"What is PTKP?" was answered with PP 94/2010 Pasal 14, which names PTKP in passing: a question of only
"What is <word>?" was no definition question ("What is a ...?" needs the article). "What is TER?" was then
answered with PP 58/2023 Pasal 1 angka 1 ("Undang-Undang Pajak Penghasilan adalah ..."), a definition whose
coverage came from its Pasal's other items.  Session 63; the questions are our own."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import definition_heads, names_no_asked_term
from kb.query import defined_term
from tests.answer.chunk_sample import anonymous_answer

AS_OF = dt.date(2026, 12, 1)


@pytest.mark.parametrize(
    ("question", "term"),
    [("What is PTKP?", "ptkp"), ("What is e-Faktur?", "e-faktur"), ("what is TER", "ter")],
)
def test_a_one_word_what_is_question_asks_a_term(question: str, term: str) -> None:
    assert defined_term(question) == term


@pytest.mark.parametrize(
    "question", ["What is the rate?", "What is due?", "What is it?", "What is PPh 23 rate?"]
)
def test_other_what_is_questions_ask_no_term(question: str) -> None:
    assert defined_term(question) is None


def test_a_definition_of_another_term_naming_none_of_the_asked_one() -> None:
    read = definition_heads("1. Undang-Undang Pajak Penghasilan adalah Undang-Undang Nomor 7 Tahun 1983")
    assert names_no_asked_term([["ter"], ["tarif", "efektif", "pemotongan"]], read)
    own = definition_heads("16. Penghasilan Tidak Kena Pajak adalah batasan penghasilan ...")
    assert not names_no_asked_term([["ptkp"], ["penghasilan", "tidak", "kena", "pajak"]], own)


def test_ptkp_is_answered_with_its_definition(services: Any) -> None:
    answer = anonymous_answer(services, "What is PTKP?", as_of=AS_OF)
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("pmk-168-2023", "Pasal 1 angka 16")
    assert "Penghasilan Tidak Kena Pajak adalah" in lead.quote


def test_ter_is_not_answered_with_the_income_tax_law_definition(services: Any) -> None:
    answer = anonymous_answer(services, "What is TER?", as_of=AS_OF)
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert "Undang-Undang Pajak Penghasilan adalah" not in lead.quote
    assert "tarif efektif" in lead.quote.lower()
