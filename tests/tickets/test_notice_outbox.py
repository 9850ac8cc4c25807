"""Notices in the ticket outbox (cards to one person that are not ticket events), on SQLite and PostgreSQL.

A notice is queued once per key (impact, subject, recipient), may belong to no ticket, is delivered,
retried and re-driven like ticket messages; databases from before notices (``ticket_id NOT NULL``) are
migrated when opened.  The last test runs the whole impact assessment of ``tests/kb/test_impact_cards``
with the PostgreSQL store.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.tickets.conftest import FakeClock, open_args
from tickets import SqliteTicketStore
from tickets.outbox import CHANNEL_PERSON, KIND_NOTICE, Notice, OutboxPolicy
from tickets.sql import IntegrityConflict


def _notice(subject: str = "faq:faq-t-000001", ticket_id: str | None = None, n: int = 1) -> Notice:
    return Notice(
        impact_id="3fab95fb9f178756",
        subject=subject,
        recipient=f"owner{n}@example.co.id",
        payload={"card": {"type": "AdaptiveCard", "version": "1.5", "body": []}, "notice": {"n": n}},
        ticket_id=ticket_id,
    )


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path, clock: FakeClock) -> Iterator[Any]:
    policy = OutboxPolicy(base_seconds=10, max_attempts=2)
    if request.param == "sqlite":
        s: Any = SqliteTicketStore(tmp_path / "t.db", clock=clock, policy=policy)
    else:
        from tickets.postgres import PostgresTicketStore

        s = PostgresTicketStore(request.getfixturevalue("pg_dsn"), clock=clock, policy=policy)
    yield s
    s.shutdown()


def test_a_notice_is_queued_once_per_key_and_delivered(store: Any, clock: FakeClock) -> None:
    ticket, _ = store.open_ticket(**open_args(1))
    faq = _notice()
    about_ticket = _notice(f"ticket:{ticket.id}", ticket.id, n=2)
    assert faq.key == "notice:3fab95fb9f178756:faq:faq-t-000001:owner1@example.co.id"
    assert store.outbox.enqueue_notice(faq) is True
    assert store.outbox.enqueue_notice(about_ticket) is True
    assert store.outbox.enqueue_notice(faq) is False  # the same notice again: nothing new
    msgs = {m.key: m for m in store.outbox.messages(kind=KIND_NOTICE)}
    assert set(msgs) == {faq.key, about_ticket.key}
    m = msgs[faq.key]
    assert (m.ticket_id, m.event_seq, m.channel, m.kind, m.status) == (
        "",
        0,
        CHANNEL_PERSON,
        KIND_NOTICE,
        "pending",
    )
    assert m.payload == faq.payload
    assert [x.key for x in store.outbox.messages(ticket_id=ticket.id, kind=KIND_NOTICE)] == [about_ticket.key]

    sent: list[str] = []

    def sender(msg: Any) -> str:
        sent.append(msg.key)
        return f"act-{len(sent)}"

    result = store.outbox.deliver_pending(sender, clock())
    assert {faq.key, about_ticket.key} <= set(result.delivered)
    assert store.outbox.get(faq.key).status == "delivered"
    assert store.outbox.enqueue_notice(faq) is False  # delivered stays delivered: never queued again
    assert store.outbox.get(faq.key).status == "delivered"


def test_a_notice_about_an_unknown_ticket_is_refused(store: Any) -> None:
    with pytest.raises(IntegrityConflict):
        store.outbox.enqueue_notice(_notice("ticket:T-999999", "T-999999"))
    assert store.outbox.messages(kind=KIND_NOTICE) == []


def test_a_dead_notice_is_redriven_with_or_without_a_ticket(store: Any, clock: FakeClock) -> None:
    ticket, _ = store.open_ticket(**open_args(1))
    faq, about_ticket = _notice(), _notice(f"ticket:{ticket.id}", ticket.id, n=2)
    store.outbox.enqueue_notice(faq)
    store.outbox.enqueue_notice(about_ticket)

    def refuse(msg: Any) -> str:
        if msg.kind == KIND_NOTICE:
            raise RuntimeError("429")
        return "act"

    store.outbox.deliver_pending(refuse, clock())
    clock.advance(seconds=30)
    assert {faq.key, about_ticket.key} <= set(store.outbox.deliver_pending(refuse, clock()).dead)
    assert store.outbox.redrive(faq.key, "ops").status == "pending"  # no ticket: no event, still re-driven
    assert store.outbox.redrive(about_ticket.key, "ops").status == "pending"
    redriven = [e for e in store.events(ticket.id) if e.kind == "outbox_redriven"]
    assert [e.data["key"] for e in redriven] == [about_ticket.key]
    assert store.outbox.get(faq.key).status == "pending"


def _outbox_ddl_requiring_a_ticket() -> str:
    """``ticket_outbox`` as shipped before notices: every message belonged to a ticket."""
    from tickets.sql import _outbox_ddl

    table = _outbox_ddl()[0]
    assert "ticket_id       TEXT REFERENCES tickets (id)" in table
    return table.replace("ticket_id       TEXT REFERENCES", "ticket_id       TEXT NOT NULL REFERENCES")


def test_a_sqlite_outbox_from_before_notices_is_migrated(tmp_path: Path, clock: FakeClock) -> None:
    db = tmp_path / "old.db"
    with SqliteTicketStore(db, clock=clock) as s:
        s.open_ticket(**open_args(1))
    con = sqlite3.connect(db)
    con.executescript(
        f"ALTER TABLE ticket_outbox RENAME TO o; {_outbox_ddl_requiring_a_ticket()}; "
        "INSERT INTO ticket_outbox SELECT * FROM o; DROP TABLE o;"
    )
    with pytest.raises(sqlite3.IntegrityError):  # the old table really refuses a message without ticket
        con.execute(
            "INSERT INTO ticket_outbox (msg_key, ticket_id, event_seq, channel, kind, payload_json, status, "
            "attempts, next_attempt_at, created_at) VALUES ('k', NULL, 0, 'person', 'notice_card', '{}', "
            "'pending', 0, 'x', 'x')"
        )
    con.close()
    with SqliteTicketStore(db, clock=clock) as s:
        assert [m.key for m in s.outbox.messages()] == ["T-000001:1:tax_team"]  # rows kept
        assert s.outbox.enqueue_notice(_notice()) is True
    with SqliteTicketStore(db, clock=clock) as s:  # opening again is a no-op
        assert len(s.outbox.messages()) == 2
    con = sqlite3.connect(db)
    try:
        notnull = {r[1]: r[3] for r in con.execute("PRAGMA table_info(ticket_outbox)")}
        indexes = {r[1] for r in con.execute("PRAGMA index_list(ticket_outbox)")}
    finally:
        con.close()
    assert notnull["ticket_id"] == 0 and notnull["msg_key"] == 0
    assert {"ticket_outbox_due", "ticket_outbox_order"} <= indexes


@pytest.mark.postgres
def test_a_postgres_outbox_from_before_notices_is_migrated(pg_dsn: str, clock: FakeClock) -> None:
    import psycopg

    from tickets.postgres import PostgresTicketStore

    with PostgresTicketStore(pg_dsn, clock=clock) as s:
        s.open_ticket(**open_args(1))
    with psycopg.connect(pg_dsn, autocommit=True) as con:
        con.execute("ALTER TABLE ticket_outbox ALTER COLUMN ticket_id SET NOT NULL")
    with PostgresTicketStore(pg_dsn, clock=clock) as s:
        assert s.outbox.enqueue_notice(_notice()) is True
        assert len(s.outbox.messages()) == 2
    with psycopg.connect(pg_dsn, autocommit=True) as con:
        row = con.execute(
            "SELECT is_nullable FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name = 'ticket_outbox' AND column_name = 'ticket_id'"
        ).fetchone()
    assert row == ("YES",)


@pytest.mark.postgres
def test_the_amendment_cards_are_queued_once_in_postgres(tmp_path: Path, pg_dsn: str) -> None:
    """tests/kb/test_impact_cards.py's scenario with the PostgreSQL ticket store."""
    from tests.kb.test_impact_cards import ASSIGNEE, Scenario
    from tests.kb.test_impact_citations import NOW, TAX
    from tickets.postgres import PostgresTicketStore

    scenario = Scenario(tmp_path, PostgresTicketStore(pg_dsn, clock=lambda: NOW))
    w = scenario.world
    try:
        report: Any = w.amend()
        impact = report.impact
        out = scenario.record(impact)
        assert out is not None
        assert sorted((n.recipient, n.subject, n.status) for n in out.notices) == [
            (ASSIGNEE, f"ticket:{scenario.ticket}", "queued"),
            (TAX, f"faq:{scenario.faq}", "queued"),
        ]
        keys = sorted(m.key for m in scenario.notices())
        assert keys == sorted(n.key for n in out.notices)
        again = scenario.record(impact)
        assert again is not None and {n.status for n in again.notices} == {"already_queued"}
        assert sorted(m.key for m in scenario.notices()) == keys  # no duplicates
        by = {m.payload["notice"]["recipient"]: m for m in scenario.notices()}
        assert by[ASSIGNEE].ticket_id == scenario.ticket and by[TAX].ticket_id == ""
        assert (
            by[TAX].payload["card"]["body"][0]["text"]
            == f"FAQ {scenario.faq} needs review: a provision it cites changed"
        )
        assert by[TAX].payload["card"]["msteams"]["entities"][0]["mentioned"]["name"] == "Tax Analyst"
    finally:
        w.tickets.shutdown()
