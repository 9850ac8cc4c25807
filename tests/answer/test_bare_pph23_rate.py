"""A PPh 23 rate asked with no income named gets a question back: which income?

UU PPh Pasal 23 ayat (1) withholds 15% on dividends, interest, royalties and prizes and 2% on rent and
services. "Tarif PPh 23 berapa?" was answered "tarifnya 15% dari jumlah bruto", the first item, which is
wrong for the rent and services AP pays most. A message that is the bare ask alone now asks which income
(``kb/data/clarify.yaml`` ``pph23_rate_without_income``); one naming what is paid is answered as before.
Session 68; the messages are our own."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.pipeline import answer_question

TODAY = dt.date(2026, 12, 7)


@pytest.mark.parametrize(
    "message",
    [
        "Tarif PPh 23 berapa?",
        "pph23 brp persen sih skrg?",
        "Berapa persen PPh 23 sekarang?",
        "What is the PPh 23 rate?",
    ],
)
def test_which_income_is_asked_first(services: Any, message: str) -> None:
    answer = answer_question(message, services.cli_principal(None), services, as_of=TODAY)
    assert answer.status == "clarify"
    assert answer.claims == ()
    assert answer.clarifying_questions[0].slot == "income_type"


@pytest.mark.parametrize(
    ("message", "rate"),
    [
        ("Tarif PPh 23 atas jasa konsultan berapa?", "2%"),
        ("Berapa tarif PPh 23 atas royalti?", "15%"),
    ],
)
def test_a_named_income_is_answered(services: Any, message: str, rate: str) -> None:
    answer = answer_question(message, services.cli_principal(None), services, as_of=TODAY)
    assert answer.status == "answered"
    assert answer.claims[0].source.chunk_id.endswith("/pasal-23/ayat-1")
    assert rate in answer.claims[0].quote
