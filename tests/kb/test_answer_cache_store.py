"""The knowledge stores' answer-cache tables, in SQLite and a REAL PostgreSQL: unpinned entries outlive a
change of the corpus version, purge by document deletes exactly the entries indexed under it, a stale entry
is dropped by key, and the per-document index exists (also in an SQLite file made before it did)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kb.embed.hashing import HashingEmbedder
from kb.ingest import ingest_paths
from kb.store.protocol import KnowledgeStore
from kb.store.sqlite import SqliteStore
from tests.kb.store_contract import write_policy
from tests.kb.test_postgres_store import _fresh_dsn, pg_server  # noqa: F401 (fixture)

EMBEDDER = HashingEmbedder()


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    if request.param == "sqlite":
        s: Any = SqliteStore(tmp_path / "kb.sqlite", embedder_name=EMBEDDER.name)
    else:
        from kb.store.postgres import PostgresStore

        s = PostgresStore(_fresh_dsn(request.getfixturevalue("pg_server")), embedder_name=EMBEDDER.name)
    yield s
    s.close()


def test_unpinned_entries_outlive_the_corpus_version_and_purge_by_document(
    store: KnowledgeStore, tmp_path: Path
) -> None:
    store.cache_answer("k-ab", ["doc-a", "doc-b"], '{"n": 1}', pinned=False)
    store.cache_answer("k-b", ["doc-b"], '{"n": 2}', pinned=False)
    store.cache_answer("k-c", ["doc-c"], '{"n": 3}', pinned=False)
    store.cache_answer("k-pinned", ["doc-c"], '{"n": 4}')
    assert store.cached_answer_count() == 4

    assert ingest_paths([write_policy(tmp_path / "in").parent], store, EMBEDDER).added == ["contract-policy"]
    # the corpus version moved: the pinned entry is no longer served, the unpinned ones are
    assert store.cached_answer("k-pinned") is None
    assert [store.cached_answer(k) for k in ("k-ab", "k-b", "k-c")] == ['{"n": 1}', '{"n": 2}', '{"n": 3}']

    assert store.purge_cached_answers(["doc-b", "doc-unknown"]) == 2
    assert store.cached_answer("k-ab") is None and store.cached_answer("k-b") is None
    assert store.cached_answer("k-c") == '{"n": 3}'
    assert store.purge_cached_answers(["doc-b"]) == 0  # the index rows went with the entries
    assert store.purge_cached_answers([]) == 0

    assert store.drop_cached_answer("k-c") is True
    assert store.drop_cached_answer("k-c") is False
    assert store.cached_answer_count() == 1
    assert store.purge_cached_answers() == 1 and store.cached_answer_count() == 0


def test_rewriting_a_document_drops_only_its_unpinned_entries(store: KnowledgeStore, tmp_path: Path) -> None:
    path = write_policy(tmp_path / "in")
    ingest_paths([path.parent], store, EMBEDDER)
    store.cache_answer("k-policy", ["contract-policy"], "p", pinned=False)
    store.cache_answer("k-other", ["some-other-doc"], "o", pinned=False)
    path.write_text(path.read_text(encoding="utf-8") + "\nTambahan paragraf.\n", encoding="utf-8")
    assert ingest_paths([path.parent], store, EMBEDDER).updated == ["contract-policy"]
    assert store.cached_answer("k-policy") is None
    assert store.cached_answer("k-other") == "o"


def test_sqlite_files_made_before_the_document_index_get_it(tmp_path: Path) -> None:
    path = tmp_path / "kb.sqlite"
    SqliteStore(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute("DROP INDEX answer_cache_docs_doc")
    SqliteStore(path).close()
    with sqlite3.connect(path) as conn:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='index'")}
        plan = " ".join(
            str(r[-1])
            for r in conn.execute("EXPLAIN QUERY PLAN SELECT key FROM answer_cache_docs WHERE doc_id='x'")
        )
    assert "answer_cache_docs_doc" in names
    assert "answer_cache_docs_doc" in plan
