"""A question that names a revoked act, asked for a date after its revocation, is answered from the act that
revoked it (metadata ``revoked_by``), and the reply says so: "PP 23" asked today means PP 55/2022, which
revoked PP 23/2018 on 2022-12-20 and restates its 0.5% regime.  Before the revocation the act answers."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.answer.pipeline import answer_question

QUESTION = "Berapa tarif PPh final menurut PP 23?"


def test_a_revoked_act_named_today_is_answered_from_its_successor(services: Any) -> None:
    answer = answer_question(QUESTION, services.cli_principal(None), services, as_of=dt.date(2026, 6, 1))
    assert any("dicabut oleh PP 55/2022" in w for w in answer.warnings), answer.warnings
    assert answer.claims
    assert {c.source.doc_id for c in answer.claims} == {"pp-55-2022"}


def test_before_its_revocation_the_named_act_answers(services: Any) -> None:
    answer = answer_question(QUESTION, services.cli_principal(None), services, as_of=dt.date(2019, 5, 1))
    assert not any("dicabut" in w for w in answer.warnings), answer.warnings
    assert answer.claims[0].source.doc_id == "pp-23-2018"
    assert "0,5%" in answer.claims[0].quote
