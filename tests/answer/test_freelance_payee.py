"""A freelance worker is paid as a non-employee ("Bukan Pegawai", PMK 168/2023): asked in English about
withholding on a freelance designer's or translator's fee, dasar quoted the PPh 23 dividend row (15%) or the
board-member row, because "freelance" (the adjective) reached no Indonesian word while "freelancer" did."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.answer.pipeline import answer_question


@pytest.mark.parametrize(
    "question",
    [
        "Do we need to withhold tax when paying a freelance designer?",
        "Is a freelance translator's fee subject to PPh 21?",
    ],
)
def test_a_freelance_payee_is_led_by_the_non_employee_rule(services: Any, question: str) -> None:
    answer = answer_question(question, services.cli_principal(None), services, as_of=dt.date(2026, 6, 1))
    assert answer.status == "answered"
    lead = answer.claims[0]
    assert lead.source.doc_id == "pmk-168-2023"
    assert "Bukan Pegawai" in lead.quote
    assert "dividen" not in lead.quote
