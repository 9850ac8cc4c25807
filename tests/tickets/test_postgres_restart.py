"""PostgreSQL restarts under a live store: calls fail fast during the outage and work again afterwards.

A dedicated pgserver instance (not the session one shared by the contract tests) is stopped and started
with ``pg_ctl`` on its data directory while ONE PostgresTicketStore object stays open.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.tickets.conftest import FakeClock, open_args, pgserver_in_tempdir, thread
from tickets import StoreError

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg_server() -> Iterator[Any]:
    pytest.importorskip("pgserver")
    pytest.importorskip("psycopg_pool")
    with pgserver_in_tempdir("dasar-pg-restart-", "delete", _ensure_running) as srv:
        yield srv


def _ensure_running(srv: Any) -> None:
    """Start the server again if a test left it stopped (cleanup stops and deletes it)."""
    if not _running(srv):
        _start(srv)


def _running(srv: Any) -> bool:
    return (Path(srv.pgdata) / "postmaster.pid").exists()


def _stop(srv: Any) -> None:
    from pgserver._commands import pg_ctl

    pg_ctl(["-w", "-m", "fast", "stop"], pgdata=srv.pgdata, user=srv.system_user, timeout=30)


def _start(srv: Any) -> None:
    # `pg_ctl start` with the options pgserver used (socket dir, no TCP), read back from postmaster.opts.
    from pgserver._commands import pg_ctl
    from pgserver.postgres_server import ensure_prefix_permissions

    if srv.system_user is not None:
        ensure_prefix_permissions(Path(srv.pgdata))
    socket_dir = srv.get_postmaster_info().socket_dir
    pg_ctl(
        ["-w", "-o", '-h ""', "-o", f"-k {socket_dir}", "-l", str(srv.log), "start"],
        pgdata=srv.pgdata,
        user=srv.system_user,
        timeout=30,
    )


def test_same_store_survives_a_postgres_restart(
    pg_server: Any, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    from tickets.postgres import PostgresTicketStore

    store = PostgresTicketStore(pg_server.get_uri(), clock=clock, connect_timeout_s=2, acquire_timeout_s=2.0)
    try:
        t, created = store.open_ticket(**open_args(1))
        assert created and t.id == "T-000001"
        assert store.find_by_thread(thread(1)) is not None

        _stop(pg_server)
        assert not _running(pg_server)
        caplog.set_level(logging.WARNING, logger="tickets.postgres")
        started = time.monotonic()
        with pytest.raises(StoreError, match=r"ticket database at .* is unreachable") as down:
            store.find_by_thread(thread(1))
        outage_call_s = time.monotonic() - started
        assert outage_call_s < 6.0, f"a call during the outage took {outage_call_s:.1f}s"
        assert "DASAR_TICKETS_URL" in str(down.value)
        with pytest.raises(StoreError, match="unreachable"):
            store.open_ticket(**open_args(2))
        assert "ticket database unreachable" in caplog.text
        # A longer outage (past the pool's own reconnect back-off): every call still fails fast.
        # Once the outage is known, each call waits only outage_timeout_s (1 s) before failing.
        deadline = time.monotonic() + 12.0
        later_calls: list[float] = []
        while time.monotonic() < deadline:
            t_call = time.monotonic()
            with pytest.raises(StoreError, match="unreachable"):
                store.get("T-000001")
            later_calls.append(time.monotonic() - t_call)
        with pytest.raises(StoreError, match="unreachable"):
            store.ping()
        assert max(later_calls) < 2.0, later_calls

        _start(pg_server)
        started = time.monotonic()
        found = None
        attempts = 0
        while time.monotonic() - started < 30:
            try:
                found = store.find_by_thread(thread(1))
                break
            except StoreError:
                attempts += 1
                time.sleep(0.2)
        recovered_s = time.monotonic() - started
        assert found is not None and found.id == "T-000001", "the store never recovered after restart"
        # Writes work again on the same object, and nothing written before the restart was lost.
        t2, created2 = store.open_ticket(**open_args(2))
        assert created2 and t2.id == "T-000002"
        assert [x.id for x in store.list()] == ["T-000001", "T-000002"]
        assert "ticket database reachable again" in caplog.text
        store.ping()
        print(
            f"first outage call failed after {outage_call_s:.2f}s, later ones after at most "
            f"{max(later_calls):.2f}s ({len(later_calls)} calls); first success {recovered_s:.2f}s after "
            f"restart ({attempts} failed calls after pg_ctl start returned)"
        )
    finally:
        store.shutdown()


def test_error_messages_never_carry_the_password(clock: FakeClock) -> None:
    pytest.importorskip("psycopg_pool")
    from tickets.postgres import PostgresTicketStore

    dsn = "postgresql://dasar:s3cr3t-Pa55@127.0.0.1:1/tickets?connect_timeout=1"
    started = time.monotonic()
    with pytest.raises(StoreError) as err:
        PostgresTicketStore(dsn, clock=clock, connect_timeout_s=1, acquire_timeout_s=1.0)
    assert time.monotonic() - started < 5.0
    msg = str(err.value)
    assert "s3cr3t-Pa55" not in msg
    assert "cannot open the ticket database at 127.0.0.1:1/tickets" in msg
    assert "DASAR_TICKETS_URL" in msg
