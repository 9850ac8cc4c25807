"""Operational numbers for the tax team lead: queue aging, why dasar escalates, what keeps coming back.

Why: escalations are the signal for KB gaps.  Repeated topics say which documents to add; reasons say
whether dasar is too cautious (low_confidence) or the KB is missing sources (no_source); aging and time to
answer say whether the team keeps up.  Pure computation over :class:`TicketStore` reads, so every backend
gets the same numbers; the CLI formats the returned dataclass.
"""

from __future__ import annotations

import datetime as dt
import statistics
from collections import Counter
from dataclasses import dataclass

from tickets.model import REASONS, STATUSES, Ticket, to_utc
from tickets.protocol import TicketStore


@dataclass(frozen=True)
class StatusAging:
    """Tickets currently in ``status``: how many, and how long the longest-waiting one has been in it."""

    status: str
    count: int
    oldest_age_seconds: float | None
    oldest_ticket_id: str | None


@dataclass(frozen=True)
class TicketReport:
    """Snapshot of the ticket queue at ``generated_at``.

    ``by_reason`` lists every reason (zeros included) in :data:`REASONS` order; ``top_topics`` is
    ``(topic, count)`` by count descending then topic, topics compared case- and space-insensitively;
    ``median_time_to_answer_seconds`` is from creation to FIRST answer, over tickets answered at least once.
    """

    generated_at: dt.datetime
    total: int
    aging: tuple[StatusAging, ...]
    by_reason: tuple[tuple[str, int], ...]
    top_topics: tuple[tuple[str, int], ...]
    answered_count: int
    median_time_to_answer_seconds: float | None


def normalise_topic(topic: str) -> str:
    """``"  PPh 21  Bonus"`` -> ``"pph 21 bonus"`` so the same topic counts once."""
    return " ".join(topic.lower().split())


def compute_report(
    tickets: list[Ticket], first_answered: dict[str, dt.datetime], now: dt.datetime, top_n: int = 5
) -> TicketReport:
    """Pure core of :func:`build_report` (deterministic: ties break by ticket id / topic text)."""
    now = to_utc(now)
    aging = []
    for status in STATUSES:
        in_status = [t for t in tickets if t.status == status]
        if not in_status:
            aging.append(StatusAging(status, 0, None, None))
            continue
        oldest = min(in_status, key=lambda t: ((t.status_since or t.updated_at), t.id))
        age = (now - (oldest.status_since or oldest.updated_at)).total_seconds()
        aging.append(StatusAging(status, len(in_status), age, oldest.id))
    reasons = Counter(t.reason for t in tickets)
    topics = Counter(normalise_topic(t.topic) for t in tickets if t.topic and t.topic.strip())
    top = sorted(topics.items(), key=lambda kv: (-kv[1], kv[0]))[: max(top_n, 0)]
    by_id = {t.id: t for t in tickets}
    durations = [
        (at - by_id[tid].created_at).total_seconds()
        for tid, at in sorted(first_answered.items())
        if tid in by_id
    ]
    return TicketReport(
        generated_at=now,
        total=len(tickets),
        aging=tuple(aging),
        by_reason=tuple((r, reasons.get(r, 0)) for r in REASONS),
        top_topics=tuple(top),
        answered_count=len(durations),
        median_time_to_answer_seconds=float(statistics.median(durations)) if durations else None,
    )


def build_report(store: TicketStore, now: dt.datetime, top_n: int = 5) -> TicketReport:
    """Report over every ticket in ``store`` as of ``now``."""
    return compute_report(store.list(), store.first_answered_at(), now, top_n)
