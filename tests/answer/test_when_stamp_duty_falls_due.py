"""When stamp duty falls due depends on the document (UU Bea Meterai Pasal 8 ayat (1)): signed (huruf a),
made (huruf b), handed over (huruf c), put before a court (huruf d) or used in Indonesia (huruf e).

The scan had run huruf b to e on after the numbered items of the huruf before them, so "Kapan bea meterai
surat berharga terutang?" was told "a Dokumen dibubuhi Tanda Tangan, untuk: surat berharga ..." (when signed;
the act says when made).  With the text repaired, a numbered item under a lettered one ("a. Dokumen dibubuhi
Tanda Tangan, untuk: 1. surat perjanjian ...") is read with the list's lead-in when a time is asked, as a
lettered item is (`extractive._fact_text`): judged alone it stated no moment, and huruf d led the surat
perjanjian question.
Session 64; the questions are our own."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import Unit, _fact_text, states_asked
from tests.answer.chunk_sample import anonymous_answer

LEAD_IN = "Bea Meterai terutang pada saat:"
SUB_ITEM = Unit(
    "a. Dokumen dibubuhi Tanda Tangan, untuk: 1. surat perjanjian beserta rangkapnya;",
    f"{LEAD_IN} a. Dokumen dibubuhi Tanda Tangan, untuk: surat perjanjian beserta rangkapnya;",
    False,
)


def test_a_numbered_item_under_a_lettered_one_is_read_with_the_lists_lead_in() -> None:
    question = "Kapan bea meterai atas surat perjanjian terutang?"
    assert _fact_text("deadline", SUB_ITEM) == SUB_ITEM.text
    assert states_asked(question, "deadline", _fact_text("deadline", SUB_ITEM))
    assert _fact_text("rate", SUB_ITEM) == SUB_ITEM.quote


@pytest.mark.parametrize(
    ("question", "item"),
    [
        (
            "Kapan bea meterai atas surat perjanjian terutang?",
            "a. Dokumen dibubuhi Tanda Tangan, untuk: 1. surat",
        ),
        ("Kapan bea meterai surat berharga terutang?", "b. Dokumen selesai dibuat, untuk: 1. surat berharga"),
        (
            "Kapan bea meterai atas dokumen yang menyatakan jumlah uang terutang?",
            "c. Dokumen diserahkan kepada pihak untuk siapa Dokumen tersebut dibuat",
        ),
        (
            "Kapan bea meterai atas dokumen yang dibuat di luar negeri terutang?",
            "e. Dokumen digunakan di Indonesia",
        ),
    ],
)
def test_the_moment_of_the_asked_document_leads(services: Any, question: str, item: str) -> None:
    answer = anonymous_answer(services, question, as_of=dt.date(2026, 12, 1))
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert (lead.source.doc_id, lead.source.location) == ("uu-10-2020", "Pasal 8 ayat (1)")
    assert lead.quote.startswith(item)
