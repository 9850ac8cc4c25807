"""Default embedded backend: one SQLite file in WAL mode.

Why SQLite: zero setup for a single bot process or a pilot, yet real transactions.  Each operation runs in
``BEGIN IMMEDIATE`` (takes the write lock up front, so two processes never interleave a read-check-write);
the version compare-and-set from :mod:`tickets.sql` stays the source of truth.  Several store instances
(threads, processes) may share one file; writers wait up to ``busy_timeout_s``.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

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
)

logger = logging.getLogger(__name__)

_SQLITE_EXTRA = """
CREATE TRIGGER IF NOT EXISTS ticket_events_no_update BEFORE UPDATE ON ticket_events
BEGIN SELECT RAISE(ABORT, 'ticket_events is append-only'); END;
CREATE TRIGGER IF NOT EXISTS ticket_events_no_delete BEFORE DELETE ON ticket_events
BEGIN SELECT RAISE(ABORT, 'ticket_events is append-only'); END;
"""


class SqliteTicketStore(SqlTicketStore):
    """Ticket store in a SQLite file (created with its schema on first use).

    Args:
        path: database file (``":memory:"`` works for one instance, without cross-instance sharing).
        clock: current-time source (timezone-aware).
        policy: outbox retry policy.
        busy_timeout_s: how long a writer waits for another writer's lock before :class:`StoreError`.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        clock: Clock | None = None,
        policy: OutboxPolicy | None = None,
        busy_timeout_s: float = 10.0,
    ) -> None:
        super().__init__(clock=clock, policy=policy)
        self.path = str(path)
        self._lock = threading.RLock()
        try:
            self._conn = sqlite3.connect(
                self.path, timeout=busy_timeout_s, isolation_level=None, check_same_thread=False
            )
            self._conn.row_factory = sqlite3.Row
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute("PRAGMA foreign_keys=ON")
            self._conn.executescript(
                "BEGIN IMMEDIATE;\n" + load_schema() + "\n" + _SQLITE_EXTRA + "\nCOMMIT;"
            )
            # an older table is rebuilt with its rows (SQLite alters no CHECK): foreign keys are off for that
            # transaction, as SQLite's procedure for such changes requires, and checked before the commit
            self._conn.execute("PRAGMA foreign_keys=OFF")
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                migrate_outbox(Tx(self._conn.cursor()), "sqlite")
                migrate_ticket_reasons(Tx(self._conn.cursor()), "sqlite")
            except BaseException:
                self._conn.rollback()
                raise
            else:
                self._conn.commit()
            finally:
                self._conn.execute("PRAGMA foreign_keys=ON")
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open ticket database {self.path}: {exc}") from exc
        logger.info("backend=sqlite | ticket store ready")

    @contextmanager
    def _tx(self, write: bool = True) -> Iterator[Tx]:
        with self._lock:
            try:
                self._conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            except sqlite3.Error as exc:
                raise StoreError(f"ticket database {self.path} is busy or unavailable: {exc}; retry") from exc
            try:
                yield Tx(self._conn.cursor())
            except BaseException as exc:
                self._conn.rollback()
                if isinstance(exc, sqlite3.IntegrityError):
                    raise IntegrityConflict(f"constraint violated: {exc}") from exc
                if isinstance(exc, sqlite3.Error) and not isinstance(exc, TicketError):
                    raise StoreError(f"ticket database error: {exc}") from exc
                raise
            else:
                try:
                    self._conn.commit()
                except sqlite3.Error as exc:
                    self._conn.rollback()
                    raise StoreError(f"could not commit to {self.path}: {exc}; retry") from exc

    def shutdown(self) -> None:
        """Close the connection (the store must not be used afterwards)."""
        with self._lock:
            self._conn.close()
