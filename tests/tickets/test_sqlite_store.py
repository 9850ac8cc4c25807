"""The store contract on the default SQLite backend, plus SQLite-only guarantees."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.tickets.conftest import FakeClock, open_args
from tests.tickets.contract import TicketStoreContract
from tickets import SqliteTicketStore, StoreError


class TestSqliteStore(TicketStoreContract):
    @pytest.fixture
    def db_path(self, tmp_path: Path) -> Path:
        return tmp_path / "tickets.db"

    @pytest.fixture
    def make_store(self, db_path: Path, clock: FakeClock) -> Iterator[Callable[[], SqliteTicketStore]]:
        opened: list[SqliteTicketStore] = []

        def make() -> SqliteTicketStore:
            s = SqliteTicketStore(db_path, clock=clock)
            opened.append(s)
            return s

        yield make
        for s in opened:
            s.shutdown()

    @pytest.fixture
    def store(self, make_store: Callable[[], SqliteTicketStore]) -> SqliteTicketStore:
        return make_store()


def test_wal_mode_and_persistence_across_instances(tmp_path: Path, clock: FakeClock) -> None:
    path = tmp_path / "t.db"
    with SqliteTicketStore(path, clock=clock) as s:
        t, _ = s.open_ticket(**open_args(1))
        s.claim(t.id, "tax-ana")
    with SqliteTicketStore(path, clock=clock) as s2:
        assert s2.get("T-000001").assignee == "tax-ana"
        assert s2.open_ticket(**open_args(2))[0].id == "T-000002"
    con = sqlite3.connect(path)
    try:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        con.close()


def test_events_table_is_append_only(tmp_path: Path, clock: FakeClock) -> None:
    path = tmp_path / "t.db"
    with SqliteTicketStore(path, clock=clock) as s:
        s.open_ticket(**open_args(1))
    con = sqlite3.connect(path)
    try:
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            con.execute("UPDATE ticket_events SET kind = 'forged'")
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            con.execute("DELETE FROM ticket_events")
        assert con.execute("SELECT kind FROM ticket_events").fetchall() == [("opened",)]
    finally:
        con.close()


def test_unopenable_path_raises_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="cannot open ticket database"):
        SqliteTicketStore(tmp_path / "missing-dir" / "t.db")


def _old_outbox_ddl() -> str:
    """``ticket_outbox`` as shipped before messages could be 'uncertain'."""
    from tickets.sql import _outbox_ddl

    table = _outbox_ddl()[0]
    assert "'uncertain', " in table and ",\n    redriven_at     TEXT" in table
    return table.replace("'uncertain', ", "").replace(",\n    redriven_at     TEXT", "")


def test_outbox_of_an_older_database_is_migrated(tmp_path: Path, clock: FakeClock) -> None:
    from tickets import DeliveryUncertain
    from tickets.sql import _OLD_OUTBOX_COLUMNS

    db = tmp_path / "old.db"
    with SqliteTicketStore(db, clock=clock) as s:
        s.open_ticket(**open_args(1))
    con = sqlite3.connect(db)  # rebuild the outbox with the old CHECK, keeping its row
    con.executescript(
        f"ALTER TABLE ticket_outbox RENAME TO o; {_old_outbox_ddl()}; "
        f"INSERT INTO ticket_outbox SELECT {_OLD_OUTBOX_COLUMNS} FROM o; DROP TABLE o;"
    )
    con.close()
    with pytest.raises(sqlite3.IntegrityError):  # the old table really refuses the new status
        c2 = sqlite3.connect(db)
        try:
            c2.execute("UPDATE ticket_outbox SET status = 'uncertain'")
            c2.commit()
        finally:
            c2.close()
    with SqliteTicketStore(db, clock=clock) as s:
        assert [m.key for m in s.outbox.messages()] == ["T-000001:1:tax_team"]  # rows kept

        def lost(m: object) -> str:
            raise DeliveryUncertain("response lost")

        assert s.outbox.deliver_pending(lost, clock()).uncertain == ("T-000001:1:tax_team",)
    with SqliteTicketStore(db, clock=clock) as s:  # opening again is a no-op
        assert s.outbox.get("T-000001:1:tax_team").status == "uncertain"
        assert s.outbox.redrive("T-000001:1:tax_team", "ops").redriven_at == clock()
        assert s.outbox.get("T-000001:1:tax_team").redriven_at == clock()


def _old_tickets_ddl() -> str:
    """``tickets`` as shipped before a failed model was a reason of its own (session 44)."""
    import re

    from tickets.sql import _tickets_ddl

    table = _tickets_ddl()[0]
    old = re.sub(r"'user_request',\s*'answer_failed'\)", "'user_request')", table)
    assert old != table and "answer_failed" not in old
    return old.replace("IF NOT EXISTS tickets (", "tickets (")


def test_tickets_of_an_older_database_take_the_new_reason(tmp_path: Path, clock: FakeClock) -> None:
    db = tmp_path / "old.db"
    with SqliteTicketStore(db, clock=clock) as s:
        first, _ = s.open_ticket(**open_args(1))
        s.claim(first.id, "tax-ana")
    con = sqlite3.connect(db)  # rebuild tickets with the old CHECK, keeping its row (events point at it)
    con.executescript(
        f"PRAGMA foreign_keys=OFF; BEGIN; {_old_tickets_ddl().replace('tickets (', 't_old (', 1)}; "
        "INSERT INTO t_old SELECT * FROM tickets; DROP TABLE tickets; ALTER TABLE t_old RENAME TO tickets; "
        "COMMIT;"
    )
    con.close()
    c2 = sqlite3.connect(db)
    try:
        with pytest.raises(sqlite3.IntegrityError):  # the old table really refuses the new reason
            c2.execute("UPDATE tickets SET reason = 'answer_failed'")
    finally:
        c2.close()
    with SqliteTicketStore(db, clock=clock) as s:
        kept = s.get(first.id)
        assert kept.assignee == "tax-ana" and kept.reason == "no_source"  # the row and its history kept
        assert [e.kind for e in s.events(first.id)] == ["opened", "claimed"]
        failed, created = s.open_ticket(**open_args(2, reason="answer_failed"))
        assert created and failed.reason == "answer_failed" and failed.id == "T-000002"
        again, created = s.open_ticket(**open_args(2, reason="answer_failed"))
        assert not created and again.id == failed.id  # the per-thread unique index was recreated
    con = sqlite3.connect(db)
    try:
        assert con.execute("PRAGMA foreign_key_check").fetchall() == []
        names = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE tbl_name = 'tickets'")}
        assert {"tickets_by_thread", "tickets_by_status", "tickets_by_requester"} <= names
    finally:
        con.close()
    with SqliteTicketStore(db, clock=clock) as s:  # opening again is a no-op
        assert s.get("T-000002").reason == "answer_failed"
