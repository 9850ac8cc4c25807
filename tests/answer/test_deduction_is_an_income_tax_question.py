"""Whether a cost is deductible ("bisa jadi biaya?", "boleh dibiayakan?") is an income-tax question whatever
tax it names: a rule only about PPN is about another tax for it.  Before session 59 "Apakah sumbangan bencana
alam bisa jadi biaya?" was answered with PP 49/2022 Pasal 4, construction for disaster victims exempt from
VAT, over PMK 114/2025 on deductible donations."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.extractive import ASKS_DEDUCTION
from bot.answer.pipeline import answer_question


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("Apakah sumbangan bencana alam bisa jadi biaya?", True),
        ("biaya entertainment boleh dibiayakan?", True),
        ("Is a donation deductible?", True),
        ("Apakah biaya sumbangan bisa jadi pengurang penghasilan bruto?", True),
        ("Berapa biaya meterai untuk kuitansi?", False),
        ("Apakah jasa konstruksi untuk korban bencana kena PPN?", False),
    ],
)
def test_a_deduction_is_asked(question: str, asks: bool) -> None:
    assert bool(ASKS_DEDUCTION.search(question)) is asks


def test_a_vat_exemption_does_not_answer_a_deduction(services: Any) -> None:
    answer = answer_question(
        "Apakah sumbangan bencana alam bisa jadi biaya?",
        services.cli_principal("tax.lead@sinarnusantara.co.id"),
        services,
        as_of=dt.date(2026, 12, 1),
    )
    assert answer.status == "answered"
    assert answer.claims[0].source.doc_id == "pmk-114-2025"
    assert "Pertambahan Nilai" not in answer.answer
