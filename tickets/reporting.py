"""Operational numbers for the tax team lead: queue aging, why dasar escalates, what keeps coming back.

Why: escalations are the signal for KB gaps.  Repeated topics say which documents to add; reasons say
whether dasar is too cautious (low_confidence) or the KB is missing sources (no_source); aging and time to
answer say whether the team keeps up.  Pure computation over :class:`TicketStore` reads, so every backend
gets the same numbers; the CLI formats the returned dataclass.
"""

from __future__ import annotations

import datetime as dt
import html
import statistics
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tickets.model import REASONS, STATUSES, Feedback, Ticket, to_utc
from tickets.protocol import FeedbackStore, TicketStore


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


# -- answer feedback ----------------------------------------------------------------------------------

#: Confidence bands in report order ("" = the answer carried none, e.g. a refusal).
BANDS: tuple[str, ...] = ("high", "medium", "low", "")


@dataclass(frozen=True)
class FeedbackRate:
    """Verdicts for one group of answers: how many said helpful / not helpful."""

    group: str
    helpful: int
    not_helpful: int

    @property
    def total(self) -> int:
        return self.helpful + self.not_helpful

    @property
    def helpful_rate(self) -> float | None:
        """Share of helpful verdicts; None without any verdict."""
        return self.helpful / self.total if self.total else None


@dataclass(frozen=True)
class FeedbackReport:
    """What users said about dasar's answers.

    ``by_status`` / ``by_band`` list every group with at least one verdict (statuses in
    :data:`ANSWER_STATUSES` order, then any other; bands in :data:`BANDS` order); ``marked_wrong`` are the
    latest "not helpful" verdicts, newest first, at most ``limit``.
    """

    generated_at: dt.datetime
    overall: FeedbackRate
    by_status: tuple[FeedbackRate, ...]
    by_band: tuple[FeedbackRate, ...]
    marked_wrong: tuple[Feedback, ...]


#: Answer statuses of the ``dasar ask --json`` contract, in report order.
ANSWER_STATUSES: tuple[str, ...] = ("answered", "clarify", "abstained", "escalated", "refused")


def _rates(
    feedback: list[Feedback], key: Callable[[Feedback], str], order: tuple[str, ...]
) -> tuple[FeedbackRate, ...]:
    counts: dict[str, Counter[str]] = {}
    for f in feedback:
        counts.setdefault(key(f), Counter())[f.verdict] += 1
    groups = [g for g in order if g in counts] + sorted(g for g in counts if g not in order)
    return tuple(FeedbackRate(g, counts[g]["helpful"], counts[g]["not_helpful"]) for g in groups)


def compute_feedback_report(feedback: list[Feedback], now: dt.datetime, limit: int = 20) -> FeedbackReport:
    """Pure core of :func:`build_feedback_report` (deterministic for equal input)."""
    overall = Counter(f.verdict for f in feedback)
    wrong = sorted(
        (f for f in feedback if f.verdict == "not_helpful"),
        key=lambda f: (f.updated_at or now, f.answer_ref, f.user_id),
        reverse=True,
    )
    return FeedbackReport(
        generated_at=to_utc(now),
        overall=FeedbackRate("all", overall["helpful"], overall["not_helpful"]),
        by_status=_rates(feedback, lambda f: f.answer_status, ANSWER_STATUSES),
        by_band=_rates(feedback, lambda f: f.confidence_band if f.confidence_band in BANDS else "", BANDS),
        marked_wrong=tuple(wrong[: max(limit, 0)]),
    )


def build_feedback_report(
    store: FeedbackStore, now: dt.datetime, since: dt.datetime | None = None, limit: int = 20
) -> FeedbackReport:
    """Feedback report over ``store`` (from ``since`` on) as of ``now``."""
    return compute_feedback_report(store.list_feedback(since=since), now, limit)


def _rate_json(rate: FeedbackRate) -> dict[str, Any]:
    return {
        "group": rate.group,
        "helpful": rate.helpful,
        "not_helpful": rate.not_helpful,
        "total": rate.total,
        "helpful_rate": rate.helpful_rate,
    }


def feedback_report_json(rep: FeedbackReport) -> dict[str, Any]:
    """JSON form (stable keys) for ``dasar tickets report --json``'s ``feedback`` section."""
    return {
        "generated_at": rep.generated_at.isoformat(),
        "overall": _rate_json(rep.overall),
        "by_status": [_rate_json(r) for r in rep.by_status],
        "by_confidence_band": [_rate_json(r) for r in rep.by_band],
        "marked_wrong": [
            {
                "answer_ref": f.answer_ref,
                "platform": f.platform,
                "status": f.answer_status,
                "confidence_band": f.confidence_band,
                "corpus_version": f.corpus_version,
                "comment_masked": f.comment_masked,
                "at": f.updated_at.isoformat() if f.updated_at else None,
            }
            for f in rep.marked_wrong
        ],
    }


def _pct(rate: float | None) -> str:
    return "-" if rate is None else f"{rate:.0%}"


def feedback_chart_svg(title: str, rates: tuple[FeedbackRate, ...], width: int = 640) -> str:
    """Stacked horizontal bars (helpful green / not helpful red) per group, as inline SVG."""
    bar_h, gap, label_w, top = 22, 8, 150, 30
    height = top + max(len(rates), 1) * (bar_h + gap) + 10
    peak = max((r.total for r in rates), default=0) or 1
    span = width - label_w - 120
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
        f'aria-label="{html.escape(title)}">',
        f'<text x="0" y="18" font-weight="bold">{html.escape(title)}</text>',
    ]
    for i, r in enumerate(rates):
        y = top + i * (bar_h + gap)
        good = int(span * r.helpful / peak)
        bad = int(span * r.not_helpful / peak)
        label = r.group or "(none)"
        parts.append(f'<text x="0" y="{y + 16}">{html.escape(label)}</text>')
        parts.append(f'<rect x="{label_w}" y="{y}" width="{good}" height="{bar_h}" fill="#2e7d32"/>')
        parts.append(f'<rect x="{label_w + good}" y="{y}" width="{bad}" height="{bar_h}" fill="#c62828"/>')
        text = f"{r.helpful} / {r.not_helpful} ({_pct(r.helpful_rate)} helpful)"
        parts.append(f'<text x="{label_w + good + bad + 6}" y="{y + 16}">{html.escape(text)}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def feedback_html(rep: FeedbackReport) -> str:
    """The feedback section of the HTML report: rates, charts, and the answers marked wrong."""
    rows = "".join(
        "<tr>"
        + "".join(
            f"<td>{html.escape(str(v))}</td>"
            for v in (
                f.updated_at.isoformat(timespec="minutes") if f.updated_at else "-",
                f.answer_ref,
                f.platform,
                f.answer_status,
                f.confidence_band or "-",
                f.corpus_version,
                f.comment_masked or "",
            )
        )
        + "</tr>"
        for f in rep.marked_wrong
    )
    wrong = (
        "<table><tr><th>When</th><th>Answer ref</th><th>Platform</th><th>Status</th><th>Confidence</th>"
        f"<th>Corpus</th><th>Comment (masked)</th></tr>{rows}</table>"
        if rep.marked_wrong
        else "<p>No answer was marked wrong.</p>"
    )
    o = rep.overall
    return "\n".join(
        [
            '<section id="feedback"><h2>Answer feedback</h2>',
            f"<p>{o.total} verdict(s): {o.helpful} helpful, {o.not_helpful} not helpful "
            f"({_pct(o.helpful_rate)} helpful).</p>",
            feedback_chart_svg("Helpful / not helpful by answer status", rep.by_status),
            feedback_chart_svg("Helpful / not helpful by confidence band", rep.by_band),
            "<h3>Answers marked wrong</h3>",
            wrong,
            "</section>",
        ]
    )


def with_feedback_section(page: str, rep: FeedbackReport) -> str:
    """``page`` (the ticket report HTML) with :func:`feedback_html` inserted before ``</body>``."""
    marker = "</body>"
    section = feedback_html(rep)
    return page.replace(marker, section + "\n" + marker, 1) if marker in page else page + section


def feedback_lines(rep: FeedbackReport) -> list[str]:
    """Plain-text lines of the feedback section (for the terminal report)."""
    o = rep.overall
    lines = [f"answer feedback: {o.total} verdict(s), {o.helpful} helpful, {o.not_helpful} not helpful"]
    for title, rates in (("by status", rep.by_status), ("by confidence band", rep.by_band)):
        parts = [f"{r.group or '(none)'} {r.helpful}/{r.not_helpful} ({_pct(r.helpful_rate)})" for r in rates]
        lines.append(f"  {title}: " + (", ".join(parts) or "-"))
    for f in rep.marked_wrong:
        when = f.updated_at.isoformat(timespec="minutes") if f.updated_at else "-"
        comment = f" \u2014 {f.comment_masked}" if f.comment_masked else ""
        lines.append(
            f"  marked wrong: {f.answer_ref} "
            f"({f.platform}, {f.answer_status}, {f.confidence_band or '-'}, {when}){comment}"
        )
    return lines
