"""A general elucidation ("Penjelasan Umum") is background, never quoted: an answer's search leaves it out so
it does not take the places of the rules (three general elucidations of UU PPN amendments used to push UU
HPP's rate Pasal out of a "tarif PPN" question's list)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.pipeline import answer_question
from bot.wiring import search_filter
from kb.retrieve import is_general_elucidation

QUESTION = "Berapa tarif PPN atas penyerahan Barang Kena Pajak yang berlaku sekarang?"
WHEN = dt.date(2026, 12, 1)


def test_statements_only_search_leaves_general_elucidations_out(services: Any) -> None:
    flt = search_filter(services.cli_principal(None), WHEN)
    everything = services.retriever.search(QUESTION, flt, top_k=10)
    statements = services.retriever.search(QUESTION, flt, top_k=10, statements_only=True)
    assert any(is_general_elucidation(h.chunk) for h in everything.results)
    assert not any(is_general_elucidation(h.chunk) for h in statements.results)
    assert len(statements.results) == 10


def test_the_rate_question_is_answered_from_the_rate_pasal(services: Any) -> None:
    answer = answer_question(QUESTION, services.cli_principal(None), services, as_of=WHEN)
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "uu-7-2021" and lead.source.location.startswith("Pasal 7 ")
    assert "12% (dua belas persen)" in lead.quote
