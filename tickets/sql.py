"""Backend-neutral SQL implementation of the ticket store and its outbox.

Why one base class: SQLite (default, embedded) and PostgreSQL (production) must behave identically --
same transitions, same events, same outbox rows -- so the logic and the SQL live here once.  A backend
only supplies a transaction (``_tx``) that yields a :class:`Tx` and translates driver errors.  SQL is
written with ``?`` placeholders; backends with another paramstyle convert them.

Concurrency model: every operation is ONE transaction.  State changes are a compare-and-set on the
ticket ``version`` (``UPDATE ... WHERE id = ? AND version = ?``): if another writer got there first the
row count is 0, the ticket is re-read inside the same transaction and the action re-checked against the
new state (so a losing ``claim`` raises :class:`AlreadyClaimed`).  Nothing is cached in Python memory.
"""

from __future__ import annotations

import builtins
import datetime as dt
import json
import logging
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import replace
from importlib import resources
from typing import Any

from tickets.errors import IllegalTransition, StoreError, TicketNotFound
from tickets.model import (
    ACTIVE_STATUSES,
    MAX_FEEDBACK_COMMENT,
    REASONS,
    STATUSES,
    VERDICTS,
    Evidence,
    Feedback,
    Requester,
    ThreadRef,
    Ticket,
    TicketEvent,
    canonical_json,
    format_ticket_id,
    text_to_ts,
    to_utc,
    ts_to_text,
)
from tickets.outbox import (
    CHANNEL_PERSON,
    EVENT_OUTBOX_REDRIVEN,
    EVENT_OUTBOX_RESOLVED,
    NOTIFY,
    DeliveryResult,
    DeliveryUncertain,
    Notice,
    OutboxMessage,
    OutboxPolicy,
    OutboxStats,
    Sender,
    outbox_key,
)
from tickets.workflow import EVENT_EVIDENCE_ADDED, EVENT_NOTE_ADDED, EVENT_OPENED, plan

logger = logging.getLogger(__name__)

Clock = Callable[[], dt.datetime]

_ACTIVE_SQL = "(" + ", ".join(f"'{s}'" for s in ACTIVE_STATUSES) + ")"
_MAX_CAS_RETRIES = 5
_MAX_ERROR_CHARS = 500


def utc_now() -> dt.datetime:
    """Default clock."""
    return dt.datetime.now(dt.UTC)


def load_schema() -> str:
    """The shared DDL shipped as ``tickets/schema.sql``."""
    return resources.files("tickets").joinpath("schema.sql").read_text(encoding="utf-8")


def split_statements(script: str) -> list[str]:
    """Split a DDL script on ``;`` at end of line, dropping ``--`` comment lines."""
    lines = [ln for ln in script.splitlines() if not ln.lstrip().startswith("--")]
    parts = "\n".join(lines).split(";\n")
    return [p.strip().rstrip(";").strip() for p in parts if p.strip().rstrip(";").strip()]


def _outbox_ddl() -> list[str]:
    """The statements of ``schema.sql`` that create ``ticket_outbox``: the table first, then its indexes."""
    return [stmt for stmt in split_statements(load_schema()) if "ticket_outbox (" in stmt]


_OLD_OUTBOX_COLUMNS = (
    "msg_key, ticket_id, event_seq, channel, kind, payload_json, status, attempts, next_attempt_at, "
    "created_at, last_error, external_ref, delivered_at"
)
#: Every ``ticket_outbox`` column, in table order (a rebuild copies those the old table has).
_OUTBOX_COLUMNS = (*_OLD_OUTBOX_COLUMNS.split(", "), "redriven_at")


def migrate_outbox(tx: Tx, dialect: str) -> bool:
    """Bring an older ``ticket_outbox`` up to date; True if anything changed.

    Older tables lack the ``uncertain`` status and the ``redriven_at`` column, and require a
    ``ticket_id`` (notices about no ticket need it nullable).  Runs inside the schema transaction.  SQLite
    cannot alter a CHECK or NOT NULL constraint, so the table is rebuilt (rows copied unchanged);
    PostgreSQL swaps the constraint, drops NOT NULL and adds the column.
    """
    changed = False
    if dialect == "sqlite":
        row = tx.one("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'ticket_outbox'")
        info = {r["name"]: r for r in tx.all("PRAGMA table_info(ticket_outbox)")}
        required_ticket = "ticket_id" in info and int(info["ticket_id"]["notnull"]) == 1
        if row is not None and ("'uncertain'" not in str(row["sql"]) or required_ticket):
            table, *indexes = _outbox_ddl()
            copied = ", ".join(c for c in _OUTBOX_COLUMNS if c in info)
            tx.execute("ALTER TABLE ticket_outbox RENAME TO ticket_outbox_old")
            tx.execute(table)
            tx.execute(f"INSERT INTO ticket_outbox ({copied}) SELECT {copied} FROM ticket_outbox_old")
            tx.execute("DROP TABLE ticket_outbox_old")
            for stmt in indexes:
                tx.execute(stmt)
            changed = True
        columns = {r["name"] for r in tx.all("PRAGMA table_info(ticket_outbox)")}
        if "redriven_at" not in columns:
            tx.execute("ALTER TABLE ticket_outbox ADD COLUMN redriven_at TEXT")
            changed = True
    else:
        row = tx.one(
            "SELECT pg_get_constraintdef(c.oid) AS def FROM pg_constraint c "
            "WHERE c.conrelid = 'ticket_outbox'::regclass AND c.contype = 'c' "
            "AND position('status' in pg_get_constraintdef(c.oid)) > 0"
        )
        if row is not None and "uncertain" not in str(row["def"]):
            tx.execute("ALTER TABLE ticket_outbox DROP CONSTRAINT IF EXISTS ticket_outbox_status_check")
            tx.execute(
                "ALTER TABLE ticket_outbox ADD CONSTRAINT ticket_outbox_status_check "
                "CHECK (status IN ('pending', 'delivered', 'uncertain', 'dead'))"
            )
            changed = True
        has = tx.one(
            "SELECT 1 AS x FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name = 'ticket_outbox' AND column_name = 'redriven_at'"
        )
        if has is None:
            tx.execute("ALTER TABLE ticket_outbox ADD COLUMN IF NOT EXISTS redriven_at TEXT")
            changed = True
        nullable = tx.one(
            "SELECT is_nullable FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name = 'ticket_outbox' AND column_name = 'ticket_id'"
        )
        if nullable is not None and str(nullable["is_nullable"]).upper() == "NO":
            tx.execute("ALTER TABLE ticket_outbox ALTER COLUMN ticket_id DROP NOT NULL")
            changed = True
    if changed:
        logger.info("table=ticket_outbox | schema migrated (uncertain status, redriven_at, notices)")
    return changed


def _tickets_ddl() -> list[str]:
    """The statements of ``schema.sql`` that create ``tickets``: the table first, then its indexes."""
    return [
        stmt
        for stmt in split_statements(load_schema())
        if "TABLE IF NOT EXISTS tickets (" in stmt or " ON tickets (" in stmt
    ]


def _reason_check(tx: Tx, dialect: str) -> Any | None:
    """The ``tickets`` table's definition (SQLite) or its reason CHECK constraint (PostgreSQL: ``name`` and
    ``sql``, the constraint's definition); None when there is none."""
    if dialect == "sqlite":
        return tx.one("SELECT NULL AS name, sql FROM sqlite_master WHERE type = 'table' AND name = 'tickets'")
    return tx.one(
        "SELECT c.conname AS name, pg_get_constraintdef(c.oid) AS sql FROM pg_constraint c "
        "WHERE c.conrelid = 'tickets'::regclass AND c.contype = 'c' "
        "AND position('reason' in pg_get_constraintdef(c.oid)) > 0"
    )


def migrate_ticket_reasons(tx: Tx, dialect: str) -> bool:
    """Let an older ``tickets`` table store every reason of :data:`REASONS` (a database made before the reason
    existed: ``answer_failed``, session 44); True if anything changed.

    Runs inside the schema transaction.  PostgreSQL swaps the CHECK constraint.  SQLite cannot alter a
    CHECK, so the table is rebuilt under its own name (rows copied unchanged, indexes recreated): the caller
    turns foreign keys off around the transaction, as SQLite's documented procedure requires, because
    ``ticket_events`` and ``ticket_outbox`` refer to ``tickets``.
    """
    check = _reason_check(tx, dialect)
    if check is None or all(f"'{r}'" in str(check["sql"]) for r in REASONS):
        return False
    if dialect == "sqlite":
        table, *indexes = _tickets_ddl()
        columns = {r["name"] for r in tx.all("PRAGMA table_info(tickets)")}
        copied = ", ".join(c for c in _TICKET_COLUMNS.split(", ") if c in columns)
        tx.execute(table.replace("TABLE IF NOT EXISTS tickets (", "TABLE tickets_new (", 1))
        tx.execute(f"INSERT INTO tickets_new ({copied}) SELECT {copied} FROM tickets")
        tx.execute("DROP TABLE tickets")
        tx.execute("ALTER TABLE tickets_new RENAME TO tickets")
        for stmt in indexes:
            tx.execute(stmt)
        broken = tx.all("PRAGMA foreign_key_check")
        if broken:
            raise StoreError(f"tickets rebuild left {len(broken)} dangling references; nothing was changed")
    else:
        tx.execute(f'ALTER TABLE tickets DROP CONSTRAINT "{check["name"]}"')
        allowed = ", ".join(f"'{r}'" for r in REASONS)
        tx.execute(f"ALTER TABLE tickets ADD CONSTRAINT tickets_reason_check CHECK (reason IN ({allowed}))")
    logger.info("table=tickets | schema migrated (reasons: %s)", ", ".join(REASONS))
    return True


def _error_type(error: str) -> str:
    """The exception class name at the head of a stored error (logs never carry message bodies)."""
    head = error.split(":", 1)[0].strip()
    return head if head.isidentifier() else "error"


class IntegrityConflict(StoreError):
    """A uniqueness/foreign-key constraint fired (internal: usually a lost race, handled by a retry)."""


class Tx:
    """Thin cursor wrapper: ``?`` placeholders, rows addressable by column name."""

    def __init__(self, cursor: Any, convert: Callable[[str], str] | None = None) -> None:
        self._cur = cursor
        self._convert = convert

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        self._cur.execute(self._convert(sql) if self._convert else sql, tuple(params))
        return self._cur

    def one(self, sql: str, params: Sequence[Any] = ()) -> Any | None:
        rows = self.execute(sql, params).fetchall()
        return rows[0] if rows else None

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return list(self.execute(sql, params).fetchall())

    def rowcount(self, sql: str, params: Sequence[Any] = ()) -> int:
        return int(self.execute(sql, params).rowcount)


_TICKET_COLUMNS = (
    "id, num, thread_key, thread_json, requester_principal_id, requester_json, question_masked, facts_json, "
    "evidence_json, gap, reason, status, assignee, topic, answer, answer_by, answer_sources_json, "
    "created_at, updated_at, status_since, version"
)


def _thread_to_json(t: ThreadRef) -> str:
    return canonical_json(
        {"platform": t.platform, "tenant": t.tenant, "channel": t.channel, "thread_id": t.thread_id}
    )


def _requester_to_json(r: Requester) -> str:
    return canonical_json(
        {
            "principal_id": r.principal_id,
            "platform": r.platform,
            "tenant": r.tenant,
            "user_id": r.user_id,
            "email": r.email,
            "display_name": r.display_name,
        }
    )


def _row_to_ticket(row: Any) -> Ticket:
    return Ticket(
        id=row["id"],
        thread=ThreadRef(**json.loads(row["thread_json"])),
        requester=Requester(**json.loads(row["requester_json"])),
        question_masked=row["question_masked"],
        facts=tuple(json.loads(row["facts_json"])),
        evidence=Evidence.from_json(json.loads(row["evidence_json"])),
        gap=row["gap"],
        reason=row["reason"],
        status=row["status"],
        assignee=row["assignee"],
        created_at=text_to_ts(row["created_at"]),
        updated_at=text_to_ts(row["updated_at"]),
        answer=row["answer"],
        answer_by=row["answer_by"],
        answer_sources=tuple(json.loads(row["answer_sources_json"])),
        topic=row["topic"],
        version=int(row["version"]),
        status_since=text_to_ts(row["status_since"]),
    )


def _row_to_message(row: Any) -> OutboxMessage:
    return OutboxMessage(
        key=row["msg_key"],
        ticket_id=row["ticket_id"] or "",
        event_seq=int(row["event_seq"]),
        channel=row["channel"],
        kind=row["kind"],
        payload=json.loads(row["payload_json"]),
        status=row["status"],
        attempts=int(row["attempts"]),
        next_attempt_at=text_to_ts(row["next_attempt_at"]),
        created_at=text_to_ts(row["created_at"]),
        last_error=row["last_error"],
        external_ref=row["external_ref"],
        delivered_at=text_to_ts(row["delivered_at"]) if row["delivered_at"] else None,
        redriven_at=text_to_ts(row["redriven_at"]) if row["redriven_at"] else None,
    )


_FEEDBACK_COLUMNS = (
    "answer_ref, user_id, platform, tenant, corpus_version, answer_status, confidence_band, verdict, "
    "comment_masked, created_at, updated_at"
)


def _row_to_feedback(row: Any) -> Feedback:
    return Feedback(
        answer_ref=row["answer_ref"],
        user_id=row["user_id"],
        platform=row["platform"],
        tenant=row["tenant"],
        corpus_version=row["corpus_version"],
        answer_status=row["answer_status"],
        confidence_band=row["confidence_band"],
        verdict=row["verdict"],
        comment_masked=row["comment_masked"],
        created_at=text_to_ts(row["created_at"]),
        updated_at=text_to_ts(row["updated_at"]),
    )


class SqlTicketStore(ABC):
    """Ticket store logic over any DB-API backend; subclasses provide :meth:`_tx` and :meth:`shutdown`.

    Args:
        clock: returns the current timezone-aware time (inject a fake one in tests).
        policy: outbox retry policy.
    """

    def __init__(self, *, clock: Clock | None = None, policy: OutboxPolicy | None = None) -> None:
        self._clock = clock or utc_now
        self.outbox = SqlOutbox(self, policy or OutboxPolicy())

    # -- backend hooks -------------------------------------------------------------------------------
    @abstractmethod
    def _tx(self, write: bool = True) -> AbstractContextManager[Tx]:
        """One transaction; commit on success, roll back on any exception.

        Must translate constraint violations to :class:`IntegrityConflict` and other driver errors to
        :class:`StoreError`; :class:`TicketError` raised by the body passes through unchanged.
        """

    @abstractmethod
    def shutdown(self) -> None:
        """Release the database connection (named so because ``close`` closes a ticket)."""

    def ping(self) -> None:
        """Cheap health check for ``/healthz``: one trivial query. Raises :class:`StoreError` if down."""
        with self._tx(write=False) as tx:
            tx.one("SELECT 1 AS ok")

    def __enter__(self) -> SqlTicketStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()

    def _now(self) -> dt.datetime:
        return to_utc(self._clock())

    # -- reads ---------------------------------------------------------------------------------------
    def _load(self, tx: Tx, ticket_id: str) -> Ticket:
        row = tx.one(f"SELECT {_TICKET_COLUMNS} FROM tickets WHERE id = ?", (ticket_id,))
        if row is None:
            raise TicketNotFound(ticket_id)
        return _row_to_ticket(row)

    def _active_for_thread(self, tx: Tx, thread_key: str) -> Ticket | None:
        row = tx.one(
            f"SELECT {_TICKET_COLUMNS} FROM tickets WHERE thread_key = ? AND status IN {_ACTIVE_SQL} "
            "ORDER BY num DESC",
            (thread_key,),
        )
        return _row_to_ticket(row) if row is not None else None

    def get(self, ticket_id: str) -> Ticket:
        """The ticket with this id. Raises :class:`TicketNotFound`."""
        with self._tx(write=False) as tx:
            return self._load(tx, ticket_id)

    def find_by_thread(self, thread: ThreadRef) -> Ticket | None:
        """The thread's active ticket (open/claimed/needs_info), else its most recent one, else None."""
        with self._tx(write=False) as tx:
            row = tx.one(
                f"SELECT {_TICKET_COLUMNS} FROM tickets WHERE thread_key = ? "
                f"ORDER BY CASE WHEN status IN {_ACTIVE_SQL} THEN 0 ELSE 1 END, num DESC",
                (thread.key,),
            )
        return _row_to_ticket(row) if row is not None else None

    def list(self, status: str | None = None, requester_principal_id: str | None = None) -> list[Ticket]:
        """Tickets in id order, optionally filtered by status and/or requester."""
        if status is not None and status not in STATUSES:
            raise ValueError(f"unknown status {status!r}; expected one of {', '.join(STATUSES)}")
        where, params = [], []
        if status is not None:
            where.append("status = ?")
            params.append(status)
        if requester_principal_id is not None:
            where.append("requester_principal_id = ?")
            params.append(requester_principal_id)
        sql = f"SELECT {_TICKET_COLUMNS} FROM tickets"
        if where:
            sql += " WHERE " + " AND ".join(where)
        with self._tx(write=False) as tx:
            rows = tx.all(sql + " ORDER BY num", params)
        return [_row_to_ticket(r) for r in rows]

    def events(self, ticket_id: str) -> builtins.list[TicketEvent]:
        """The ticket's history in order. Raises :class:`TicketNotFound`."""
        with self._tx(write=False) as tx:
            self._load(tx, ticket_id)
            rows = tx.all(
                "SELECT ticket_id, seq, kind, actor, at, data_json FROM ticket_events "
                "WHERE ticket_id = ? ORDER BY seq",
                (ticket_id,),
            )
        return [
            TicketEvent(
                int(r["seq"]),
                r["ticket_id"],
                r["kind"],
                r["actor"],
                text_to_ts(r["at"]),
                json.loads(r["data_json"]),
            )
            for r in rows
        ]

    def first_answered_at(self) -> dict[str, dt.datetime]:
        """When each ticket was first answered (for time-to-answer reporting)."""
        with self._tx(write=False) as tx:
            rows = tx.all(
                "SELECT ticket_id, MIN(at) AS first_at FROM ticket_events WHERE kind = 'answered' "
                "GROUP BY ticket_id ORDER BY ticket_id"
            )
        return {r["ticket_id"]: text_to_ts(r["first_at"]) for r in rows}

    # -- writes: helpers -----------------------------------------------------------------------------
    def _insert_event(
        self, tx: Tx, ticket_id: str, kind: str, actor: str, at: dt.datetime, data: Mapping[str, Any]
    ) -> TicketEvent:
        """Write the ticket's next event (no notifications)."""
        row = tx.one(
            "SELECT COALESCE(MAX(seq), 0) AS last FROM ticket_events WHERE ticket_id = ?", (ticket_id,)
        )
        if row is None:  # pragma: no cover - an aggregate always returns one row
            raise StoreError(f"could not read the event sequence of {ticket_id}")
        event = TicketEvent(int(row["last"]) + 1, ticket_id, kind, actor, at, dict(data))
        tx.execute(
            "INSERT INTO ticket_events (ticket_id, seq, kind, actor, at, data_json) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (ticket_id, event.seq, kind, actor, ts_to_text(at), canonical_json(event.data)),
        )
        return event

    def _append(self, tx: Tx, ticket: Ticket, kind: str, actor: str, data: Mapping[str, Any]) -> TicketEvent:
        """Append one event and enqueue its notifications (same transaction)."""
        event = self._insert_event(tx, ticket.id, kind, actor, ticket.updated_at, data)
        self._enqueue(tx, ticket, event)
        return event

    def _enqueue(self, tx: Tx, ticket: Ticket, event: TicketEvent) -> None:
        """Write the outbox rows that ``event`` calls for (see :data:`tickets.outbox.NOTIFY`)."""
        at = ts_to_text(event.at)
        for channel, kind in NOTIFY.get(event.kind, ()):
            payload = {
                "event": {
                    "seq": event.seq,
                    "kind": event.kind,
                    "actor": event.actor,
                    "at": at,
                    "data": event.data,
                },
                "ticket": ticket.summary(),
            }
            tx.execute(
                "INSERT INTO ticket_outbox (msg_key, ticket_id, event_seq, channel, kind, payload_json, "
                "status, attempts, next_attempt_at, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?)",
                (
                    outbox_key(ticket.id, event.seq, channel),
                    ticket.id,
                    event.seq,
                    channel,
                    kind,
                    canonical_json(payload),
                    at,
                    at,
                ),
            )

    def _cas(self, tx: Tx, old: Ticket, new: Ticket) -> bool:
        """Persist ``new`` only if the row still has ``old.version``; False when someone else wrote first."""
        n = tx.rowcount(
            "UPDATE tickets SET evidence_json = ?, status = ?, assignee = ?, answer = ?, answer_by = ?, "
            "answer_sources_json = ?, updated_at = ?, status_since = ?, version = ? "
            "WHERE id = ? AND version = ?",
            (
                canonical_json(new.evidence.to_json()),
                new.status,
                new.assignee,
                new.answer,
                new.answer_by,
                canonical_json(list(new.answer_sources)),
                ts_to_text(new.updated_at),
                ts_to_text(new.status_since or new.updated_at),
                new.version,
                old.id,
                old.version,
            ),
        )
        return n == 1

    def _mutate(
        self,
        ticket_id: str,
        actor: str,
        step: Callable[[Tx, Ticket, dt.datetime], tuple[Ticket, str, dict[str, Any]] | None],
    ) -> Ticket:
        """Run read -> check -> compare-and-set -> append in one transaction, re-reading on a lost CAS.

        ``step`` gets the freshly read ticket and returns ``(new_ticket, event_kind, event_data)`` or
        None for "nothing to do"; it raises to refuse.
        """
        with self._tx() as tx:
            for _ in range(_MAX_CAS_RETRIES):
                current = self._load(tx, ticket_id)
                now = self._now()
                outcome = step(tx, current, now)
                if outcome is None:
                    return current
                new, kind, data = outcome
                if self._cas(tx, current, new):
                    self._append(tx, new, kind, actor, data)
                    logger.info(
                        "ticket_id=%s, event=%s, status=%s, version=%d | ticket changed",
                        new.id,
                        kind,
                        new.status,
                        new.version,
                    )
                    return new
                logger.info(
                    "ticket_id=%s, version=%d | lost compare-and-set, re-reading", current.id, current.version
                )
        raise StoreError(f"ticket {ticket_id} kept changing during the update; retry the action")

    def _transition(
        self, ticket_id: str, action: str, actor: str, data: Mapping[str, Any], **changes: Any
    ) -> Ticket:
        def step(tx: Tx, cur: Ticket, now: dt.datetime) -> tuple[Ticket, str, dict[str, Any]] | None:
            planned = plan(cur, action, actor)
            if planned.rule is None:
                return None
            rule = planned.rule
            if cur.status not in ACTIVE_STATUSES and rule.to in ACTIVE_STATUSES:
                other = self._active_for_thread(tx, cur.thread.key)
                if other is not None and other.id != cur.id:
                    raise IllegalTransition(
                        cur.id,
                        cur.status,
                        action,
                        f"the thread already has active ticket {other.id}; continue there",
                    )
            new = replace(
                cur,
                status=rule.to,
                assignee=planned.new_assignee,
                updated_at=now,
                status_since=now if rule.to != cur.status else cur.status_since,
                version=cur.version + 1,
                **changes,
            )
            return new, rule.event, dict(data)

        return self._mutate(ticket_id, actor, step)

    # -- writes: public ------------------------------------------------------------------------------
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
    ) -> tuple[Ticket, bool]:
        """Open a ticket for ``thread``, or return its active one (idempotent per thread).

        If the thread already has an open/claimed/needs_info ticket it is returned with ``created=False``;
        evidence not already on it is merged in and an ``evidence_added`` event is appended.

        Raises:
            ValueError: unknown ``reason``.
        """
        if reason not in REASONS:
            raise ValueError(f"unknown escalation reason {reason!r}; expected one of {', '.join(REASONS)}")
        for attempt in range(2):
            try:
                return self._open_once(
                    thread, requester, question_masked, tuple(facts), evidence, gap, reason, topic
                )
            except IntegrityConflict:
                # Lost a race with a concurrent open for the same thread: the retry finds its ticket.
                if attempt == 1:
                    raise
                logger.info("platform=%s | concurrent open for the same thread, retrying", thread.platform)
        raise AssertionError("unreachable")

    def _open_once(
        self,
        thread: ThreadRef,
        requester: Requester,
        question_masked: str,
        facts: tuple[str, ...],
        evidence: Evidence,
        gap: str,
        reason: str,
        topic: str | None,
    ) -> tuple[Ticket, bool]:
        with self._tx() as tx:
            existing = self._active_for_thread(tx, thread.key)
            if existing is not None:
                return self._add_evidence(tx, existing, requester.principal_id, evidence), False
            now = self._now()
            row = tx.one("UPDATE ticket_counters SET value = value + 1 WHERE name = 'ticket' RETURNING value")
            if row is None:
                raise StoreError("ticket counter row is missing; re-create the schema")
            num = int(row["value"])
            ticket = Ticket(
                id=format_ticket_id(num),
                thread=thread,
                requester=requester,
                question_masked=question_masked,
                facts=facts,
                evidence=evidence,
                gap=gap,
                reason=reason,
                status="open",
                assignee=None,
                created_at=now,
                updated_at=now,
                topic=topic,
                version=1,
                status_since=now,
            )
            tx.execute(
                f"INSERT INTO tickets ({_TICKET_COLUMNS}) VALUES ({', '.join(['?'] * 21)})",
                (
                    ticket.id,
                    num,
                    thread.key,
                    _thread_to_json(thread),
                    requester.principal_id,
                    _requester_to_json(requester),
                    question_masked,
                    canonical_json(list(facts)),
                    canonical_json(evidence.to_json()),
                    gap,
                    reason,
                    "open",
                    None,
                    topic,
                    None,
                    None,
                    "[]",
                    ts_to_text(now),
                    ts_to_text(now),
                    ts_to_text(now),
                    1,
                ),
            )
            self._append(tx, ticket, EVENT_OPENED, requester.principal_id, {"reason": reason, "topic": topic})
            logger.info("ticket_id=%s, reason=%s | ticket opened", ticket.id, reason)
            return ticket, True

    def _add_evidence(self, tx: Tx, existing: Ticket, actor: str, evidence: Evidence) -> Ticket:
        current = existing
        for _ in range(_MAX_CAS_RETRIES):
            merged, new_items = current.evidence.merge(evidence)
            if new_items.is_empty():
                return current
            now = self._now()
            new = replace(current, evidence=merged, updated_at=now, version=current.version + 1)
            if self._cas(tx, current, new):
                self._append(tx, new, EVENT_EVIDENCE_ADDED, actor, {"added": new_items.to_json()})
                logger.info("ticket_id=%s, version=%d | evidence added", new.id, new.version)
                return new
            current = self._load(tx, existing.id)
        raise StoreError(f"ticket {existing.id} kept changing while adding evidence; retry")

    def claim(self, ticket_id: str, actor: str) -> Ticket:
        """Take an open ticket. A concurrent second claim raises :class:`AlreadyClaimed`."""
        return self._transition(ticket_id, "claim", actor, {})

    def unclaim(self, ticket_id: str, actor: str) -> Ticket:
        """Give a claimed ticket back to the queue (assignee only)."""
        return self._transition(ticket_id, "unclaim", actor, {})

    def answer(
        self, ticket_id: str, actor: str, text: str, sources: Sequence[Mapping[str, Any]] = ()
    ) -> Ticket:
        """Record the tax team's answer (assignee only); it is relayed to the requester via the outbox."""
        src = tuple(dict(s) for s in sources)
        return self._transition(
            ticket_id,
            "answer",
            actor,
            {"text": text, "sources": list(src)},
            answer=text,
            answer_by=actor,
            answer_sources=src,
        )

    def ask_info(self, ticket_id: str, actor: str, question: str) -> Ticket:
        """Ask the requester for more information (assignee only when claimed)."""
        return self._transition(ticket_id, "ask_info", actor, {"question": question})

    def requester_reply(self, ticket_id: str, text: str) -> Ticket:
        """The requester wrote in the thread: answers a needs_info, re-opens an answered ticket."""
        with self._tx(write=False) as tx:
            principal = self._load(tx, ticket_id).requester.principal_id
        return self._transition(ticket_id, "requester_reply", principal, {"text": text})

    def close(self, ticket_id: str, actor: str) -> Ticket:
        """Close an answered ticket."""
        return self._transition(ticket_id, "close", actor, {})

    def reject(self, ticket_id: str, actor: str, reason: str) -> Ticket:
        """Decline a ticket that will not be answered; the requester is told why."""
        return self._transition(ticket_id, "reject", actor, {"reason": reason})

    def add_note(self, ticket_id: str, actor: str, note: str) -> Ticket:
        """Internal note for the tax team; allowed in every status, status unchanged."""

        def step(tx: Tx, cur: Ticket, now: dt.datetime) -> tuple[Ticket, str, dict[str, Any]]:
            return replace(cur, updated_at=now, version=cur.version + 1), EVENT_NOTE_ADDED, {"note": note}

        return self._mutate(ticket_id, actor, step)

    # -- answer feedback -----------------------------------------------------------------------------
    def record_feedback(self, feedback: Feedback) -> Feedback:
        """Store a user's verdict on an answer; a later click by the same user replaces it.

        Returns the stored record (with ``created_at`` of the first click and ``updated_at`` now).
        """
        now = ts_to_text(self._now())
        comment = (feedback.comment_masked or "").strip()[:MAX_FEEDBACK_COMMENT] or None
        with self._tx() as tx:
            tx.execute(
                "INSERT INTO answer_feedback (answer_ref, user_id, platform, tenant, corpus_version, "
                "answer_status, confidence_band, verdict, comment_masked, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (answer_ref, user_id) DO UPDATE SET verdict = excluded.verdict, "
                "comment_masked = COALESCE(excluded.comment_masked, answer_feedback.comment_masked), "
                "corpus_version = excluded.corpus_version, answer_status = excluded.answer_status, "
                "confidence_band = excluded.confidence_band, updated_at = excluded.updated_at",
                (
                    feedback.answer_ref,
                    feedback.user_id,
                    feedback.platform,
                    feedback.tenant,
                    feedback.corpus_version,
                    feedback.answer_status,
                    feedback.confidence_band,
                    feedback.verdict,
                    comment,
                    now,
                    now,
                ),
            )
            row = tx.one(
                f"SELECT {_FEEDBACK_COLUMNS} FROM answer_feedback WHERE answer_ref = ? AND user_id = ?",
                (feedback.answer_ref, feedback.user_id),
            )
        logger.info(
            "answer_ref=%s, platform=%s, verdict=%s | feedback stored",
            feedback.answer_ref,
            feedback.platform,
            feedback.verdict,
        )
        return _row_to_feedback(row)

    def list_feedback(
        self, since: dt.datetime | None = None, verdict: str | None = None
    ) -> builtins.list[Feedback]:
        """Feedback (optionally from ``since`` on, of one verdict), oldest change first."""
        if verdict is not None and verdict not in VERDICTS:
            raise ValueError(f"unknown verdict {verdict!r}; expected one of {', '.join(VERDICTS)}")
        where, params = [], []
        if since is not None:
            where.append("updated_at >= ?")
            params.append(ts_to_text(since))
        if verdict is not None:
            where.append("verdict = ?")
            params.append(verdict)
        sql = f"SELECT {_FEEDBACK_COLUMNS} FROM answer_feedback"
        if where:
            sql += " WHERE " + " AND ".join(where)
        with self._tx(write=False) as tx:
            rows = tx.all(sql + " ORDER BY updated_at, answer_ref, user_id", params)
        return [_row_to_feedback(r) for r in rows]


class SqlOutbox:
    """The outbox of one :class:`SqlTicketStore` (same database, same transactions)."""

    def __init__(self, store: SqlTicketStore, policy: OutboxPolicy) -> None:
        self._store = store
        self.policy = policy

    def _select(self) -> str:
        return (
            "SELECT msg_key, ticket_id, event_seq, channel, kind, payload_json, status, attempts, "
            "next_attempt_at, "
            "created_at, last_error, external_ref, delivered_at, redriven_at FROM ticket_outbox o"
        )

    def due(self, now: dt.datetime, limit: int = 100) -> list[OutboxMessage]:
        """Pending messages whose time has come, oldest first, at most one per (ticket, channel) head.

        A message waits while an earlier one of its ticket and channel is pending or uncertain.
        """
        with self._store._tx(write=False) as tx:
            rows = tx.all(
                self._select() + " WHERE o.status = 'pending' AND o.next_attempt_at <= ? AND NOT EXISTS ("
                "SELECT 1 FROM ticket_outbox p WHERE p.ticket_id = o.ticket_id AND p.channel = o.channel "
                "AND p.status IN ('pending', 'uncertain') AND p.event_seq < o.event_seq) "
                "ORDER BY o.created_at, o.ticket_id, o.event_seq, o.channel LIMIT ?",
                (ts_to_text(now), int(limit)),
            )
        return [_row_to_message(r) for r in rows]

    def _message_for_update(self, tx: Tx, key: str, statuses: tuple[str, ...], refusal: str) -> OutboxMessage:
        """The message ``key`` inside an open write transaction, when its status allows the change.

        ``refusal`` completes "outbox message <key> ..." with ``{status}`` for any other status.
        """
        msg = self._fetch(tx, key)
        if msg.status not in statuses:
            raise StoreError(f"outbox message {key} " + refusal.format(status=msg.status))
        return msg

    def _fetch(self, tx: Tx, key: str) -> OutboxMessage:
        row = tx.one(self._select() + " WHERE o.msg_key = ?", (key,))
        if row is None:
            raise StoreError(f"outbox message {key} not found; list them with `dasar tickets outbox`")
        return _row_to_message(row)

    def get(self, key: str) -> OutboxMessage:
        """One message by idempotency key. Raises :class:`StoreError` if absent."""
        with self._store._tx(write=False) as tx:
            return self._fetch(tx, key)

    def messages(
        self, ticket_id: str | None = None, status: str | None = None, kind: str | None = None
    ) -> list[OutboxMessage]:
        """All messages (optionally of one ticket / status / kind) in creation order; for operators and
        tests."""
        where, params = [], []
        if ticket_id is not None:
            where.append("o.ticket_id = ?")
            params.append(ticket_id)
        if status is not None:
            where.append("o.status = ?")
            params.append(status)
        if kind is not None:
            where.append("o.kind = ?")
            params.append(kind)
        sql = self._select() + (" WHERE " + " AND ".join(where) if where else "")
        with self._store._tx(write=False) as tx:
            rows = tx.all(sql + " ORDER BY o.created_at, o.ticket_id, o.event_seq, o.channel", params)
        return [_row_to_message(r) for r in rows]

    def enqueue_notice(self, notice: Notice) -> bool:
        """Queue ``notice`` (pending, due now) unless its key is already in the outbox; True if queued.

        Idempotent: the same notice (impact, subject, recipient) is queued once whatever its state now
        (pending, delivered, dead ...), so re-assessing a change never sends a second card.  Raises
        :class:`IntegrityConflict` if ``notice.ticket_id`` names no ticket of this store.
        """
        now = ts_to_text(self._store._now())
        with self._store._tx() as tx:
            n = tx.rowcount(
                "INSERT INTO ticket_outbox (msg_key, ticket_id, event_seq, channel, kind, payload_json, "
                "status, attempts, next_attempt_at, created_at) "
                "VALUES (?, ?, 0, ?, ?, ?, 'pending', 0, ?, ?) ON CONFLICT (msg_key) DO NOTHING",
                (
                    notice.key,
                    notice.ticket_id or None,
                    CHANNEL_PERSON,
                    notice.kind,
                    canonical_json(notice.payload),
                    now,
                    now,
                ),
            )
        if n:
            logger.info("outbox_key=%s, kind=%s | notice queued", notice.key, notice.kind)
        else:
            logger.info("outbox_key=%s | notice already queued; not queued again", notice.key)
        return n == 1

    def card_ref(self, ticket_id: str) -> str | None:
        """External reference of the delivered tax-team card of a ticket (needed to update the card)."""
        with self._store._tx(write=False) as tx:
            row = tx.one(
                "SELECT external_ref FROM ticket_outbox WHERE ticket_id = ? AND kind = 'post_card' "
                "AND status = 'delivered' ORDER BY event_seq",
                (ticket_id,),
            )
        return row["external_ref"] if row is not None else None

    def mark_delivered(self, key: str, external_ref: str) -> None:
        """Record a successful send. Idempotent for an already delivered message."""
        now = ts_to_text(self._store._now())
        with self._store._tx() as tx:
            n = tx.rowcount(
                "UPDATE ticket_outbox SET status = 'delivered', external_ref = ?, delivered_at = ?, "
                "last_error = NULL "
                "WHERE msg_key = ? AND status IN ('pending', 'dead')",
                (external_ref, now, key),
            )
            row = None if n else tx.one("SELECT status FROM ticket_outbox WHERE msg_key = ?", (key,))
            if n == 0 and row is None:
                raise StoreError(f"outbox message {key} not found")
        if row is not None and row["status"] == "uncertain":
            # Only an operator resolves an uncertain message (redrive or resolve_delivered).
            logger.warning("outbox_key=%s | late success of an uncertain message ignored", key)
            return
        logger.info("outbox_key=%s | outbox message delivered", key)

    def mark_failed(self, key: str, error: str, now: dt.datetime) -> OutboxMessage:
        """Record a failed send: back off exponentially, or go ``dead`` after ``max_attempts``.

        Raises:
            StoreError: unknown key, or the message is not pending.
        """
        with self._store._tx() as tx:
            msg = self._message_for_update(
                tx, key, ("pending",), "is {status}, not pending; nothing to retry"
            )
            attempts = msg.attempts + 1
            dead = attempts >= self.policy.max_attempts
            next_at = to_utc(now) + (dt.timedelta(0) if dead else self.policy.delay(attempts))
            tx.execute(
                "UPDATE ticket_outbox SET attempts = ?, status = ?, next_attempt_at = ?, last_error = ? "
                "WHERE msg_key = ?",
                (attempts, "dead" if dead else "pending", ts_to_text(next_at), error[:_MAX_ERROR_CHARS], key),
            )
        if dead:
            logger.error(
                "outbox_key=%s, ticket_id=%s, channel=%s, kind=%s, attempts=%d, error_type=%s | "
                "outbox message is dead; see `dasar tickets outbox --dead`, re-drive with --redrive",
                key,
                msg.ticket_id,
                msg.channel,
                msg.kind,
                attempts,
                _error_type(error),
            )
        else:
            logger.info("outbox_key=%s, attempts=%d | outbox send failed, will retry", key, attempts)
        return replace(
            msg,
            attempts=attempts,
            status="dead" if dead else "pending",
            next_attempt_at=next_at,
            last_error=error[:_MAX_ERROR_CHARS],
        )

    def mark_uncertain(self, key: str, error: str, now: dt.datetime) -> OutboxMessage:
        """The send may have reached the remote side: park the message as ``uncertain`` (never resent).

        Raises:
            StoreError: unknown key, or the message is not pending.
        """
        with self._store._tx() as tx:
            msg = self._message_for_update(tx, key, ("pending",), "is {status}, not pending")
            tx.execute(
                "UPDATE ticket_outbox SET attempts = ?, status = 'uncertain', next_attempt_at = ?, "
                "last_error = ? WHERE msg_key = ?",
                (msg.attempts + 1, ts_to_text(now), error[:_MAX_ERROR_CHARS], key),
            )
        logger.warning(
            "outbox_key=%s, ticket_id=%s, channel=%s, kind=%s, error_type=%s | delivery uncertain: not "
            "resent; check the channel, then `dasar tickets outbox --redrive` or --resolve",
            key,
            msg.ticket_id,
            msg.channel,
            msg.kind,
            _error_type(error),
        )
        return replace(
            msg, attempts=msg.attempts + 1, status="uncertain", last_error=error[:_MAX_ERROR_CHARS]
        )

    def redrive(self, key: str, actor: str) -> OutboxMessage:
        """Send a dead or uncertain message again: back to pending, due now, attempts reset.

        Records an ``outbox_redriven`` event on the ticket (who, which message, what it was).
        Raises :class:`StoreError` for an unknown key or a message that is pending or delivered.
        """
        now = self._store._now()
        with self._store._tx() as tx:
            msg = self._message_for_update(
                tx,
                key,
                ("dead", "uncertain"),
                "is {status}; only dead or uncertain messages can be re-driven",
            )
            tx.execute(
                "UPDATE ticket_outbox SET status = 'pending', attempts = 0, next_attempt_at = ?, "
                "redriven_at = ? WHERE msg_key = ?",
                (ts_to_text(now), ts_to_text(now), key),
            )
            if msg.ticket_id:  # a notice about no ticket has no history to record it in (logged below)
                self._store._insert_event(
                    tx,
                    msg.ticket_id,
                    EVENT_OUTBOX_REDRIVEN,
                    actor,
                    now,
                    {"key": key, "was": msg.status, "attempts": msg.attempts, "last_error": msg.last_error},
                )
        logger.warning(
            "outbox_key=%s, ticket_id=%s, was=%s, attempts=%d, actor=%s | outbox message re-driven",
            key,
            msg.ticket_id,
            msg.status,
            msg.attempts,
            actor,
        )
        return replace(msg, status="pending", attempts=0, next_attempt_at=now, redriven_at=now)

    def resolve_delivered(self, key: str, actor: str, external_ref: str | None = None) -> OutboxMessage:
        """An operator confirmed an uncertain message did arrive: mark it delivered (event recorded).

        ``external_ref`` is the remote id (e.g. the Teams activity id of the card) if known.
        """
        now = self._store._now()
        with self._store._tx() as tx:
            msg = self._message_for_update(
                tx, key, ("uncertain",), "is {status}; only uncertain ones can be resolved"
            )
            tx.execute(
                "UPDATE ticket_outbox SET status = 'delivered', external_ref = ?, delivered_at = ? "
                "WHERE msg_key = ?",
                (external_ref, ts_to_text(now), key),
            )
            if msg.ticket_id:
                self._store._insert_event(
                    tx,
                    msg.ticket_id,
                    EVENT_OUTBOX_RESOLVED,
                    actor,
                    now,
                    {"key": key, "external_ref": external_ref},
                )
        logger.warning("outbox_key=%s, actor=%s | uncertain outbox message resolved as delivered", key, actor)
        return replace(msg, status="delivered", external_ref=external_ref, delivered_at=now)

    def stats(self, now: dt.datetime) -> OutboxStats:
        """Counts per open status and the oldest pending message's age (see :func:`outbox_stats`)."""
        with self._store._tx(write=False) as tx:
            rows = tx.all(
                "SELECT status, COUNT(*) AS n, MIN(created_at) AS oldest FROM ticket_outbox "
                "WHERE status IN ('pending', 'uncertain', 'dead') GROUP BY status ORDER BY status"
            )
        by = {r["status"]: r for r in rows}
        oldest = by["pending"]["oldest"] if "pending" in by else None
        return OutboxStats(
            pending=int(by["pending"]["n"]) if "pending" in by else 0,
            uncertain=int(by["uncertain"]["n"]) if "uncertain" in by else 0,
            dead=int(by["dead"]["n"]) if "dead" in by else 0,
            oldest_pending_age_seconds=(
                max((to_utc(now) - text_to_ts(oldest)).total_seconds(), 0.0) if oldest else None
            ),
        )

    def _lease(self, msg: OutboxMessage, now: dt.datetime) -> bool:
        """Hide a due message from other workers for ``lease_seconds``; False if another worker took it."""
        until = to_utc(now) + dt.timedelta(seconds=self.policy.lease_seconds)
        with self._store._tx() as tx:
            n = tx.rowcount(
                "UPDATE ticket_outbox SET next_attempt_at = ? WHERE msg_key = ? AND status = 'pending' "
                "AND next_attempt_at = ?",
                (ts_to_text(until), msg.key, ts_to_text(msg.next_attempt_at)),
            )
        return n == 1

    def deliver_pending(self, sender: Sender, now: dt.datetime, limit: int = 100) -> DeliveryResult:
        """Send due messages through ``sender`` (at-least-once; see module :mod:`tickets.outbox`).

        Each message is leased, sent, then marked delivered; :class:`DeliveryUncertain` from the sender
        parks it as ``uncertain`` (not resent until an operator acts); another ``Exception`` marks it
        failed (back-off or dead).  A crash (process death, ``BaseException``) after the send but before
        the mark leaves it pending: it is sent again after the lease with the SAME key.  Repeats until
        nothing more is due so a card post and its follow-up updates go out in one call, in order.
        """
        delivered: list[str] = []
        failed: list[str] = []
        dead: list[str] = []
        uncertain: list[str] = []
        seen: set[str] = set()
        while len(seen) < limit:
            batch = [m for m in self.due(now, limit - len(seen)) if m.key not in seen]
            if not batch:
                break
            for msg in batch:
                seen.add(msg.key)
                if not self._lease(msg, now):
                    continue
                try:
                    ref = sender(msg)
                except DeliveryUncertain as exc:
                    self.mark_uncertain(msg.key, f"{type(exc).__name__}: {exc}", now)
                    uncertain.append(msg.key)
                    continue
                except Exception as exc:
                    after = self.mark_failed(msg.key, f"{type(exc).__name__}: {exc}", now)
                    (dead if after.status == "dead" else failed).append(msg.key)
                    continue
                self.mark_delivered(msg.key, str(ref))
                delivered.append(msg.key)
        return DeliveryResult(tuple(delivered), tuple(failed), tuple(dead), tuple(uncertain))
