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
