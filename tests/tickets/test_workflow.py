"""The declarative transition table, checked exhaustively without a database."""

from __future__ import annotations

import pytest

from tests.tickets.conftest import T0, evidence, requester, thread
from tickets import STATUSES, TRANSITIONS, AlreadyClaimed, IllegalTransition, NotAssignee, Ticket
from tickets.workflow import allowed_from, plan

ACTIONS = ("claim", "unclaim", "answer", "ask_info", "requester_reply", "close", "reject")


def ticket(status: str, assignee: str | None = "ana") -> Ticket:
    return Ticket(
        id="T-000009",
        thread=thread(1),
        requester=requester(1),
        question_masked="q",
        facts=(),
        evidence=evidence(),
        gap="g",
        reason="no_source",
        status=status,
        assignee=assignee,
        created_at=T0,
        updated_at=T0,
    )


def test_table_uses_known_statuses_only() -> None:
    for (frm, action), rule in TRANSITIONS.items():
        assert frm in STATUSES and rule.to in STATUSES and action in ACTIONS


@pytest.mark.parametrize("status", STATUSES)
@pytest.mark.parametrize("action", ACTIONS)
def test_every_status_action_pair(status: str, action: str) -> None:
    t = ticket(status, assignee=None if status == "open" else "ana")
    rule = TRANSITIONS.get((status, action))
    actor = "p-1" if action == "requester_reply" else "ana"
    if action == "claim" and status == "claimed":
        assert plan(t, action, "ana").noop
        with pytest.raises(AlreadyClaimed):
            plan(t, action, "budi")
    elif rule is None:
        with pytest.raises(IllegalTransition) as err:
            plan(t, action, actor)
        assert type(err.value) is IllegalTransition
        assert str(err.value).startswith(f"ticket T-000009 is {status}: cannot {action}")
    else:
        planned = plan(t, action, actor)
        assert planned.rule == rule
        expected = {"actor": actor, "clear": None, "keep": t.assignee}[rule.assignee]
        assert planned.new_assignee == expected


@pytest.mark.parametrize(
    ("status", "action"), [("claimed", "answer"), ("claimed", "unclaim"), ("claimed", "ask_info")]
)
def test_assignee_only_actions(status: str, action: str) -> None:
    with pytest.raises(NotAssignee, match="budi is not the assignee \\(ana\\)"):
        plan(ticket(status), action, "budi")


def test_requester_reply_only_by_requester() -> None:
    with pytest.raises(IllegalTransition, match="only the requester"):
        plan(ticket("needs_info"), "requester_reply", "ana")


def test_allowed_from_and_hints() -> None:
    assert allowed_from("reject") == ("claimed", "needs_info", "open")
    assert allowed_from("close") == ("answered",)
    with pytest.raises(IllegalTransition, match="reject it instead"):
        plan(ticket("claimed"), "close", "ana")
