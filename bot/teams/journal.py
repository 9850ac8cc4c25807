"""Delivery journal: remembers what was already posted for an outbox key, across crashes.

Why: the Bot Connector (and Slack's ``chat.postMessage``) has no client-side idempotency key, so the
outbox's at-least-once redelivery would post a second card after a crash between the POST and
``mark_delivered``.  The sender writes the returned activity id here IMMEDIATELY after the POST (a local
SQLite commit, microseconds) and checks it before every post: a redelivered ``post_card`` whose key is
journalled updates the existing card instead of posting another.

Residual window (documented, not hidden): a process death between receiving the HTTP response and this
commit still yields a duplicate post.  ``begin`` records the attempt first, so such keys are visible
(``uncertain()``) for an operator; the duplicate card's buttons still act on the same ticket, and the
next card update goes to the journalled card.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
import threading
from pathlib import Path

from bot.teams.errors import TeamsConfigError

_SCHEMA = """
CREATE TABLE IF NOT EXISTS delivery_journal (
    msg_key TEXT PRIMARY KEY,
    state TEXT NOT NULL CHECK (state IN ('sending', 'sent')),
    external_ref TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    updated_at TEXT NOT NULL
);
"""


def _now_text() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class DeliveryJournal:
    """SQLite-backed ``outbox key -> external ref`` map (one file; safe across threads and processes)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(
                self.path, timeout=10.0, isolation_level=None, check_same_thread=False
            )
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=FULL")  # the whole point is surviving a crash
            self._conn.executescript(_SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise TeamsConfigError(
                f"cannot open delivery journal {self.path}: {exc}; set DASAR_TEAMS_JOURNAL_DB "
                "to a writable path"
            ) from exc

    def ref(self, key: str) -> str | None:
        """External ref recorded for ``key`` (None when never sent or the send is uncertain)."""
        with self._lock:
            row = self._conn.execute(
                "SELECT external_ref FROM delivery_journal WHERE msg_key = ? AND state = 'sent'", (key,)
            ).fetchone()
        return row[0] if row else None

    def begin(self, key: str) -> None:
        """Record that a send of ``key`` is about to happen (counts attempts)."""
        with self._lock:
            self._conn.execute(
                "INSERT INTO delivery_journal (msg_key, state, attempts, updated_at) "
                "VALUES (?, 'sending', 1, ?) ON CONFLICT(msg_key) DO UPDATE SET attempts = attempts + 1, "
                "updated_at = excluded.updated_at WHERE state = 'sending'",
                (key, _now_text()),
            )

    def record(self, key: str, external_ref: str) -> None:
        """Record the external ref returned by the remote service for ``key``."""
        with self._lock:
            self._conn.execute(
                "INSERT INTO delivery_journal (msg_key, state, external_ref, attempts, updated_at) "
                "VALUES (?, 'sent', ?, 1, ?) ON CONFLICT(msg_key) DO UPDATE SET state = 'sent', "
                "external_ref = excluded.external_ref, updated_at = excluded.updated_at",
                (key, external_ref, _now_text()),
            )

    def state(self, key: str) -> str | None:
        """``sending`` (an attempt began and never finished), ``sent``, or None (never attempted)."""
        with self._lock:
            row = self._conn.execute(
                "SELECT state FROM delivery_journal WHERE msg_key = ?", (key,)
            ).fetchone()
        return str(row[0]) if row else None

    def abandon(self, key: str) -> None:
        """Forget an attempt the remote side definitely refused (an error response came back)."""
        with self._lock:
            self._conn.execute("DELETE FROM delivery_journal WHERE msg_key = ? AND state = 'sending'", (key,))

    def uncertain(self) -> list[str]:
        """Keys whose send started but whose result was never recorded (possible duplicates)."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT msg_key FROM delivery_journal WHERE state = 'sending' ORDER BY msg_key"
            )
            return [r[0] for r in rows.fetchall()]

    def close(self) -> None:
        with self._lock:
            self._conn.close()
