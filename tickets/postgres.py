"""PostgreSQL backend (psycopg 3 + psycopg_pool), sharing schema and logic with SQLite via :mod:`tickets.sql`.

Why: several bot replicas and the Teams worker need one shared, concurrent store.  Operations run in
READ COMMITTED transactions; the version compare-and-set makes a concurrent writer's ``UPDATE`` wait for
the first commit and then match 0 rows, after which the ticket is re-read and the action re-checked.
psycopg is imported lazily so ``import tickets`` never needs it (``pip install 'dasar[postgres]'``).

Degrade, don't die: connections come from a small pool (``psycopg_pool``).  Every connection is checked
when it is taken (a server restart leaves stale sockets behind: they are dropped and replaced), dead
connections are never returned to the pool, connects time out after ``connect_timeout_s`` and waiting
for a connection after ``acquire_timeout_s``.  So while PostgreSQL is down a call fails fast with
:class:`~tickets.errors.StoreError` (never a hang), and the same store object works again as soon as the
server is back -- no bot restart.  A read that loses its connection mid-flight is retried once on a fresh
connection; a write is not (it may have committed), the caller gets ``StoreError`` and may retry.
Once an outage is noticed, calls wait only ``outage_timeout_s`` (1 s) for a connection until one works.
Error messages name host, port and database, never the password.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tickets.errors import StoreError, TicketError
from tickets.outbox import OutboxPolicy
from tickets.sql import (
    Clock,
    IntegrityConflict,
    SqlTicketStore,
    Tx,
    load_schema,
    migrate_outbox,
    migrate_ticket_reasons,
    split_statements,
)

logger = logging.getLogger(__name__)

_PG_EXTRA = [
    """CREATE OR REPLACE FUNCTION ticket_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'ticket_events is append-only'; END $$""",
    """CREATE OR REPLACE TRIGGER ticket_events_append_only BEFORE UPDATE OR DELETE ON ticket_events
FOR EACH ROW EXECUTE FUNCTION ticket_events_append_only()""",
]
# Serialises concurrent schema creation by several replicas (arbitrary constant lock id).
_SCHEMA_LOCK_ID = 7_263_001

_ADVICE = "check that PostgreSQL is running and that DASAR_TICKETS_URL is right"


def _qmark_to_pyformat(sql: str) -> str:
    """Our SQL uses ``?``; psycopg wants ``%s`` (our SQL contains no literal ``%`` or ``?``)."""
    return sql.replace("?", "%s")


def describe_dsn(dsn: str) -> str:
    """``host:port/dbname`` of a libpq DSN or URI, for messages (never user or password)."""
    try:
        from psycopg.conninfo import conninfo_to_dict

        parts = conninfo_to_dict(dsn)
    except Exception:
        return "the configured PostgreSQL server"
    host = str(parts.get("host") or "localhost")
    port = str(parts.get("port") or "5432")
    db = str(parts.get("dbname") or parts.get("user") or "postgres")
    return f"{host}:{port}/{db}"


def _password(dsn: str) -> str | None:
    try:
        from psycopg.conninfo import conninfo_to_dict

        pw = conninfo_to_dict(dsn).get("password")
    except Exception:
        return None
    return str(pw) if pw else None


class PostgresTicketStore(SqlTicketStore):
    """Ticket store in PostgreSQL (schema created if missing), over a reconnecting connection pool.

    Args:
        dsn: libpq connection string or URI.
        clock: current-time source (timezone-aware).
        policy: outbox retry policy.
        pool_size: most connections held (one per concurrent caller; the bot's worker threads share them).
        connect_timeout_s: how long one connect attempt may take.
        acquire_timeout_s: how long a call waits for a usable connection before :class:`StoreError`.
        outage_timeout_s: the shorter wait used while the database is known to be down, so a turn that
            only looks a thread's ticket up is not held up for long during an outage.
    """

    def __init__(
        self,
        dsn: str,
        *,
        clock: Clock | None = None,
        policy: OutboxPolicy | None = None,
        pool_size: int = 8,
        connect_timeout_s: int = 3,
        acquire_timeout_s: float = 5.0,
        outage_timeout_s: float = 1.0,
    ) -> None:
        super().__init__(clock=clock, policy=policy)
        try:
            import psycopg
            from psycopg.rows import dict_row
            from psycopg_pool import ConnectionPool
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise StoreError(
                "PostgresTicketStore needs psycopg 3 and psycopg-pool: pip install 'dasar[postgres]'"
            ) from exc
        self._psycopg: Any = psycopg
        self._where = describe_dsn(dsn)
        self._secret = _password(dsn)
        self._acquire_timeout_s = acquire_timeout_s
        self._outage_timeout_s = min(outage_timeout_s, acquire_timeout_s)
        self._outage_since: float | None = None
        self._pool: Any = ConnectionPool(
            dsn,
            min_size=1,
            max_size=max(pool_size, 1),
            kwargs={
                "autocommit": True,
                "row_factory": dict_row,
                "connect_timeout": max(int(connect_timeout_s), 1),
                # A server that vanished without closing the socket is noticed within ~20 s.
                "keepalives": 1,
                "keepalives_idle": 10,
                "keepalives_interval": 5,
                "keepalives_count": 2,
                "application_name": "dasar-tickets",
            },
            check=ConnectionPool.check_connection,
            timeout=acquire_timeout_s,
            # The pool's background reconnect backs off without a cap, so it gives up after a few seconds;
            # the next call then starts a fresh attempt: recovery follows the first call after the outage.
            reconnect_timeout=max(2.0 * acquire_timeout_s, 5.0),
            name="dasar-tickets",
            open=False,
        )
        try:
            self._pool.open(wait=True, timeout=max(acquire_timeout_s, float(connect_timeout_s)))
            with self._pool.connection() as conn, conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK_ID,))
                for stmt in split_statements(load_schema()) + _PG_EXTRA:
                    conn.execute(stmt)
                migrate_outbox(Tx(conn.cursor(), _qmark_to_pyformat), "postgres")
                migrate_ticket_reasons(Tx(conn.cursor(), _qmark_to_pyformat), "postgres")
        except Exception as exc:
            self._pool.close(timeout=1.0)
            if isinstance(exc, TicketError):
                raise
            raise StoreError(
                f"cannot open the ticket database at {self._where}: {self._reason(exc)}; {_ADVICE}"
            ) from None
        logger.info("backend=postgres, where=%s | ticket store ready", self._where)

    def _reason(self, exc: BaseException) -> str:
        """One line about ``exc`` without the password."""
        text = " ".join(str(exc).split()) or type(exc).__name__
        if self._secret:
            text = text.replace(self._secret, "***")
        return f"{type(exc).__name__}: {text[:300]}"

    def _down(self, exc: BaseException) -> StoreError:
        if self._outage_since is None:
            self._outage_since = time.monotonic()
            logger.warning(
                "where=%s, error=%s | ticket database unreachable; retrying in the background",
                self._where,
                type(exc).__name__,
            )
        return StoreError(
            f"ticket database at {self._where} is unreachable ({self._reason(exc)}); {_ADVICE}. "
            "Answers go on; ticket actions can be retried once it is back"
        )

    def _up(self) -> None:
        if self._outage_since is not None:
            logger.warning(
                "where=%s, outage_s=%.1f | ticket database reachable again",
                self._where,
                time.monotonic() - self._outage_since,
            )
            self._outage_since = None

    @contextmanager
    def _tx(self, write: bool = True) -> Iterator[Tx]:
        from psycopg_pool import PoolTimeout

        pg = self._psycopg
        attempts = 1 if write else 2
        for attempt in range(1, attempts + 1):
            started = False
            try:
                wait = self._outage_timeout_s if self._outage_since is not None else None
                with self._pool.connection(timeout=wait) as conn:
                    self._up()
                    with conn.transaction():
                        started = True
                        yield Tx(conn.cursor(), _qmark_to_pyformat)
                return
            except PoolTimeout as exc:
                raise self._down(exc) from None
            except pg.errors.IntegrityError as exc:
                raise IntegrityConflict(f"constraint violated: {exc}") from exc
            except pg.OperationalError as exc:
                # A connection lost under a read before the body ran to completion: one fresh try.
                if attempt < attempts and not started:
                    continue
                raise self._down(exc) from None
            except pg.Error as exc:
                if isinstance(exc, TicketError):  # pragma: no cover - defensive
                    raise
                raise StoreError(
                    f"ticket database error at {self._where}: {self._reason(exc)}; retry"
                ) from None

    def shutdown(self) -> None:
        """Close the pool and its connections."""
        self._pool.close(timeout=2.0)
