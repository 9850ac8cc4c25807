"""PostgreSQL backend (psycopg 3), sharing schema and logic with SQLite through :mod:`tickets.sql`.

Why: several bot replicas and the Teams worker need one shared, concurrent store.  Operations run in
READ COMMITTED transactions; the version compare-and-set makes a concurrent writer's ``UPDATE`` wait for
the first commit and then match 0 rows, after which the ticket is re-read and the action re-checked.
psycopg is imported lazily so ``import tickets`` never needs it (``pip install 'dasar[postgres]'``).

One connection per store instance, serialised by a lock; use one instance per worker thread (or add a
pool) for parallelism.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tickets.errors import StoreError, TicketError
from tickets.outbox import OutboxPolicy
from tickets.sql import Clock, IntegrityConflict, SqlTicketStore, Tx, load_schema, split_statements

logger = logging.getLogger(__name__)

_PG_EXTRA = [
    """CREATE OR REPLACE FUNCTION ticket_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'ticket_events is append-only'; END $$""",
    """CREATE OR REPLACE TRIGGER ticket_events_append_only BEFORE UPDATE OR DELETE ON ticket_events
FOR EACH ROW EXECUTE FUNCTION ticket_events_append_only()""",
]
# Serialises concurrent schema creation by several replicas (arbitrary constant lock id).
_SCHEMA_LOCK_ID = 7_263_001


def _qmark_to_pyformat(sql: str) -> str:
    """Our SQL uses ``?``; psycopg wants ``%s`` (our SQL contains no literal ``%`` or ``?``)."""
    return sql.replace("?", "%s")


class PostgresTicketStore(SqlTicketStore):
    """Ticket store in PostgreSQL (schema created if missing).

    Args:
        dsn: libpq connection string or URI.
        clock: current-time source (timezone-aware).
        policy: outbox retry policy.
    """

    def __init__(self, dsn: str, *, clock: Clock | None = None, policy: OutboxPolicy | None = None) -> None:
        super().__init__(clock=clock, policy=policy)
        try:
            import psycopg
            from psycopg.rows import dict_row
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise StoreError("PostgresTicketStore needs psycopg 3: pip install 'dasar[postgres]'") from exc
        self._psycopg: Any = psycopg
        self._lock = threading.RLock()
        try:
            self._conn = psycopg.connect(dsn, autocommit=True, row_factory=dict_row, connect_timeout=10)
            with self._conn.transaction():
                self._conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK_ID,))
                for stmt in split_statements(load_schema()) + _PG_EXTRA:
                    self._conn.execute(stmt)
        except psycopg.Error as exc:
            raise StoreError(f"cannot open ticket database: {type(exc).__name__}: {exc}") from exc
        logger.info("backend=postgres | ticket store ready")

    @contextmanager
    def _tx(self, write: bool = True) -> Iterator[Tx]:
        pg = self._psycopg
        with self._lock:
            try:
                with self._conn.transaction():
                    yield Tx(self._conn.cursor(), _qmark_to_pyformat)
            except pg.errors.IntegrityError as exc:
                raise IntegrityConflict(f"constraint violated: {exc}") from exc
            except pg.Error as exc:
                if isinstance(exc, TicketError):  # pragma: no cover - defensive
                    raise
                raise StoreError(f"ticket database error: {type(exc).__name__}: {exc}; retry") from exc

    def shutdown(self) -> None:
        """Close the connection."""
        with self._lock:
            self._conn.close()
