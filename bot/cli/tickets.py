"""``dasar tickets list|show|report|outbox``: the tax team lead's view of the escalation queue.

Registered by :mod:`bot.cli` through :func:`register`. Numbers come from
:func:`tickets.reporting.build_report` (one computation for every backend); this module only formats
them: a rich table, ``--json`` for machines, and ``report --html FILE`` -- a self-contained page with
inline SVG bar charts (no JavaScript, no CDN, no network) that can be mailed or archived.

``outbox`` is the operator's view of notifications still owed (pending, uncertain, dead) with their age
and attempts; ``--redrive KEY`` sends a dead or uncertain one again, ``--resolve KEY`` records that an
uncertain one did arrive (both leave an event on the ticket).

Escalation rate needs the number of questions asked, which the ticket store does not know: pass
``--questions N`` (e.g. from the bot's metrics); without it the rate is reported as unknown (null).
"""

from __future__ import annotations

import argparse
import datetime as dt
import html
import json
import sys
from pathlib import Path
from typing import Any, cast

from rich.table import Table

from bot.argtypes import positive_int
from bot.cli.common import CliError, console, err_console
from tickets import (
    STATUSES,
    FeedbackStore,
    OutboxMessage,
    Ticket,
    TicketError,
    TicketReport,
    TicketStore,
    build_feedback_report,
    build_report,
)
from tickets.reporting import feedback_lines, feedback_report_json, with_feedback_section


def _now(args: argparse.Namespace) -> dt.datetime:
    return args.now if getattr(args, "now", None) else dt.datetime.now(dt.UTC)


def _aware(value: str) -> dt.datetime:
    try:
        ts = dt.datetime.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected an ISO timestamp like 2026-03-02T09:00:00+00:00, got {value!r}"
        ) from None
    return ts if ts.tzinfo else ts.replace(tzinfo=dt.UTC)


def _store(args: argparse.Namespace) -> TicketStore:
    """An explicit --tickets-db file, else DASAR_TICKETS_URL (PostgreSQL), else DASAR_TICKETS_DB."""
    from bot.settings import load_settings, secret_or_none
    from tickets.factory import open_ticket_store

    settings = load_settings(tickets_db=args.tickets_db)  # an explicit file wins over DASAR_TICKETS_URL
    url = secret_or_none(settings.tickets_url)
    if not url and not Path(settings.tickets_db).exists():
        raise CliError(
            f"no ticket database at {settings.tickets_db} yet (it is created by the first escalation: "
            "/ticket in `dasar chat`, or Slack/Teams); pass --tickets-db or set DASAR_TICKETS_DB "
            "(DASAR_TICKETS_URL for PostgreSQL)"
        )
    return open_ticket_store(settings.tickets_db, url)


def _age(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    s = int(seconds)
    d, rem = divmod(s, 86400)
    h, rem = divmod(rem, 3600)
    return f"{d}d {h}h" if d else f"{h}h {rem // 60}m"


def ticket_json(t: Ticket, now: dt.datetime) -> dict[str, Any]:
    """Ticket summary plus requester email and age in its status (seconds)."""
    out = t.summary()
    out["requester"]["email"] = t.requester.email
    out["age_in_status_seconds"] = (now - (t.status_since or t.updated_at)).total_seconds()
    return out


def report_json(rep: TicketReport, questions: int | None) -> dict[str, Any]:
    """JSON form of a report (stable keys; ``escalation_rate`` is null without ``questions``)."""
    return {
        "generated_at": rep.generated_at.isoformat(),
        "total": rep.total,
        "aging": [
            {
                "status": a.status,
                "count": a.count,
                "oldest_age_seconds": a.oldest_age_seconds,
                "oldest_ticket_id": a.oldest_ticket_id,
            }
            for a in rep.aging
        ],
        "by_reason": [
            {"reason": r, "count": n, "share": (n / rep.total) if rep.total else 0.0}
            for r, n in rep.by_reason
        ],
        "questions": questions,
        "escalation_rate": (rep.total / questions) if questions else None,
        "top_topics": [{"topic": t, "count": n} for t, n in rep.top_topics],
        "answered_count": rep.answered_count,
        "median_time_to_answer_seconds": rep.median_time_to_answer_seconds,
    }


def _bar_chart(title: str, rows: list[tuple[str, float, str]], width: int = 640) -> str:
    """Horizontal bar chart as inline SVG; ``rows`` are (label, value, value text)."""
    bar_h, gap, label_w, top = 22, 8, 170, 30
    height = top + len(rows) * (bar_h + gap) + 10
    peak = max((v for _, v, _ in rows), default=0.0) or 1.0
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
        f'aria-label="{html.escape(title)}">',
        f'<text x="0" y="18" font-weight="bold">{html.escape(title)}</text>',
    ]
    for i, (label, value, text) in enumerate(rows):
        y = top + i * (bar_h + gap)
        w = int((width - label_w - 90) * (value / peak))
        parts.append(f'<text x="0" y="{y + 16}">{html.escape(label)}</text>')
        parts.append(f'<rect x="{label_w}" y="{y}" width="{w}" height="{bar_h}" fill="#4472c4"/>')
        parts.append(f'<text x="{label_w + w + 6}" y="{y + 16}">{html.escape(text)}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def report_html(rep: TicketReport, questions: int | None) -> str:
    """Self-contained HTML report: key numbers, aging and topic charts (no scripts, no external files)."""
    data = report_json(rep, questions)
    aging_rows = [
        (a.status, float(a.count), f"{a.count} (oldest {_age(a.oldest_age_seconds)})") for a in rep.aging
    ]
    oldest_rows = [
        (a.status, float(a.oldest_age_seconds or 0.0) / 3600, _age(a.oldest_age_seconds))
        for a in rep.aging
        if a.count
    ]
    topic_rows = [(t, float(n), str(n)) for t, n in rep.top_topics]
    reason_rows = [(r, float(n), str(n)) for r, n in rep.by_reason]
    rate = (
        "unknown (pass --questions)" if data["escalation_rate"] is None else f"{data['escalation_rate']:.1%}"
    )
    median = _age(rep.median_time_to_answer_seconds)
    return "\n".join(
        [
            "<!doctype html>",
            '<html lang="en"><head><meta charset="utf-8"><title>dasar ticket report</title>',
            "<style>body{font-family:sans-serif;margin:2em}svg{display:block;margin:1em 0}"
            "td,th{padding:2px 10px;text-align:left}</style></head><body>",
            f"<h1>dasar ticket report</h1><p>Generated {html.escape(rep.generated_at.isoformat())}</p>",
            "<table>",
            f"<tr><th>Tickets</th><td>{rep.total}</td></tr>",
            f"<tr><th>Escalation rate</th><td>{html.escape(rate)}</td></tr>",
            f"<tr><th>Answered</th><td>{rep.answered_count}</td></tr>",
            f"<tr><th>Median time to answer</th><td>{html.escape(median)}</td></tr>",
            "</table>",
            _bar_chart("Tickets per status (aging)", aging_rows),
            _bar_chart("Oldest ticket age per status (hours)", oldest_rows),
            _bar_chart("Why dasar escalated", reason_rows),
            _bar_chart("Repeated topics", topic_rows) if topic_rows else "<p>No topics recorded.</p>",
            "</body></html>",
            "",
        ]
    )


def cmd_list(args: argparse.Namespace) -> int:
    store = _store(args)
    try:
        now = _now(args)
        tickets = store.list(status=args.status)
        if args.json:
            sys.stdout.write(
                json.dumps([ticket_json(t, now) for t in tickets], ensure_ascii=False, indent=2) + "\n"
            )
            return 0
        table = Table(title=f"{len(tickets)} ticket(s)")
        for col in ("id", "status", "reason", "topic", "assignee", "in status", "requester"):
            table.add_column(col)
        for t in tickets:
            table.add_row(
                t.id,
                t.status,
                t.reason,
                t.topic or "-",
                t.assignee or "-",
                _age((now - (t.status_since or t.updated_at)).total_seconds()),
                t.requester.display_name or t.requester.user_id,
            )
        console.print(table)
        return 0
    finally:
        store.shutdown()


def cmd_show(args: argparse.Namespace) -> int:
    store = _store(args)
    try:
        try:
            t = store.get(args.ticket_id)
        except TicketError as exc:
            err_console.print(f"error: {exc}", markup=False)
            return 2
        events = cast("list[Any]", store.events(t.id))  # the protocol's own `list` method confuses mypy
        now = _now(args)
        if args.json:
            out = ticket_json(t, now)
            out["events"] = [
                {"seq": e.seq, "kind": e.kind, "actor": e.actor, "at": e.at.isoformat(), "data": e.data}
                for e in events
            ]
            sys.stdout.write(json.dumps(out, ensure_ascii=False, indent=2) + "\n")
            return 0
        console.print(
            f"[bold]{t.id}[/bold] {t.status} ({t.reason}) topic={t.topic or '-'} assignee={t.assignee or '-'}"
        )
        console.print(
            f"requester: {t.requester.display_name or t.requester.user_id} <{t.requester.email or '-'}>"
        )
        console.print(f"question: {t.question_masked}")
        console.print(f"missing: {t.gap}")
        if t.answer:
            console.print(f"answer ({t.answer_by}): {t.answer}")
        table = Table(title="history")
        for col in ("seq", "at", "event", "actor"):
            table.add_column(col)
        for e in events:
            table.add_row(str(e.seq), e.at.isoformat(timespec="seconds"), e.kind, e.actor)
        console.print(table)
        return 0
    finally:
        store.shutdown()


def cmd_report(args: argparse.Namespace) -> int:
    store = _store(args)
    now = _now(args)
    try:
        rep = build_report(store, now, top_n=args.top)
        feedback = build_feedback_report(store, now) if isinstance(store, FeedbackStore) else None
    finally:
        store.shutdown()
    if args.html:
        page = report_html(rep, args.questions)
        if feedback is not None:
            page = with_feedback_section(page, feedback)
        Path(args.html).write_text(page, encoding="utf-8")
    data = report_json(rep, args.questions)
    if args.json:
        if feedback is not None:
            data["feedback"] = feedback_report_json(feedback)
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
        return 0
    table = Table(title=f"ticket aging ({rep.total} tickets)")
    for col in ("status", "count", "oldest", "oldest ticket"):
        table.add_column(col)
    for a in rep.aging:
        table.add_row(a.status, str(a.count), _age(a.oldest_age_seconds), a.oldest_ticket_id or "-")
    console.print(table)
    reasons = Table(title="why dasar escalated")
    reasons.add_column("reason")
    reasons.add_column("count")
    for r in data["by_reason"]:
        reasons.add_row(r["reason"], str(r["count"]))
    console.print(reasons)
    rate = (
        "unknown (pass --questions)" if data["escalation_rate"] is None else f"{data['escalation_rate']:.1%}"
    )
    console.print(f"escalation rate: {rate}")
    console.print(
        f"median time to answer: {_age(rep.median_time_to_answer_seconds)} over {rep.answered_count} answered"
    )
    console.print("repeated topics: " + (", ".join(f"{t} ({n})" for t, n in rep.top_topics) or "-"))
    if feedback is not None:
        for line in feedback_lines(feedback):
            console.print(line, markup=False, highlight=False)
    if args.html:
        console.print(f"HTML report written to {args.html}")
    return 0


_OPEN_OUTBOX = ("pending", "uncertain", "dead")


def outbox_message_json(m: OutboxMessage, now: dt.datetime) -> dict[str, Any]:
    """One outbox message for ``dasar tickets outbox --json`` (no payload: it holds the question)."""
    return {
        "key": m.key,
        "ticket_id": m.ticket_id,
        "channel": m.channel,
        "kind": m.kind,
        "status": m.status,
        "attempts": m.attempts,
        "age_seconds": max((now - m.created_at).total_seconds(), 0.0),
        "created_at": m.created_at.isoformat(),
        "next_attempt_at": m.next_attempt_at.isoformat() if m.status == "pending" else None,
        "last_error": m.last_error,
    }


def _actor(args: argparse.Namespace) -> str:
    import getpass

    if args.actor:
        return str(args.actor)
    try:
        return f"cli:{getpass.getuser()}"
    except (KeyError, OSError):  # pragma: no cover - no user database (containers)
        return "cli"


def cmd_outbox(args: argparse.Namespace) -> int:
    store = _store(args)
    now = _now(args)
    try:
        try:
            if args.redrive or args.resolve:
                if args.redrive:
                    before = store.outbox.get(args.redrive)
                    msg = store.outbox.redrive(args.redrive, _actor(args))
                    what = (
                        f"re-driven {msg.key}: pending again, attempts reset "
                        f"(was {before.status} after {before.attempts} attempt(s))"
                    )
                else:
                    msg = store.outbox.resolve_delivered(args.resolve, _actor(args), args.ref)
                    what = f"resolved {msg.key}: marked delivered" + (f" as {args.ref}" if args.ref else "")
                if args.json:
                    sys.stdout.write(
                        json.dumps(outbox_message_json(msg, now), ensure_ascii=False, indent=2) + "\n"
                    )
                else:
                    console.print(what, markup=False, highlight=False)
                return 0
            statuses = ("dead",) if args.dead else _OPEN_OUTBOX
            msgs = [m for st in statuses for m in store.outbox.messages(status=st)]
            stats = store.outbox.stats(now)
        except TicketError as exc:
            err_console.print(f"error: {exc}", markup=False)
            return 2
    finally:
        store.shutdown()
    msgs.sort(key=lambda m: (m.created_at, m.key))
    if args.json:
        out = {
            "pending": stats.pending,
            "uncertain": stats.uncertain,
            "dead": stats.dead,
            "depth": stats.depth,
            "oldest_pending_age_seconds": stats.oldest_pending_age_seconds,
            "messages": [outbox_message_json(m, now) for m in msgs],
        }
        sys.stdout.write(json.dumps(out, ensure_ascii=False, indent=2) + "\n")
        return 0
    title = (
        f"{len(msgs)} dead message(s)"
        if args.dead
        else f"outbox: {stats.pending} pending, {stats.uncertain} uncertain, {stats.dead} dead"
    )
    table = Table(title=title)
    for col in ("key", "status", "kind", "attempts", "age", "last error"):
        table.add_column(col)
    for m in msgs:
        err = (m.last_error or "-").replace("\n", " ")
        table.add_row(
            m.key,
            m.status,
            m.kind,
            str(m.attempts),
            _age((now - m.created_at).total_seconds()),
            err if len(err) <= 60 else err[:59] + "\u2026",
        )
    console.print(table)
    if stats.uncertain and not args.dead:
        console.print(
            "uncertain: the send may have arrived; check the channel, then --resolve KEY (it did) "
            "or --redrive KEY (send again)",
            markup=False,
            highlight=False,
        )
    return 0


def register(subparsers: Any) -> None:
    """Add ``tickets list|show|report|outbox`` to the main CLI's subparsers."""
    p = subparsers.add_parser("tickets", help="the tax team's escalation queue")
    p.add_argument(
        "--tickets-db", type=Path, default=None, help="ticket database (default: DASAR_TICKETS_DB)"
    )
    p.add_argument("--now", type=_aware, default=None, help=argparse.SUPPRESS)  # reproducible output in tests
    sub = p.add_subparsers(dest="tickets_command", required=True, metavar="ACTION")
    q = sub.add_parser("list", help="tickets with their age in the current status")
    q.add_argument("--status", choices=STATUSES)
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=cmd_list)
    q = sub.add_parser("show", help="one ticket with its history")
    q.add_argument("ticket_id")
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=cmd_show)
    q = sub.add_parser("report", help="aging, reasons, escalation rate, repeated topics, time to answer")
    q.add_argument("--json", action="store_true")
    q.add_argument("--html", type=Path, metavar="FILE", help="also write an HTML report with SVG charts")
    q.add_argument(
        "--questions",
        type=positive_int,
        default=None,
        help="questions asked in the period, e.g. from the audit log: escalation rate = tickets / questions",
    )
    q.add_argument("--top", type=positive_int, default=5, help="how many repeated topics to list")
    q.set_defaults(func=cmd_report)
    q = sub.add_parser(
        "outbox", help="notifications still owed (pending, uncertain, dead); re-drive or resolve one"
    )
    q.add_argument("--dead", action="store_true", help="only dead messages")
    act = q.add_mutually_exclusive_group()
    act.add_argument("--redrive", metavar="KEY", help="send a dead or uncertain message again")
    act.add_argument("--resolve", metavar="KEY", help="an uncertain message did arrive: mark it delivered")
    q.add_argument("--ref", default=None, help="with --resolve: the remote id (e.g. Teams activity id)")
    q.add_argument("--actor", default=None, help="who acts (recorded on the ticket; default cli:<user>)")
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=cmd_outbox)


register_ticket_commands = register
