"""Fixtures for tests of the served product: ``dasar serve slack|teams`` run as real processes.

A small knowledge base (the internal documents plus UU 7/2021 and UU 36/2008) is indexed once per session
with the hashing embedder (no model download, seconds), and each test starts the command line exactly as a
deployment would, configured through ``DASAR_*`` variables only, against loopback stand-ins.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.settings import REPO_ROOT, SAMPLE_DIRECTORY
from tests.tickets.conftest import pg_uri  # noqa: F401 (fixture: one PostgreSQL 16 per session, pgserver)

CORPUS = REPO_ROOT / "corpus"
SERVED_DOCS = (
    CORPUS / "internal",
    CORPUS / "regulations" / "uu-7-2021",
    CORPUS / "regulations" / "uu-36-2008",
)


def build_served_kb(path: Path) -> list[str]:
    """Ingest :data:`SERVED_DOCS` into a new knowledge base at ``path`` (hashing embedder); the ingest
    errors (empty when it worked)."""
    from bot.wiring import injection_flagger
    from kb.embed import make_embedder
    from kb.ingest import ingest_paths
    from kb.store.sqlite import SqliteStore

    embedder = make_embedder("hashing-256")
    store = SqliteStore(path, embedder_name=embedder.name)
    try:
        report = ingest_paths(SERVED_DOCS, store, embedder, flagger=injection_flagger)
    finally:
        store.close()
    return [str(e) for e in report.errors]


@pytest.fixture(scope="session")
def served_kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("served-kb") / "kb.sqlite"
    assert build_served_kb(path) == []
    return path


_served_schemas = itertools.count(1)


def fresh_pg_schema(uri: str) -> str:
    """A DSN on a new, empty schema of the session's PostgreSQL: what ``DASAR_TICKETS_URL`` of one served
    process points at (each process its own schema, so ticket numbers and contents never mix)."""
    import psycopg
    from psycopg.conninfo import make_conninfo

    name = f"served_{os.getpid()}_{next(_served_schemas)}"
    with psycopg.connect(uri, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    return make_conninfo(uri, options=f"-c search_path={name}")


def base_env(tmp_path: Path, kb: Path, **extra: str) -> dict[str, str]:
    """The process environment: nothing inherited but PATH, every setting explicit."""
    env = {
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": str(REPO_ROOT),
        "HOME": str(tmp_path),
        "DASAR_SETTINGS": str(tmp_path / "no-such.env"),
        "DASAR_HOME": str(tmp_path / "home"),
        "DASAR_KB": str(kb),
        "DASAR_EMBEDDER": "hashing-256",
        "DASAR_DIRECTORY": str(SAMPLE_DIRECTORY),
        "DASAR_TICKETS_DB": str(tmp_path / "tickets.sqlite"),
        "DASAR_AUDIT_LOG": str(tmp_path / "audit.jsonl"),
        "DASAR_FAQ_DIR": str(tmp_path / "faq"),
    }
    env.update(extra)
    return env


def slack_env(tmp_path: Path, kb: Path, slack_url: str, **extra: str) -> dict[str, str]:
    """:func:`base_env` of ``dasar serve slack`` (HTTP mode) against the stand-in Slack API ``slack_url``."""
    from tests.slack.mock_slack import SIGNING_SECRET

    return base_env(
        tmp_path,
        kb,
        DASAR_SLACK_BOT_TOKEN="xoxb-test-token",
        DASAR_SLACK_SIGNING_SECRET=SIGNING_SECRET,
        DASAR_SLACK_API_BASE_URL=slack_url,
        DASAR_SLACK_HTTP_HOST="127.0.0.1",
        **extra,
    )


def post_slack(
    port: int, body: str, *, content_type: str = "application/json", retry: int | None = None
) -> int:
    """POST a signed Slack delivery (``body`` as sent) to the served ``/slack/events``; the HTTP status."""
    import urllib.error
    import urllib.request

    from tests.slack.mock_slack import signed_headers

    req = urllib.request.Request(
        f"http://127.0.0.1:{port}/slack/events",
        data=body.encode(),
        headers=signed_headers(body, content_type=content_type, retry=retry),
        method="POST",
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return int(resp.status)
    except urllib.error.HTTPError as err:
        return int(err.code)


@contextlib.contextmanager
def served(args: list[str], env: dict[str, str], port: int, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """Run ``dasar <args>`` until its ``/healthz`` answers; stop it (this process only) afterwards."""
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [str(Path(sys.executable).parent / "dasar"), *args],
            cwd=REPO_ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.monotonic() + 240  # a cold start imports the whole stack on a busy machine
            while True:
                if proc.poll() is not None:
                    raise AssertionError(f"dasar {' '.join(args)} exited: {log.read_text()[-3000:]}")
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as resp:
                        if resp.status == 200:
                            break
                except OSError:
                    pass
                if time.monotonic() > deadline:
                    raise AssertionError(f"dasar {' '.join(args)} did not start: {log.read_text()[-3000:]}")
                time.sleep(0.1)
            yield proc
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)


@contextlib.contextmanager
def served_slack(tmp_path: Path, kb: Path, **extra: str) -> Iterator[tuple[int, Any, str]]:
    """``dasar serve slack`` (HTTP mode, log in ``tmp_path/slack.log``) with a real redis-server and the
    stand-in Slack API: ``(port, api, redis_url)``; ``extra`` adds ``DASAR_*`` settings."""
    from tests.slack.mock_slack import MockSlackApi
    from tests.support.ports import free_port
    from tests.support.redis_server import running_redis

    api = MockSlackApi(members={})
    slack_url = api.start()
    port = free_port()
    try:
        with running_redis() as redis_url:
            env = slack_env(tmp_path, kb, slack_url, DASAR_REDIS_URL=redis_url, **extra)
            with served(["serve", "slack", "--port", str(port)], env, port, tmp_path / "slack.log"):
                yield port, api, redis_url
    finally:
        api.stop()
