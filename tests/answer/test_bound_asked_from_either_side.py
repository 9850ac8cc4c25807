""" "X di atas berapa?", "lebih dari berapa?", "above what amount?" ask a bound, as "sampai berapa" does.

A probe of our own (session 69): "Bea meterai untuk kuitansi di atas berapa rupiah?" was answered with the
duty itself (UU Bea Meterai Pasal 5, Rp10.000) instead of the amount a receipt must exceed (Pasal 3 ayat (2)
huruf g, "nilai nominal lebih dari Rp5.000.000,00"): "di atas berapa" was read as asking an amount, not a
limit."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import ASKS_LIMIT
from kb import lexicon
from tests.answer.chunk_sample import anonymous_answer

AS_OF = dt.date(2026, 12, 1)


@pytest.mark.parametrize(
    "question",
    [
        "Bea meterai untuk kuitansi di atas berapa rupiah?",
        "transaksi lebih dari brp yang wajib dipungut?",
        "penghasilan di bawah berapa yang tidak dipotong?",
        "Which receipts are taxed: over what amount?",
        "Does the duty apply to documents above how much?",
    ],
)
def test_a_bound_asked_from_either_side_asks_a_limit(question: str) -> None:
    assert ASKS_LIMIT.search(lexicon.plain_question(question))


@pytest.mark.parametrize(
    "question", ["Berapa tarif bea meterai?", "Di atas meja ada kuitansi, kena meterai?"]
)
def test_no_bound_asked(question: str) -> None:
    assert not ASKS_LIMIT.search(lexicon.plain_question(question))


@pytest.mark.parametrize(
    "question",
    ["Bea meterai untuk kuitansi di atas berapa rupiah?", "Dokumen di atas berapa wajib pakai meterai?"],
)
def test_the_stamp_duty_bound_answers(services: Any, question: str) -> None:
    answer = anonymous_answer(services, question, as_of=AS_OF)
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.chunk_id == "uu-10-2020#pasal-3"
    assert "lebih dari Rp5.000.000,00" in lead.quote
