"""Two company policies that disagree on the PPh 23 rate (petty cash 4%, the freight procedure 2%) do not
make a sanction question ask a rate: "Apa sanksinya kalau kami tidak memotong PPh 23 atas pembayaran jasa?"
was led by UU KUP Pasal 9 ayat (2a) and still answered "Menurut SNR-PRO-FIN-007, tarifnya 4% ...": the
line read every message with a conflict as a rate question.  Only a conflict the lead's source is in does."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.pipeline import answer_question

QUESTION = "Apa sanksinya kalau kami tidak memotong PPh 23 atas pembayaran jasa?"


def test_a_sanction_answer_states_the_sanction_not_a_policys_rate(services: Any) -> None:
    principal = services.cli_principal("tax.lead@sinarnusantara.co.id")
    answer = answer_question(QUESTION, principal, services, as_of=dt.date(2026, 12, 1))
    assert answer.status == "answered"
    assert answer.conflicts, "the policies' rate conflict is still reported"
    lead = answer.claims[0]
    assert "Pasal 9 ayat (2a)" in lead.source.location
    assert "sanksi administratif berupa bunga" in answer.answer
    assert "4%" not in answer.answer and "tarifnya" not in answer.answer
