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
