""" "Kapan X wajib mendaftarkan diri / punya NPWP / dikukuhkan sebagai PKP?" asks when the duty arises.

Registration is owed once a condition is met (UU KUP Pasal 2 ayat (1); PP 50/2022 Pasal 68 ayat (1): "telah
memenuhi persyaratan subjektif dan objektif ... wajib mendaftarkan diri"); the acts set no date for it. Read
as a deadline question, the right rule was escalated at confidence 0.82 because it states no time (session 69,
probes of our own); so was English "When does an individual have to register ...?", led by the NPWP FAQ's
"Sejak 1 Juli 2024". A duty of paying or filing asked with "kapan ... wajib" still asks its deadline."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import asked_fact
from tests.answer.chunk_sample import anonymous_answer

AS_OF = dt.date(2026, 12, 1)


@pytest.mark.parametrize(
    "question",
    [
        "Kapan seseorang wajib mendaftarkan diri untuk NPWP?",
        "kapan orang pribadi wajib punya NPWP?",
        "Kapan pengusaha wajib dikukuhkan sebagai PKP?",
        "Kapan pengusaha harus melaporkan usahanya untuk dikukuhkan sebagai PKP?",
        "When does an individual have to register for an NPWP?",
        "When must a company register for VAT?",
    ],
)
def test_when_registration_is_owed_asks_no_deadline(question: str) -> None:
    assert asked_fact(question) != "deadline"


@pytest.mark.parametrize(
    "question",
    [
        "Kapan PPh 21 wajib disetor?",
        "Kapan SPT Masa PPN wajib dilaporkan?",
        "When do we have to file the VAT return?",
    ],
)
def test_paying_and_filing_still_ask_a_deadline(question: str) -> None:
    assert asked_fact(question) == "deadline"


@pytest.mark.parametrize(
    "question",
    [
        "Kapan seseorang wajib mendaftarkan diri untuk NPWP?",
        "Kapan orang pribadi wajib punya NPWP?",
        "When does an individual have to register for an NPWP?",
    ],
)
def test_the_condition_of_registration_answers(services: Any, question: str) -> None:
    answer = anonymous_answer(services, question, as_of=AS_OF)
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.chunk_id == "pp-50-2022#pasal-68/ayat-1"
    assert "memenuhi persyaratan subjektif dan objektif" in lead.quote
