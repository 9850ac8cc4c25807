"""A sample-corpus index built with the hashing embedder (fast, no model) for behaviour tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def hashing_services(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """Services over the bundled corpus indexed with ``HashingEmbedder``, deterministic retrieval."""
    from bot.settings import Settings
    from bot.wiring import Services, injection_flagger
    from kb.embed.hashing import HashingEmbedder
    from kb.ingest import ingest_paths
    from kb.store.sqlite import SqliteStore

    path = tmp_path_factory.mktemp("hashing-kb") / "kb.sqlite"
    embedder = HashingEmbedder()
    store = SqliteStore(path, embedder_name=embedder.name)
    report = ingest_paths([ROOT / "corpus"], store, embedder, flagger=injection_flagger)
    assert [str(e) for e in report.errors] == []
    store.close()
    svc = Services(
        Settings(
            kb=path,
            directory=ROOT / "corpus" / "directory.yaml",
            tickets_db=path.parent / "tickets.sqlite",
            embedder=embedder.name,
            retrieval_mode="deterministic",
        )
    )
    yield svc
    svc.store.close()
