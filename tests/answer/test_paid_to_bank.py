"""Interest paid to a bank is left out of PPh 23 (UU PPh Pasal 23 ayat (4) huruf a): "is bank interest
withheld?" was answered "tarifnya 15%" from ayat (1), a wrong answer stated with confidence."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.pipeline import answer_question


@pytest.mark.parametrize(
    "question",
    [
        "Apakah pembayaran bunga pinjaman ke bank dalam negeri dipotong PPh 23?",
        "Is interest paid to a bank subject to Article 23 withholding?",
    ],
)
def test_interest_paid_to_a_bank_leads_with_the_exclusion(services: Any, question: str) -> None:
    answer = answer_question(question, services.cli_principal(None), services, as_of=dt.date(2024, 6, 1))
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.location.startswith("Pasal 23 ayat (4)")
    assert "kepada bank" in lead.quote
    assert "tidak dilakukan atas" in lead.text
    assert "15%" not in answer.answer.split("\n")[0]
