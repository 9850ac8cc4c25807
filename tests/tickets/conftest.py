"""Fixtures shared by the ticket tests: a controllable clock, sample records, a real PostgreSQL."""

from __future__ import annotations

import datetime as dt
import itertools
import shutil
import tempfile
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tickets import Evidence, Requester, ThreadRef

T0 = dt.datetime(2025, 3, 3, 8, 0, 0, tzinfo=dt.UTC)


class FakeClock:
    """Deterministic clock: starts at ``T0`` and moves only when told."""

    def __init__(self, start: dt.datetime = T0) -> None:
        self.now = start

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **kw: float) -> dt.datetime:
        self.now = self.now + dt.timedelta(**kw)
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def thread(n: int = 1) -> ThreadRef:
    return ThreadRef("slack", "T01", "C-tax", f"1700000000.{n:06d}")


def requester(n: int = 1) -> Requester:
    return Requester(f"p-{n}", "slack", "T01", f"U{n:03d}", f"user{n}@example.co.id", f"User {n}")


def evidence(*claims: str) -> Evidence:
    return Evidence.of(
        claims=[{"text": c} for c in claims],
        citations=[{"doc_id": "pmk-168-2023", "location": "Pasal 5 ayat (1)", "quote": "Penghasilan ..."}],
        candidates=[{"chunk_id": "pmk-168-2023#p5", "score": 0.41}],
    )


def open_args(
    n: int = 1, reason: str = "no_source", topic: str | None = "PPh 21 bonus", **over: Any
) -> dict[str, Any]:
    args: dict[str, Any] = {
        "thread": thread(n),
        "requester": requester(n),
        "question_masked": f"Apakah bonus [PERSON_{n}] kena PPh 21?",
        "facts": ("employee resident", "bonus paid in March"),
        "evidence": evidence("bonus is income"),
        "gap": "no rule on TER for irregular bonus",
        "reason": reason,
        "topic": topic,
    }
    args.update(over)
    return args


_schema_ids = itertools.count(1)


@contextmanager
def pgserver_in_tempdir(
    prefix: str, cleanup_mode: str, before_cleanup: Callable[[Any], None] | None = None
) -> Iterator[Any]:
    """A real PostgreSQL 16 from the pgserver wheel, its data in a fresh temporary directory.

    The data directory is NOT under pytest's basetemp: as root, pgserver runs the server as its own
    system user, and any other pytest run on this machine resets /tmp/pytest-of-<user> to mode 0700,
    which locks that user out mid-session.  ``before_cleanup(server)`` runs before the server is cleaned up.
    """
    pgserver = pytest.importorskip("pgserver")
    data = Path(tempfile.mkdtemp(prefix=prefix))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns when XDG_RUNTIME_DIR is unset
        srv = pgserver.get_server(str(data), cleanup_mode=cleanup_mode)
    try:
        yield srv
    finally:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if before_cleanup is not None:
                before_cleanup(srv)
            srv.cleanup()
        shutil.rmtree(data, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_uri() -> Iterator[str]:
    """URI of a real PostgreSQL 16 started from the pgserver wheel (once per session)."""
    pytest.importorskip("pgserver")
    pytest.importorskip("psycopg")
    with pgserver_in_tempdir("dasar-pg-", "stop") as srv:
        yield srv.get_uri()


@pytest.fixture
def pg_dsn(pg_uri: str) -> str:
    """A DSN pointing at a fresh, empty schema (cheaper than a database per test)."""
    import psycopg
    from psycopg.conninfo import make_conninfo

    name = f"t_{next(_schema_ids)}"
    with psycopg.connect(pg_uri, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    return make_conninfo(pg_uri, options=f"-c search_path={name}")
