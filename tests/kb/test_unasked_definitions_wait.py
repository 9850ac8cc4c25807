"""Definitions the question does not ask for take at most three places of the results.

Session 74, a probe of our own: "Is export of services subject to VAT?" asked by a staff member (who may
read the company's policies too) listed seven Pasal 1 items (what "Pajak Keluaran", "Penggantian", "Ekspor
Jasa Kena Pajak" mean), two policy sections, and no rule: UU PPN Pasal 4, which charges the export of a
taxable service ("h. ekspor Jasa Kena Pajak oleh Pengusaha Kena Pajak"), fell out of the ten, and the answer
led with the definition of output tax.  Unasked definitions already took no place of their document's two
(``RetrievalConfig.per_doc``); now the fourth and later wait with the capped passages
(``RetrievalConfig.unasked_definitions``).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.pipeline import answer_question
from bot.wiring import search_filter
from kb.retrieve import RetrievalConfig

STAFF = "ap.clerk@sinarnusantara.co.id"
QUESTION = "Is export of services subject to VAT?"


def test_at_most_three_unasked_definitions_are_listed(services: Any) -> None:
    assert RetrievalConfig().unasked_definitions == 3
    flt = search_filter(services.cli_principal(STAFF), dt.date(2026, 12, 8))
    hits = services.retriever.search(QUESTION, flt, top_k=10).results
    definitions = [h.chunk.id for h in hits if h.chunk.kind == "definition"]
    assert len(definitions) <= 3, definitions
    assert any(h.chunk.location.startswith("Pasal 4 UU 8/1983") for h in hits)


def test_the_export_of_a_service_is_answered_from_the_rule_that_charges_it(services: Any) -> None:
    answer = answer_question(QUESTION, services.cli_principal(STAFF), services, as_of=dt.date(2026, 12, 8))
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.location.startswith("Pasal 4 UU 8/1983")
    assert "ekspor Jasa Kena Pajak" in lead.quote
