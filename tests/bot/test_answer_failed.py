"""A model that fails is a fault the asker is told about, not "no source": the answer is escalated with reason
``answer_failed``, the turn opens a ticket carrying what retrieval found, and the failure is never cached.

Before session 44 an LLM timeout (or a composer bug) produced an answer without claims that read "Saya tidak
menemukan sumber ..." and offered a ticket the asker had to request: the knowledge base looked silent on a
question it was never finished reading for.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from bot.agent import AgentComposer
from bot.answer.pipeline import answer_question
from bot.llm.scripted import ScriptedModel
from bot.turn import Turn
from tests.bot.test_turn import _msg
from tests.support.turns import ticketed_turn

ASK = "Berapa tarif PPh Pasal 23 atas jasa teknik?"
CLERK = "ap.clerk@sinarnusantara.co.id"


def _failing(principal: object) -> AgentComposer:
    return AgentComposer(ScriptedModel([]))  # no scripted reply: the model call raises


def test_a_failed_model_escalates_as_a_fault_not_as_no_source(services) -> None:
    answer = answer_question(
        ASK, services.cli_principal(None), services, as_of=dt.date(2026, 11, 30), composer=_failing(None)
    )
    assert answer.status == "escalated"
    assert answer.escalation is not None and answer.escalation.reason == "answer_failed"
    assert answer.claims == ()
    assert answer.answer.startswith("Maaf, jawaban tidak dapat disusun karena gangguan teknis")
    assert "tidak menemukan sumber" not in answer.answer


def test_the_same_question_with_a_working_model_is_no_fault(services) -> None:
    answer = answer_question(ASK, services.cli_principal(None), services, as_of=dt.date(2026, 11, 30))
    assert answer.status == "answered" and answer.escalation is None


@pytest.fixture
def failing_turn(services, tmp_path: Path):
    with ticketed_turn(
        services, tmp_path / "tickets.sqlite", today=dt.date(2026, 11, 30), composer_factory=_failing
    ) as turn:
        yield turn


def test_the_turn_opens_a_ticket_with_the_evidence_found(services, failing_turn: Turn) -> None:
    reply = failing_turn.handle(_msg(services, CLERK, ASK, thread="1700000000.000900"))
    assert reply.status == "escalated"
    assert reply.answer["escalation"]["reason"] == "answer_failed"
    assert reply.ticket_id is not None and reply.ticket_id in reply.text
    ticket = failing_turn.tickets.get(reply.ticket_id)
    assert ticket.reason == "answer_failed"
    assert ticket.gap.startswith("the answering model failed")
    # what retrieval found before the model failed reaches the tax team: the PPh Pasal 23 rule among it
    docs = {c["doc_id"] for c in ticket.evidence.candidates}
    assert docs and any("36-2008" in d or "7-2021" in d for d in docs)
