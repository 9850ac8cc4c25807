"""A passage of UU PPN is about PPN though it writes only "pajak" ("Terutangnya pajak terjadi pada saat: ...
c. penyerahan Jasa Kena Pajak", Pasal 11): the composer reads a question's "PPN" as covered by it
(kb.query.ACT_TAX_NAMES).  Session 57.  In the candidates' coverage too it lifted every UU PPN definition
over the export rate for an English VAT question; since session 60 the candidates read it for every passage
but a definition (tests/answer/test_when_a_tax_falls_due.py)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.extractive import ExtractiveComposer, question_concepts
from bot.wiring import search_filter
from kb.query import act_tax_name
from tests.answer.chunk_sample import compose_request

QUESTION = "Kapan PPN atas penyerahan jasa terutang?"


def test_the_act_names_its_tax() -> None:
    assert act_tax_name("UU 8/1983") == "Pajak Pertambahan Nilai"
    assert act_tax_name("UU 6/1983") == ""
    assert act_tax_name(None) == ""


def test_uu_ppn_pasal_11_covers_the_ppn_question(services: Any) -> None:
    flt = search_filter(services.cli_principal(None), dt.date(2026, 12, 1))
    found = services.retriever.search(QUESTION, flt, top_k=60).results
    pasal_11 = next(h for h in found if h.chunk.doc_id == "uu-42-2009" and h.chunk.key.endswith("/pasal-11"))
    concepts = question_concepts(compose_request(QUESTION, [pasal_11]))
    assert ExtractiveComposer()._relevant(pasal_11, concepts) == 1.0
