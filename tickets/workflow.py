"""The ticket state machine as ONE declarative table, plus the function that applies it.

Why a table: the Teams card buttons, the bot and the CLI all ask "may this person do X now?"; keeping the
answer in one place (``TRANSITIONS``) means the rules are reviewed, tested and documented once.  Storage
backends call :func:`plan` inside their transaction and persist the result with a compare-and-set on the
ticket ``version``, so the check and the write cannot be separated by a concurrent writer.

    open ──claim──▶ claimed ──answer (assignee)──▶ answered ──close──▶ closed
      ▲                 │                             │
      └──unclaim────────┘          answered ──requester_reply (re-open)──▶ open
    open|claimed ──ask_info──▶ needs_info ──requester_reply──▶ open
    open|claimed|needs_info ──reject──▶ rejected
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tickets.errors import AlreadyClaimed, IllegalTransition, NotAssignee
from tickets.model import Ticket

Action = Literal["claim", "unclaim", "answer", "ask_info", "requester_reply", "close", "reject"]
Who = Literal["any", "assignee", "requester"]
AssigneeEffect = Literal["actor", "clear", "keep"]


@dataclass(frozen=True)
class Rule:
    """What an allowed action does: target status, who may do it, what happens to the assignee, event kind."""

    to: str
    who: Who
    assignee: AssigneeEffect
    event: str


TRANSITIONS: dict[tuple[str, str], Rule] = {
    ("open", "claim"): Rule("claimed", "any", "actor", "claimed"),
    ("claimed", "unclaim"): Rule("open", "assignee", "clear", "unclaimed"),
    ("claimed", "answer"): Rule("answered", "assignee", "keep", "answered"),
    ("open", "ask_info"): Rule("needs_info", "any", "keep", "info_requested"),
    ("claimed", "ask_info"): Rule("needs_info", "assignee", "keep", "info_requested"),
    ("needs_info", "requester_reply"): Rule("open", "requester", "clear", "requester_replied"),
    ("answered", "requester_reply"): Rule("open", "requester", "clear", "reopened"),
    # The requester may add context while the team works; status does not move.
    ("open", "requester_reply"): Rule("open", "requester", "keep", "requester_replied"),
    ("claimed", "requester_reply"): Rule("claimed", "requester", "keep", "requester_replied"),
    ("answered", "close"): Rule("closed", "any", "keep", "closed"),
    ("open", "reject"): Rule("rejected", "any", "keep", "rejected"),
    ("claimed", "reject"): Rule("rejected", "any", "keep", "rejected"),
    ("needs_info", "reject"): Rule("rejected", "any", "keep", "rejected"),
}

#: Event kinds that are not status transitions (still bump the version and append an event).
EVENT_OPENED = "opened"
EVENT_EVIDENCE_ADDED = "evidence_added"
EVENT_NOTE_ADDED = "note_added"


def allowed_from(action: str) -> tuple[str, ...]:
    """Statuses from which ``action`` is allowed (for error hints and documentation)."""
    return tuple(sorted({frm for (frm, act) in TRANSITIONS if act == action}))


@dataclass(frozen=True)
class Planned:
    """Result of :func:`plan`: the rule to persist, or ``noop`` when the action is already in effect."""

    rule: Rule | None
    new_assignee: str | None

    @property
    def noop(self) -> bool:
        return self.rule is None


def plan(ticket: Ticket, action: str, actor: str) -> Planned:
    """Check ``action`` by ``actor`` against the table and the ticket's state; raise if not allowed.

    A claim by the current assignee of a claimed ticket is an idempotent no-op (double-clicked card
    button); a claim by anyone else raises :class:`AlreadyClaimed`.

    Raises:
        AlreadyClaimed: claim on a ticket someone else holds.
        NotAssignee: an assignee-only action by someone else.
        IllegalTransition: the action is not allowed from the current status.
    """
    if action == "claim" and ticket.status == "claimed":
        if ticket.assignee == actor:
            return Planned(None, ticket.assignee)
        raise AlreadyClaimed(ticket.id, ticket.status, ticket.assignee)
    rule = TRANSITIONS.get((ticket.status, action))
    if rule is None:
        froms = allowed_from(action)
        hint = (
            f"{action} is allowed only when the ticket is {' or '.join(froms)}" if froms else "unknown action"
        )
        if action == "answer" and ticket.status == "open":
            hint += "; claim it first"
        if action == "close" and ticket.status in ("open", "claimed", "needs_info"):
            hint += "; reject it instead if it will not be answered"
        raise IllegalTransition(ticket.id, ticket.status, action, hint)
    if rule.who == "assignee" and ticket.assignee != actor:
        raise NotAssignee(ticket.id, ticket.status, action, actor, ticket.assignee)
    if rule.who == "requester" and actor != ticket.requester.principal_id:
        raise IllegalTransition(
            ticket.id, ticket.status, action, "only the requester can reply in their thread"
        )
    if rule.assignee == "actor":
        new_assignee: str | None = actor
    elif rule.assignee == "clear":
        new_assignee = None
    else:
        new_assignee = ticket.assignee
    return Planned(rule, new_assignee)
