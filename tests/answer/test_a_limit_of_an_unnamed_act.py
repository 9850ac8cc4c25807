"""A time limit in a text that never names the asked act is some other act's.

"Kapan batas waktu penyetoran PPh Pasal 4 ayat 2?" was answered (0.33) with "paling lama 4 (empat) tahun
sejak diperolehnya sisa lebih tersebut" (UU PPh Pasal 4 ayat (3) huruf m): the time a non-profit has to
reinvest its surplus.  Its limit stands beside no duty verb ("..., yang ditanamkan kembali dalam bentuk sarana
..., dalam jangka waktu paling lama 4 (empat) tahun"), so no check read whose act it limits, and the text
never names paying.  Session 63; the question is our own."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import deadline_of_other_act, limit_binds_unasked_duty
from tests.answer.chunk_sample import anonymous_answer

SURPLUS = (
    "m. sisa lebih yang diterima atau diperoleh badan atau lembaga nirlaba yang bergerak dalam bidang "
    "pendidikan, yang ditanamkan kembali dalam bentuk sarana dan prasarana kegiatan pendidikan, dalam jangka "
    "waktu paling lama 4 (empat) tahun sejak diperolehnya sisa lebih tersebut;"
)
PAYMENT_QUESTION = "Kapan batas waktu penyetoran PPh Pasal 4 ayat 2?"


def test_a_limit_beside_no_duty_in_a_text_without_paying_is_another_acts() -> None:
    assert deadline_of_other_act(PAYMENT_QUESTION, SURPLUS)
    assert limit_binds_unasked_duty(PAYMENT_QUESTION, SURPLUS)


@pytest.mark.parametrize(
    "text",
    [
        # paying named by another word of paying
        "Pembayaran pajak yang terutang dilakukan dalam jangka waktu paling lama 1 (satu) bulan.",
        # the asked verb itself, in the passive
        "Pajak yang dipotong disetor ke kas negara, dalam jangka waktu paling lama 15 (lima belas) hari.",
    ],
)
def test_a_limit_in_a_text_naming_paying_is_not_declined(text: str) -> None:
    assert not limit_binds_unasked_duty(PAYMENT_QUESTION, text)


def test_a_question_on_another_act_is_not_judged_by_paying() -> None:
    # the reinvestment limit asked about: no payment asked, so the text's silence on paying says nothing
    assert not limit_binds_unasked_duty("Berapa lama sisa lebih harus ditanamkan kembali?", SURPLUS)


def test_the_final_tax_payment_question_is_not_answered_with_the_surplus(services: Any) -> None:
    answer = anonymous_answer(services, PAYMENT_QUESTION, as_of=dt.date(2026, 12, 1))
    assert not any("sisa lebih" in c.quote for c in answer.claims)
    assert answer.status in ("abstained", "escalated")
    assert "tindakan lain" in answer.answer
