"""Transactional outbox: notifications written in the same transaction as the ticket change.

Why: posting a Teams card or relaying an answer is a network call that can fail or be retried; writing
the intent to the ``ticket_outbox`` table in the SAME transaction as the ticket change guarantees that a
committed change always gets its notification and a rolled-back change never does.  A separate worker
calls :meth:`Outbox.deliver_pending` to push messages out.

Delivery is AT-LEAST-ONCE.  A message is marked delivered only after the sender returns.  If the process
crashes between the send and the mark, the message is sent again later WITH THE SAME idempotency key
(``f"{ticket_id}:{event_seq}:{channel}"``, also ``OutboxMessage.key``), so the receiving side must
de-duplicate on that key (e.g. remember keys of posted Teams activities, or use the key as the
client-side message id).  Messages of one ticket and channel are delivered in event order: a message is
not due while an earlier message of the same ticket and channel is still pending or uncertain (a card
update never overtakes the card post).  Failed sends back off exponentially (``OutboxPolicy``) and become
``dead`` after ``max_attempts``; dead messages stay in the table for an operator and are logged at ERROR.

Uncertain deliveries: when the sender cannot tell whether the remote side got the message (the request
went out, the response was lost) it raises :class:`DeliveryUncertain`.  The message becomes ``uncertain``:
it is NOT sent again (a second post would be a duplicate card or relay), it stays visible
(``dasar tickets outbox``, :func:`outbox_stats`) and only an explicit operator action on THAT message
resolves it -- ``redrive`` (send again) or ``resolve_delivered`` (it did arrive).  No other message's
success changes it.

Operators: ``Outbox.redrive`` puts a dead or uncertain message back to pending with attempts reset and
records an ``outbox_redriven`` event on the ticket; :func:`outbox_stats` gives the health endpoint the
outbox depth, the oldest pending age and the dead and uncertain counts.

Notices (:class:`Notice`): a message that is not a ticket event -- today the card telling one person that
a corpus change affected their FAQ or ticket (``bot.impact``).  It goes to :data:`CHANNEL_PERSON` as
kind :data:`KIND_NOTICE`, its payload carries the ready card, and its idempotency key is
``notice:{impact_id}:{subject}:{recipient}`` (:func:`notice_key`): enqueueing the same notice again is a
no-op, so re-assessing the same change never queues a second card.  A notice about a ticket carries the
ticket id (and is listed with the ticket's messages); one about anything else has none (``ticket_id``
is ``""``; NULL in the table).  Notices have ``event_seq`` 0 and never wait for other messages.  They are
retried, back off, go dead, become uncertain and are re-driven exactly like ticket messages; re-driving
one without a ticket records no ticket event (it is logged).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

#: Channels a message can go to.
CHANNEL_TAX_TEAM = "tax_team"  # the tax team's Teams channel (the ticket card)
CHANNEL_REQUESTER = "requester"  # the requester's original thread

#: A card in the tax team's channel that @mentions one person (notices; see the module docstring).
CHANNEL_PERSON = "person"

#: Message kind of a notice: ``payload["card"]`` is the Adaptive Card, ``payload["notice"]`` what it is about.
KIND_NOTICE = "notice_card"

_UPDATE = (CHANNEL_TAX_TEAM, "update_card")

#: Which event kinds notify whom: event kind -> ((channel, message kind), ...).  One place, like the
#: transition table; at most one message per channel per event so the idempotency key is unique.
NOTIFY: dict[str, tuple[tuple[str, str], ...]] = {
    "opened": ((CHANNEL_TAX_TEAM, "post_card"),),
    "evidence_added": (_UPDATE,),
    "claimed": (_UPDATE,),
    "unclaimed": (_UPDATE,),
    "answered": (_UPDATE, (CHANNEL_REQUESTER, "relay_answer")),
    "info_requested": (_UPDATE, (CHANNEL_REQUESTER, "ask_requester")),
    "requester_replied": (_UPDATE,),
    "reopened": (_UPDATE,),
    "closed": (_UPDATE,),
    "rejected": (_UPDATE, (CHANNEL_REQUESTER, "notify_rejected")),
    "note_added": (_UPDATE,),
}

OUTBOX_STATUSES: tuple[str, ...] = ("pending", "delivered", "uncertain", "dead")

#: Ticket event recorded when an operator re-drives a message (no notification of its own).
EVENT_OUTBOX_REDRIVEN = "outbox_redriven"
#: Ticket event recorded when an operator confirms an uncertain message did arrive.
EVENT_OUTBOX_RESOLVED = "outbox_resolved"


class DeliveryUncertain(Exception):
    """Raised by a sender when the send may or may not have reached the remote side.

    Example: the Bot Connector POST went out and the connection died before the response (a lost
    response), or the delivery journal shows an earlier attempt that began and never finished.  The
    outbox then marks the message ``uncertain`` instead of retrying it (a retry could post twice).
    """


def outbox_key(ticket_id: str, event_seq: int, channel: str) -> str:
    """Idempotency key of one notification; stable across redeliveries."""
    return f"{ticket_id}:{event_seq}:{channel}"


def notice_key(impact_id: str, subject: str, recipient: str) -> str:
    """Idempotency key of a notice: one per change (``impact_id``), subject and recipient."""
    return f"notice:{impact_id}:{subject}:{recipient}"


@dataclass(frozen=True)
class Notice:
    """A message to one person that is not a ticket event (see the module docstring).

    Args:
        impact_id: what caused it (e.g. the id of an assessed corpus change); part of the key.
        subject: what it is about, ``kind:id`` (``faq:faq-t-000001``, ``ticket:T-000003``); part of the key.
        recipient: who it is for (e-mail / UPN); part of the key.
        payload: what the sender needs (JSON-serialisable; for :data:`KIND_NOTICE` a ``card``).
        ticket_id: the ticket it is about, if any (the ticket must exist in the same store).
        kind: the message kind the sender dispatches on.
    """

    impact_id: str
    subject: str
    recipient: str
    payload: dict[str, Any]
    ticket_id: str | None = None
    kind: str = KIND_NOTICE

    @property
    def key(self) -> str:
        return notice_key(self.impact_id, self.subject, self.recipient)


@dataclass(frozen=True)
class OutboxPolicy:
    """Retry policy: delay = min(base * 2**(attempts-1), cap); dead after ``max_attempts`` failures.

    ``lease_seconds`` is how long a message taken by :meth:`Outbox.deliver_pending` is hidden from other
    workers; after a crash it becomes due again when the lease runs out.
    """

    base_seconds: float = 30.0
    cap_seconds: float = 3600.0
    max_attempts: int = 8
    lease_seconds: float = 120.0

    def delay(self, attempts: int) -> dt.timedelta:
        """Back-off after the ``attempts``-th failure (1-based). Deterministic: no jitter."""
        return dt.timedelta(seconds=min(self.base_seconds * (2 ** max(attempts - 1, 0)), self.cap_seconds))


@dataclass(frozen=True)
class OutboxMessage:
    """One notification to deliver. ``key`` is the idempotency key the receiver de-duplicates on.

    ``ticket_id`` is ``""`` for a notice about no ticket (see :class:`Notice`).
    """

    key: str
    ticket_id: str
    event_seq: int
    channel: str
    kind: str
    payload: dict[str, Any]
    status: str
    attempts: int
    next_attempt_at: dt.datetime
    created_at: dt.datetime
    last_error: str | None = None
    external_ref: str | None = None
    delivered_at: dt.datetime | None = None
    redriven_at: dt.datetime | None = None
    """When an operator last re-drove this message: a sender that finds an unfinished earlier attempt in
    its own journal raises :class:`DeliveryUncertain` unless this is set (the operator chose to resend)."""


@dataclass(frozen=True)
class DeliveryResult:
    """Keys handled by one :meth:`Outbox.deliver_pending` run (in delivery order)."""

    delivered: tuple[str, ...] = ()
    failed: tuple[str, ...] = ()
    dead: tuple[str, ...] = ()
    uncertain: tuple[str, ...] = ()


@dataclass(frozen=True)
class OutboxStats:
    """Numbers for ``/healthz`` and metrics (one cheap aggregate query).

    ``depth`` counts messages not yet delivered and still expected to be (pending + uncertain);
    ``oldest_pending_age_seconds`` is None when nothing is pending.
    """

    pending: int
    uncertain: int
    dead: int
    oldest_pending_age_seconds: float | None

    @property
    def depth(self) -> int:
        return self.pending + self.uncertain


class _HasStats(Protocol):
    def stats(self, now: dt.datetime) -> OutboxStats: ...


class _HasOutbox(Protocol):
    @property
    def outbox(self) -> _HasStats: ...


def outbox_stats(store: _HasOutbox, now: dt.datetime | None = None) -> OutboxStats:
    """Outbox depth, oldest pending age, uncertain and dead counts of ``store`` (for the health endpoint).

    Raises :class:`tickets.errors.StoreError` when the database is unreachable (report ``degraded``).
    """
    return store.outbox.stats(now or dt.datetime.now(dt.UTC))


Sender = Callable[[OutboxMessage], str]
"""Sends one message and returns the external reference (e.g. Teams activity id); raises on failure."""
