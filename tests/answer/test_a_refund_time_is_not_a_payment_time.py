"""The time limit for returning an excess withheld answers no question on when to pay.

"Kapan batas setor PPh 21 yang sudah dipotong?" was answered (0.45) "paling lambat akhir bulan berikutnya
setelah Masa Pajak Terakhir" from PMK 168/2023 Pasal 21 ayat (1): the time an employer has to return PPh 21
withheld in excess.  The knowledge base holds no PPh 21 payment date an anonymous reader may read, so the
evidence goes to the tax team; a question asking when an excess is returned is still answered from it.
Session 62; the questions are our own."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import misses_asked
from tests.answer.chunk_sample import anonymous_answer

REFUND = (
    "(1) Dalam hal jumlah Pajak Penghasilan Pasal 21 yang telah dipotong ... lebih besar daripada Pajak "
    "Penghasilan Pasal 21 yang terutang ..., kelebihan Pajak Penghasilan Pasal 21 yang telah dipotong "
    "tersebut wajib dikembalikan oleh Pemotong Pajak ..., paling lambat akhir bulan berikutnya setelah "
    "Masa Pajak Terakhir."
)


@pytest.mark.parametrize(
    ("question", "missed"),
    [
        ("Kapan batas setor PPh 21 yang sudah dipotong?", "refund"),
        ("When must we pay the PPh 21 withheld?", "refund"),
        ("Kelebihan PPh 21 yang sudah dipotong dikembalikan kapan?", None),
    ],
)
def test_a_refund_deadline_misses_a_payment_deadline(question: str, missed: str | None) -> None:
    assert misses_asked(question, [REFUND]) == missed


def test_the_payment_question_goes_to_the_tax_team(services: Any) -> None:
    answer = anonymous_answer(
        services, "Kapan batas setor PPh 21 yang sudah dipotong?", as_of=dt.date(2026, 12, 1)
    )
    assert answer.status == "escalated"
    assert answer.escalation is not None and answer.escalation.reason == "low_confidence"
    assert answer.claims[0].source.location == "Pasal 21 ayat (1)"


def test_the_refund_question_is_answered(services: Any) -> None:
    answer = anonymous_answer(
        services, "Kelebihan PPh 21 yang sudah dipotong dikembalikan kapan?", as_of=dt.date(2026, 12, 1)
    )
    assert answer.status == "answered"
    assert answer.claims[0].source.location == "Pasal 21 ayat (1)"
