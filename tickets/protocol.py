"""What the rest of dasar may rely on: the ticket store and its outbox, as Protocols.

The bot and tools depend on these, never on a concrete backend, so the default
:class:`tickets.sqlite.SqliteTicketStore` and :class:`tickets.postgres.PostgresTicketStore` are
interchangeable (one contract test suite runs against both).
"""

from __future__ import annotations

import builtins
import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from tickets.model import Evidence, Feedback, Requester, ThreadRef, Ticket, TicketEvent
from tickets.outbox import DeliveryResult, Notice, OutboxMessage, OutboxPolicy, OutboxStats, Sender


@runtime_checkable
class Outbox(Protocol):
    """Notifications written with ticket changes, delivered at-least-once (see :mod:`tickets.outbox`)."""

    policy: OutboxPolicy

    def due(self, now: dt.datetime, limit: int = 100) -> list[OutboxMessage]: ...

    def get(self, key: str) -> OutboxMessage: ...

    def messages(
        self, ticket_id: str | None = None, status: str | None = None, kind: str | None = None
    ) -> list[OutboxMessage]: ...

    def enqueue_notice(self, notice: Notice) -> bool:
        """Queue a card about no ticket event (an impact notice); False when its key is already queued."""
        ...

    def card_ref(self, ticket_id: str) -> str | None: ...

    def mark_delivered(self, key: str, external_ref: str) -> None: ...

    def mark_failed(self, key: str, error: str, now: dt.datetime) -> OutboxMessage: ...

    def deliver_pending(self, sender: Sender, now: dt.datetime, limit: int = 100) -> DeliveryResult: ...

    def mark_uncertain(self, key: str, error: str, now: dt.datetime) -> OutboxMessage: ...

    def redrive(self, key: str, actor: str) -> OutboxMessage: ...

    def resolve_delivered(self, key: str, actor: str, external_ref: str | None = None) -> OutboxMessage: ...

    def stats(self, now: dt.datetime) -> OutboxStats: ...


@runtime_checkable
class TicketStore(Protocol):
    """Persistent tickets with a declarative workflow (:mod:`tickets.workflow`) and an outbox."""

    @property
    def outbox(self) -> Outbox:
        """The store's outbox (same database and transactions)."""
        ...

    def open_ticket(
        self,
        thread: ThreadRef,
        requester: Requester,
        question_masked: str,
        facts: Sequence[str],
        evidence: Evidence,
        gap: str,
        reason: str,
        topic: str | None = None,
    ) -> tuple[Ticket, bool]: ...

    def get(self, ticket_id: str) -> Ticket: ...

    def find_by_thread(self, thread: ThreadRef) -> Ticket | None: ...

    def list(self, status: str | None = None, requester_principal_id: str | None = None) -> list[Ticket]: ...

    def claim(self, ticket_id: str, actor: str) -> Ticket: ...

    def unclaim(self, ticket_id: str, actor: str) -> Ticket: ...

    def answer(
        self, ticket_id: str, actor: str, text: str, sources: Sequence[Mapping[str, Any]] = ()
    ) -> Ticket: ...

    def ask_info(self, ticket_id: str, actor: str, question: str) -> Ticket: ...

    def requester_reply(self, ticket_id: str, text: str) -> Ticket: ...

    def close(self, ticket_id: str, actor: str) -> Ticket: ...

    def reject(self, ticket_id: str, actor: str, reason: str) -> Ticket: ...

    def add_note(self, ticket_id: str, actor: str, note: str) -> Ticket: ...

    def events(self, ticket_id: str) -> builtins.list[TicketEvent]: ...

    def first_answered_at(self) -> dict[str, dt.datetime]: ...

    def shutdown(self) -> None: ...

    def ping(self) -> None: ...


@runtime_checkable
class FeedbackStore(Protocol):
    """Users' verdicts on answers, kept with the tickets (both SQL backends implement it)."""

    def record_feedback(self, feedback: Feedback) -> Feedback: ...

    def list_feedback(
        self, since: dt.datetime | None = None, verdict: str | None = None
    ) -> list[Feedback]: ...
