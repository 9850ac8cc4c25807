"""Backend selection: DASAR_TICKETS_URL (PostgreSQL) for the bot, the Teams worker and `dasar tickets`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.settings import Settings, load_settings
from bot.wiring import Services
from tests.tickets.conftest import open_args
from tickets.factory import open_ticket_store
from tickets.postgres import PostgresTicketStore
from tickets.sqlite import SqliteTicketStore


def test_sqlite_file_when_no_url(tmp_path: Path) -> None:
    store = open_ticket_store(tmp_path / "sub" / "t.sqlite", None)
    assert isinstance(store, SqliteTicketStore) and (tmp_path / "sub" / "t.sqlite").exists()


def test_url_selects_postgres_everywhere_and_a_flag_wins(
    pg_dsn: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.cli import main

    monkeypatch.setenv("DASAR_TICKETS_URL", pg_dsn)
    monkeypatch.setenv("DASAR_TICKETS_DB", str(tmp_path / "never.sqlite"))
    services = Services(Settings())
    store = services.tickets
    assert isinstance(store, PostgresTicketStore)
    ticket, created = store.open_ticket(**open_args(1))
    assert created
    # the CLI reads the same PostgreSQL store
    assert main(["tickets", "list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [t["ticket_id"] for t in listed] == [ticket.id]
    assert not (tmp_path / "never.sqlite").exists()
    # an explicit SQLite file wins over the URL from the environment
    assert load_settings(tickets_db=tmp_path / "flag.sqlite").tickets_url is None
    # an empty URL (compose's ${DASAR_TICKETS_URL:-}) means unset
    monkeypatch.setenv("DASAR_TICKETS_URL", "")
    assert isinstance(Services(Settings()).tickets, SqliteTicketStore)
