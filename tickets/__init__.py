"""Escalation tickets: when dasar cannot answer, the tax team does, and the answer goes back to the asker.

Public API (PostgreSQL backend is imported lazily from :mod:`tickets.postgres`)::

    from tickets import SqliteTicketStore, ThreadRef, Requester, Evidence
    store = SqliteTicketStore("tickets.db")
    ticket, created = store.open_ticket(thread, requester, question_masked, facts, evidence, gap, "no_source")
    store.claim(ticket.id, "tax-ana"); store.answer(ticket.id, "tax-ana", "...", sources=[...])
    store.outbox.deliver_pending(sender, now)   # sender raises DeliveryUncertain on a lost response
    outbox_stats(store)                          # depth, oldest pending age, uncertain, dead (/healthz)
    store.outbox.redrive(key, "ops")             # a dead or uncertain message, sent again

Modules: ``model`` (records), ``workflow`` (the one transition table), ``protocol`` (TicketStore,
Outbox), ``sql`` (shared logic), ``sqlite`` (default), ``postgres`` (optional), ``outbox`` (delivery
records and policy), ``reporting`` (queue numbers, answer feedback), ``errors`` (hierarchy).
"""

from tickets.errors import (
    AlreadyClaimed,
    IllegalTransition,
    NotAssignee,
    StoreError,
    TicketError,
    TicketNotFound,
)
from tickets.model import (
    ACTIVE_STATUSES,
    REASONS,
    STATUSES,
    Evidence,
    Feedback,
    Requester,
    ThreadRef,
    Ticket,
    TicketEvent,
)
from tickets.outbox import (
    CHANNEL_PERSON,
    KIND_NOTICE,
    DeliveryResult,
    DeliveryUncertain,
    Notice,
    OutboxMessage,
    OutboxPolicy,
    OutboxStats,
    notice_key,
    outbox_key,
    outbox_stats,
)
from tickets.protocol import FeedbackStore, Outbox, TicketStore
from tickets.reporting import (
    FeedbackReport,
    StatusAging,
    TicketReport,
    build_feedback_report,
    build_report,
)
from tickets.sqlite import SqliteTicketStore
from tickets.workflow import TRANSITIONS

__all__ = [
    "ACTIVE_STATUSES",
    "CHANNEL_PERSON",
    "KIND_NOTICE",
    "REASONS",
    "STATUSES",
    "TRANSITIONS",
    "AlreadyClaimed",
    "DeliveryResult",
    "DeliveryUncertain",
    "Evidence",
    "Feedback",
    "FeedbackReport",
    "FeedbackStore",
    "IllegalTransition",
    "NotAssignee",
    "Notice",
    "Outbox",
    "OutboxMessage",
    "OutboxPolicy",
    "OutboxStats",
    "Requester",
    "SqliteTicketStore",
    "StatusAging",
    "StoreError",
    "ThreadRef",
    "Ticket",
    "TicketError",
    "TicketEvent",
    "TicketNotFound",
    "TicketReport",
    "TicketStore",
    "build_feedback_report",
    "build_report",
    "notice_key",
    "outbox_key",
    "outbox_stats",
]
