"""The same store contract against a REAL PostgreSQL 16 (pgserver wheel), plus Postgres-only checks."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.tickets.conftest import FakeClock, open_args
from tests.tickets.contract import TicketStoreContract

pytestmark = pytest.mark.postgres


class TestPostgresStore(TicketStoreContract):
    @pytest.fixture
    def make_store(self, pg_dsn: str, clock: FakeClock) -> Iterator[Callable[[], Any]]:
        from tickets.postgres import PostgresTicketStore

        opened: list[PostgresTicketStore] = []

        def make() -> PostgresTicketStore:
            s = PostgresTicketStore(pg_dsn, clock=clock)
            opened.append(s)
            return s

        yield make
        for s in opened:
            s.shutdown()

    @pytest.fixture
    def store(self, make_store: Callable[[], Any]) -> Any:
        return make_store()


def test_pg_events_table_is_append_only(pg_dsn: str, clock: FakeClock) -> None:
    import psycopg

    from tickets.postgres import PostgresTicketStore

    with PostgresTicketStore(pg_dsn, clock=clock) as s:
        s.open_ticket(**open_args(1))
    with psycopg.connect(pg_dsn, autocommit=True) as con:
        with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
            con.execute("UPDATE ticket_events SET kind = 'forged'")
        with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
            con.execute("DELETE FROM ticket_events")
        assert con.execute("SELECT kind FROM ticket_events").fetchall() == [("opened",)]


def test_pg_schema_creation_is_repeatable(pg_dsn: str, clock: FakeClock) -> None:
    from tickets.postgres import PostgresTicketStore

    with PostgresTicketStore(pg_dsn, clock=clock) as s1:
        s1.open_ticket(**open_args(1))
    with PostgresTicketStore(pg_dsn, clock=clock) as s2:
        assert s2.open_ticket(**open_args(2))[0].id == "T-000002"


def test_pg_outbox_of_an_older_database_is_migrated(pg_dsn: str, clock: FakeClock) -> None:
    import psycopg

    from tickets import DeliveryUncertain
    from tickets.postgres import PostgresTicketStore

    with PostgresTicketStore(pg_dsn, clock=clock) as s:
        s.open_ticket(**open_args(1))
    with psycopg.connect(pg_dsn, autocommit=True) as con:  # the constraint as shipped before
        con.execute("ALTER TABLE ticket_outbox DROP CONSTRAINT ticket_outbox_status_check")
        con.execute(
            "ALTER TABLE ticket_outbox ADD CONSTRAINT ticket_outbox_status_check "
            "CHECK (status IN ('pending', 'delivered', 'dead'))"
        )
        with pytest.raises(psycopg.errors.CheckViolation):
            con.execute("UPDATE ticket_outbox SET status = 'uncertain'")
        con.execute("ALTER TABLE ticket_outbox DROP COLUMN redriven_at")

    def lost(m: object) -> str:
        raise DeliveryUncertain("response lost")

    with PostgresTicketStore(pg_dsn, clock=clock) as s:
        assert s.outbox.deliver_pending(lost, clock()).uncertain == ("T-000001:1:tax_team",)
    with PostgresTicketStore(pg_dsn, clock=clock) as s:
        assert s.outbox.get("T-000001:1:tax_team").status == "uncertain"
        assert s.outbox.redrive("T-000001:1:tax_team", "ops").redriven_at == clock()
        assert s.outbox.get("T-000001:1:tax_team").redriven_at == clock()


def test_pg_tickets_of_an_older_database_take_the_new_reason(pg_dsn: str, clock: FakeClock) -> None:
    import psycopg

    from tickets.postgres import PostgresTicketStore

    with PostgresTicketStore(pg_dsn, clock=clock) as s:
        first, _ = s.open_ticket(**open_args(1))
    with psycopg.connect(pg_dsn, autocommit=True) as con:  # the constraint as shipped before session 44
        con.execute("ALTER TABLE tickets DROP CONSTRAINT tickets_reason_check")
        con.execute(
            "ALTER TABLE tickets ADD CONSTRAINT tickets_reason_check CHECK (reason IN ('no_source', "
            "'low_confidence', 'out_of_scope', 'advice', 'protected_determination', 'user_request'))"
        )
        with pytest.raises(psycopg.errors.CheckViolation):
            con.execute("UPDATE tickets SET reason = 'answer_failed'")
    with PostgresTicketStore(pg_dsn, clock=clock) as s:
        assert s.get(first.id).reason == "no_source"
        failed, created = s.open_ticket(**open_args(2, reason="answer_failed"))
        assert created and failed.reason == "answer_failed"
    with PostgresTicketStore(pg_dsn, clock=clock) as s:  # opening again is a no-op
        assert s.get(failed.id).reason == "answer_failed"
