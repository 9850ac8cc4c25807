"""The turn with a multi-part message: a part without a source is offered to the tax team while the other
part (and so the message) is answered, and the ticket carries that part's evidence and names it; the answer
cache serves a multi-part answer again with its parts."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.answer.parts import answer_message
from bot.answer.pipeline import answer_question
from bot.answer_cache import AnswerCache
from bot.messages import InboundMessage
from bot.turn import Turn
from tests.answer.test_message_parts import NO_NPWP, NOT_IN_KB, RATE
from tests.support.turns import ticketed_turn
from tools.ledger import Ledger

AP_CLERK = "U04APCLRK1"  # ap, finance; SNR (corpus/directory.yaml)
TODAY = dt.date(2026, 6, 1)


@pytest.fixture
def turn(services: Any, tmp_path: Path) -> Iterator[Turn]:
    with ticketed_turn(services, tmp_path / "tickets.sqlite", today=TODAY) as t:
        yield t


def _dm(text: str, thread: str = "1772700000.000100") -> InboundMessage:
    return InboundMessage(
        platform="slack",
        tenant="T0SNRTEAM",
        user_id=AP_CLERK,
        channel="D0DMCHAN01",
        thread_id=thread,
        message_id="m1",
        text=text,
        is_direct=True,
    )


def test_an_open_part_is_offered_and_its_ticket_carries_that_parts_evidence(
    turn: Turn, services: Any
) -> None:
    reply = turn.handle(_dm(f"{RATE} {NOT_IN_KB}"))
    payload = reply.answer
    assert [p["status"] for p in payload["parts"]] == ["answered", "abstained"]
    # the first question is answered, so is the message; the open part has no source: offered, asker decides
    assert reply.status == "answered" and reply.ticket_id is None
    assert payload["escalation"] == {"reason": "no_source", "ticket_id": None, "offered": True}
    assert "2% (dua persen)" in payload["claims"][0]["quote"]  # part 1 is still answered

    escalated = turn.escalate(_dm(""))
    ticket = turn.tickets.get(escalated.ticket_id)
    assert ticket.question_masked == f"{RATE} {NOT_IN_KB}"
    # what the second part's own search found is on the ticket, beside the first part's answer
    asked = payload["parts"][1]["asked"]
    alone = Ledger()
    principal = turn.principal_for(_dm(""))
    answer_question(asked, principal, services, today=TODAY, ledger=alone)
    own = {c["chunk_id"] for c in alone.evidence().to_json()["candidates"]}
    on_ticket = {c["chunk_id"] for c in ticket.evidence.candidates}
    assert own and own <= on_ticket
    assert any("2% (dua persen)" in c.get("quote", "") for c in ticket.evidence.claims)
    assert "open parts of the message: 2. Apakah ada insentif pajak" in ticket.gap  # the tax team's task


def test_the_answer_cache_serves_a_multi_part_answer_with_its_parts(services: Any, tmp_path: Path) -> None:
    cache = AnswerCache(services.store, namespace=f"test-parts-{tmp_path.name}")
    principal = services.cli_principal(None)
    question = f"{RATE} {NO_NPWP}"
    ledger = Ledger()
    fresh = answer_message(question, principal, services, as_of=TODAY, ledger=ledger)
    assert fresh.status == "answered" and len(fresh.parts) == 2
    assert cache.put(question, principal, TODAY, fresh, ledger)
    served = cache.get(question, principal, TODAY)
    assert served is not None
    assert served.to_json(include_timings=False) == fresh.to_json(include_timings=False)
    assert [p.claim_numbers for p in served.parts] == [p.claim_numbers for p in fresh.parts]
    cache.purge()
