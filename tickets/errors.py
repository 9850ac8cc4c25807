"""One error hierarchy for the ticket package.

Callers (the bot, the Teams card handler, the CLI) catch these to tell a person what to do next, so
every message names the ticket, what it was asked to do and why that was refused.

    TicketError
    ├── TicketNotFound        no ticket with that id in this store
    ├── IllegalTransition     the action is not allowed in the ticket's current status
    │   ├── AlreadyClaimed    someone else claimed (or is assigned) first
    │   └── NotAssignee       only the assignee may do this (answer, unclaim, ask while claimed)
    └── StoreError            the database failed or kept changing under us; safe to retry
"""

from __future__ import annotations


class TicketError(Exception):
    """Base class of every error raised by :mod:`tickets`."""


class TicketNotFound(TicketError):
    """No ticket with the given id exists in this store."""

    def __init__(self, ticket_id: str) -> None:
        super().__init__(
            f"ticket {ticket_id} not found; check the id (format T-000123) and the store you query"
        )
        self.ticket_id = ticket_id


class IllegalTransition(TicketError):
    """The requested action is not allowed from the ticket's current status."""

    def __init__(self, ticket_id: str, status: str, action: str, hint: str = "") -> None:
        msg = f"ticket {ticket_id} is {status}: cannot {action}"
        if hint:
            msg += f"; {hint}"
        super().__init__(msg)
        self.ticket_id = ticket_id
        self.status = status
        self.action = action


class AlreadyClaimed(IllegalTransition):
    """Another team member claimed the ticket first (the loser of a concurrent claim gets this)."""

    def __init__(self, ticket_id: str, status: str, assignee: str | None) -> None:
        super().__init__(
            ticket_id,
            status,
            "claim",
            f"already claimed by {assignee}; ask them to unclaim it" if assignee else "already taken",
        )
        self.assignee = assignee


class NotAssignee(IllegalTransition):
    """Only the current assignee may perform this action."""

    def __init__(self, ticket_id: str, status: str, action: str, actor: str, assignee: str | None) -> None:
        super().__init__(
            ticket_id,
            status,
            action,
            f"{actor} is not the assignee ({assignee}); claim it first or ask {assignee} to unclaim",
        )
        self.actor = actor
        self.assignee = assignee


class StoreError(TicketError):
    """The backing database failed, or the ticket kept changing concurrently; retrying is safe."""
