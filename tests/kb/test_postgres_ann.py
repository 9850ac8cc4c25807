"""The pgvector HNSW index of the PostgreSQL store keeps filtering first (real PostgreSQL, pgserver wheel).

A few thousand synthetic chunks in documents of different access groups and validity: with the index
built and a low ``ann_threshold``, vector search must return exactly what the exact search returns, never
a chunk the filter hides, and fall back to the exact search when the filter leaves few candidates.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from kb.model import Chunk, DocumentMeta
from kb.store.protocol import SearchFilter, StoredDocument
from tests.kb.test_postgres_store import _fresh_dsn, pg_server  # noqa: F401 - the module's server fixture

pytestmark = pytest.mark.postgres

DIM = 64
PER_DOC = 1000
EVERYONE = frozenset({"everyone"})
TAX_TEAM = frozenset({"everyone", "tax-team"})
DOCS: tuple[tuple[str, tuple[str, ...], dt.date | None], ...] = (
    ("pub-a", ("everyone",), None),
    ("pub-b", ("everyone",), None),
    ("secret", ("tax-team",), None),
    ("old", ("everyone",), dt.date(2020, 1, 1)),  # revoked before the query date
)


def _unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def _write(store: Any, rng: np.random.Generator) -> dict[str, np.ndarray]:
    centres = _unit(rng.normal(size=(20, DIM)))
    vectors: dict[str, np.ndarray] = {}
    for doc_id, access, effective_to in DOCS:
        meta = DocumentMeta(
            id=doc_id,
            title=f"Synthetic {doc_id}",
            number=f"SYN-{doc_id}",
            type="policy",
            effective_from=dt.date(2010, 1, 1),
            effective_to=effective_to,
            access=access,
            owner="owner@example.co.id",
        )
        chunks, vecs = [], {}
        noisy = _unit(centres[rng.integers(0, 20, PER_DOC)] + 0.35 * rng.normal(size=(PER_DOC, DIM)))
        for i in range(PER_DOC):
            cid = f"{doc_id}#s-{i}"
            chunks.append(
                Chunk(
                    cid,
                    doc_id,
                    f"s-{i}",
                    "section",
                    f"Bagian {i}",
                    f"teks {i}",
                    "",
                    None,
                    None,
                    None,
                    None,
                    None,
                    None,
                    None,
                    False,
                    i,
                    section="Isi",
                )
            )
            vecs[cid] = noisy[i]
        doc = StoredDocument(
            meta, f"hash-{doc_id}", 1, f"{doc_id}.md", "2026-01-01T00:00:00Z", None, effective_to, PER_DOC
        )
        store.write_document(doc, "teks", b"teks", f"{doc_id}.md", chunks, [], vecs)
        vectors.update(vecs)
    return vectors


@pytest.fixture(scope="module")
def ann(pg_server: str) -> Iterator[tuple[Any, dict[str, np.ndarray]]]:  # noqa: F811 - fixture by name
    from kb.store.postgres import PostgresStore

    store = PostgresStore(
        _fresh_dsn(pg_server), embedder_name=f"synthetic-{DIM}", ann_threshold=500, ann_build_min=0
    )
    vectors = _write(store, np.random.default_rng(7))
    assert store.ensure_ann_index() is True
    yield store, vectors
    store.close()


def _flt(groups: frozenset[str] = EVERYONE, **kw: Any) -> SearchFilter:
    return SearchFilter(groups=groups, as_of=dt.date(2024, 6, 1), **kw)


def test_the_hnsw_index_exists_and_the_planner_uses_it(ann: tuple[Any, dict[str, np.ndarray]]) -> None:
    store, vectors = ann
    assert store._ann_index_dim() == DIM
    where, params = store._visible_sql(_flt())
    q = vectors["pub-a#s-1"]
    with store.transaction() as conn:
        conn.execute("SET LOCAL enable_seqscan = off")
        conn.execute("SET LOCAL hnsw.ef_search = 400")
        sql = "EXPLAIN " + store._ann_sql(where, DIM)
        plan = "\n".join(r["QUERY PLAN"] for r in conn.execute(sql, [q, 400, q, *params, 10]))
    assert f"kb_chunks_hnsw_{DIM}" in plan


def test_ann_results_equal_exact_search_and_respect_access(
    ann: tuple[Any, dict[str, np.ndarray]], monkeypatch: pytest.MonkeyPatch
) -> None:
    store, vectors = ann
    exact_calls: list[int] = []
    exact = store._exact_search

    def spy(vec: np.ndarray, flt: SearchFilter, limit: int) -> list[tuple[str, float]]:
        exact_calls.append(limit)
        return exact(vec, flt, limit)

    rng = np.random.default_rng(11)
    queries = [vectors[f"secret#s-{i}"] for i in (3, 77, 512)] + [vectors["pub-b#s-9"]]
    queries += list(_unit(rng.normal(size=(4, DIM))))
    for groups in (EVERYONE, TAX_TEAM):
        for q in queries:
            monkeypatch.setattr(store, "_exact_search", spy)
            got = store.vector_search(q, _flt(groups), 10)
            monkeypatch.setattr(store, "_exact_search", exact)
            want = exact(q, _flt(groups), 10)
            assert [cid for cid, _ in got] == [cid for cid, _ in want]
            np.testing.assert_allclose([s for _, s in got], [s for _, s in want], rtol=1e-6)
            docs = {cid.split("#")[0] for cid, _ in got}
            assert "old" not in docs  # revoked before the date: never a candidate
            if groups == EVERYONE:
                assert "secret" not in docs  # access filtered before ranking
    assert exact_calls == []  # every search above went through the index
    # a query sitting on a secret chunk: the tax team gets it first, everyone else never
    q = vectors["secret#s-3"]
    assert store.vector_search(q, _flt(TAX_TEAM), 1)[0][0] == "secret#s-3"
    assert store.vector_search(q, _flt(EVERYONE), 1)[0][0] != "secret#s-3"


def test_small_filtered_sets_are_searched_exactly(
    ann: tuple[Any, dict[str, np.ndarray]], monkeypatch: pytest.MonkeyPatch
) -> None:
    store, vectors = ann
    calls: list[int] = []
    exact = store._exact_search
    monkeypatch.setattr(store, "_exact_search", lambda v, f, n: calls.append(n) or exact(v, f, n))
    # a single document of the tax team: 1000 candidates > 500, through the index
    only_secret = _flt(TAX_TEAM, doc_ids=frozenset({"secret"}))
    got = store.vector_search(vectors["pub-a#s-5"], only_secret, 5)
    assert {cid.split("#")[0] for cid in (c for c, _ in got)} == {"secret"} and calls == []
    assert got == exact(vectors["pub-a#s-5"], only_secret, 5)
    # everyone narrowed to the secret document: no candidate, searched exactly, and nothing leaks
    assert store.vector_search(vectors["secret#s-3"], _flt(doc_ids=frozenset({"secret"})), 5) == []
    assert calls == [5]
    # a large limit on a narrow set: exact search answers
    store.ann_threshold = 1500
    try:
        got = store.vector_search(vectors["pub-a#s-5"], _flt(doc_ids=frozenset({"pub-a"})), 20)
    finally:
        store.ann_threshold = 500
    assert calls == [5, 20] and len(got) == 20 and all(c.startswith("pub-a#") for c, _ in got)
