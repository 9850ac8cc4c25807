"""The knowledge-store contract on the embedded SQLite backend."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kb.ingest import ingest_paths
from kb.store.sqlite import SqliteStore
from tests.kb.store_contract import EMBEDDER, KnowledgeStoreContract, copy_corpus


class TestSqliteKnowledgeStore(KnowledgeStoreContract):
    @pytest.fixture(scope="class")
    def corpus_store(self, tmp_path_factory: pytest.TempPathFactory) -> Iterator[SqliteStore]:
        tmp = tmp_path_factory.mktemp("kb-contract-sqlite")
        store = SqliteStore(tmp / "kb.sqlite", embedder_name=EMBEDDER.name)
        report = ingest_paths(copy_corpus(tmp / "corpus"), store, EMBEDDER)
        assert report.ok, report.to_json()["errors"]
        yield store
        store.close()

    @pytest.fixture
    def make_store(self, tmp_path: Path) -> Iterator[Callable[[], SqliteStore]]:
        opened: list[SqliteStore] = []

        def make() -> SqliteStore:
            store = SqliteStore(tmp_path / f"kb-{len(opened)}.sqlite", embedder_name=EMBEDDER.name)
            opened.append(store)
            return store

        yield make
        for store in opened:
            store.close()
