"""A tax invoice "diterbitkan" (chat) is one "dibuat" (the acts), and "wajib" is a duty as "harus" is.

"Kapan faktur pajak wajib diterbitkan kalau ada uang muka?" had UU PPN Pasal 13 ayat (1a) ("Faktur Pajak ...
harus dibuat pada: ... b. saat penerimaan pembayaran dalam hal penerimaan pembayaran terjadi sebelum
penyerahan") first among the passages, yet under the relevance floor: it wrote neither "wajib" nor
"diterbitkan", and an elucidation on refunds to travellers that did led the answer.  Lexicon `law_words`
(coverage only).  Session 64; the question is our own."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.extractive import question_concepts
from kb.lexical import stem
from tests.answer.chunk_sample import anonymous_answer, compose_request


def test_wajib_is_covered_by_harus_and_diterbitkan_by_dibuat() -> None:
    concepts = question_concepts(compose_request("Kapan faktur pajak wajib diterbitkan?"))
    duty = next(c for c in concepts if (stem("wajib"),) in c)
    assert (stem("harus"),) in duty
    issued = next(c for c in concepts if (stem("diterbitkan"),) in c)
    assert (stem("dibuat"),) in issued


def test_the_invoice_of_a_down_payment_is_made_when_it_is_received(services: Any) -> None:
    question = "Kapan faktur pajak wajib diterbitkan kalau ada uang muka?"
    answer = anonymous_answer(services, question, as_of=dt.date(2026, 12, 1))
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.location.startswith("Pasal 13 ayat (1a) ")
    assert "saat penerimaan pembayaran dalam hal penerimaan pembayaran terjadi sebelum" in lead.quote
