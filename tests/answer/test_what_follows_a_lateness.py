"""What follows a lateness or an omission asks its sanction, without the word "sanksi": "Bagaimana jika SPT
terlambat disampaikan?" (lexicon ``question_kinds.penalty``).  Before session 60 it was answered with an
elucidation on refund compliance, UU KUP Pasal 7 ayat (1) (the fine for a late return) not among the
candidates; and "akibat"/"konsekuensi" were topics no passage names, so "Apa akibatnya kalau telat setor
PPh 23?" was declined for want of a source.  Questions are our own."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from kb import lexicon
from tests.answer.chunk_sample import anonymous_answer


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("Bagaimana jika SPT terlambat disampaikan?", True),
        ("apa akibatnya kalau lupa setor PPh 21?", True),
        ("Apa konsekuensinya jika faktur tidak dibuat?", True),
        ("What happens if we file the return late?", True),
        # a case that is no lateness or omission asks no sanction
        ("Bagaimana jika pembayaran diterima sebelum penyerahan?", False),
        ("What happens if the vendor is abroad?", False),
    ],
)
def test_what_follows_a_lateness_asks_its_sanction(question: str, asks: bool) -> None:
    assert lexicon.asks_penalty(question) is asks


def test_a_late_return_is_answered_with_its_fine(services: Any) -> None:
    answer = anonymous_answer(
        services, "Bagaimana jika SPT terlambat disampaikan?", as_of=dt.date(2026, 12, 1)
    )
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "uu-28-2007" and lead.source.location.startswith("Pasal 7 ayat (1)")
    assert "dikenai sanksi administrasi berupa denda" in lead.quote


def test_the_consequence_word_is_no_topic(services: Any) -> None:
    answer = anonymous_answer(services, "Apa akibatnya kalau telat setor PPh 23?", as_of=dt.date(2026, 12, 1))
    assert answer.status == "answered"
    assert answer.claims[0].source.location.startswith("Pasal 9 ayat (2a)")
    assert "sanksi administratif berupa bunga" in answer.claims[0].quote
