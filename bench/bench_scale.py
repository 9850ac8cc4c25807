"""Scale benchmark: ingest throughput and query p95 at 100k (and, opt-in, 1M) synthetic chunks,
PostgreSQL + pgvector (a real server from the pgserver wheel) next to SQLite.

Run: ``python bench/bench_scale.py [--sizes 100000[,1000000]] [--queries 200] [--json]``

* Corpus: synthetic internal policies (100 sections = 100 chunks each) written as markdown with front
  matter; 80% readable by everyone, 20% by the tax team only, three validity periods, so every search
  runs through a real filter.  Words come from a fixed vocabulary (seeded): BM25 and the hashing
  vectors have something to find.
* Ingest: the real pipeline (``kb.ingest.ingest_paths``: load, chunk, embed with the hashing embedder,
  one transaction per document, relink) into a fresh SQLite file and a fresh PostgreSQL schema;
  throughput in chunks/s over wall time.  PostgreSQL's HNSW index is built afterwards and timed alone.
* Queries: ``vector_search`` at depth 50 and 500 (the retriever's ``rank_depth``), ``keyword_search`` at
  depth 500 and the whole ``Retriever.search`` (hybrid), each p50/p95 over the same queries for an
  everyone reader on one date.  PostgreSQL vector search runs twice: exact (index ignored) and through
  the HNSW index (filter first, exact re-rank), with recall@10 of the ANN path against the exact one.
* Ratios: PostgreSQL / SQLite per figure (> 1 means PostgreSQL is slower).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_kb import pct  # noqa: E402
from kb.embed.hashing import HashingEmbedder  # noqa: E402
from kb.ingest import ingest_paths  # noqa: E402
from kb.retrieve import Retriever  # noqa: E402
from kb.store.protocol import KnowledgeStore, SearchFilter  # noqa: E402
from kb.store.sqlite import SqliteStore  # noqa: E402

SECTIONS_PER_DOC = 100
WORDS_PER_SECTION = (35, 70)
EMBEDDER = HashingEmbedder(256)
AS_OF = dt.date(2024, 6, 1)
EVERYONE = SearchFilter(groups=frozenset({"everyone"}), as_of=AS_OF)

_SYLLABLES = [c + v for c in "bdklmnprst" for v in "aeiou"]
_TAX_WORDS = ["pajak", "pph", "ppn", "tarif", "vendor", "faktur", "bruto", "potong", "setor", "lapor", "npwp"]


def vocabulary(rng: random.Random, size: int = 4000) -> list[str]:
    words = set(_TAX_WORDS)
    while len(words) < size:
        words.add("".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4))))
    return sorted(words)


def write_corpus(folder: Path, chunks: int, seed: int = 7) -> tuple[list[Path], list[str]]:
    """Synthetic policies totalling ``chunks`` sections; returns their paths and sample queries."""
    rng = random.Random(seed)
    vocab = vocabulary(rng)
    folder.mkdir(parents=True, exist_ok=True)
    paths: list[Path] = []
    queries: list[str] = []
    docs = max(1, chunks // SECTIONS_PER_DOC)
    periods = [("2015-01-01", None), ("2020-01-01", None), ("2010-01-01", "2019-12-31")]
    for d in range(docs):
        access = "[tax-team]" if d % 5 == 4 else "[everyone]"
        start, end = periods[d % 3]
        front = [
            "---",
            f"id: syn-{d:06d}",
            f"title: Kebijakan Sintetis {d}",
            f"number: SYN-{d:06d}",
            "type: policy",
            "language: id",
            f"effective_from: {start}",
            *([f"effective_to: {end}"] if end else []),
            "status: in_force",
            "owner: tax.lead@example.co.id",
            "approved_by: cfo@example.co.id",
            f"access: {access}",
            "---",
            f"# Kebijakan Sintetis {d}",
        ]
        body: list[str] = []
        for s in range(SECTIONS_PER_DOC):
            words = [rng.choice(vocab) for _ in range(rng.randint(*WORDS_PER_SECTION))]
            body += ["", f"## Bagian {s} {words[0]}", " ".join(words) + "."]
            if len(queries) < 2000 and rng.random() < 0.02:
                queries.append(" ".join(rng.sample(words, 4)))
        path = folder / f"syn-{d:06d}.md"
        path.write_text("\n".join(front + body) + "\n", encoding="utf-8")
        paths.append(path)
    return paths, queries


def timed(fn: Callable[[], Any], runs: int) -> dict[str, float]:
    times: list[float] = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return {"p50_ms": round(statistics.median(times), 2), "p95_ms": round(pct(times, 95), 2)}


def query_figures(store: KnowledgeStore, queries: list[str], *, label: str) -> dict[str, Any]:
    from kb.query import fts_query, understand

    vecs = [EMBEDDER.embed_query(q) for q in queries]
    matches = [fts_query(understand(q)) for q in queries]
    retriever = Retriever(store, EMBEDDER)
    it_v = iter(range(10**9))

    def cycle(seq: list[Any]) -> Callable[[], Any]:
        return lambda: seq[next(it_v) % len(seq)]

    vec_at = cycle(vecs)
    match_at = cycle(matches)
    q_at = cycle(queries)
    out = {
        "vector@50": timed(lambda: store.vector_search(vec_at(), EVERYONE, 50), len(queries)),
        "vector@500": timed(lambda: store.vector_search(vec_at(), EVERYONE, 500), len(queries)),
        "keyword@500": timed(lambda: store.keyword_search(match_at(), EVERYONE, 500), len(queries)),
        "retriever": timed(lambda: retriever.search(q_at(), EVERYONE), max(20, len(queries) // 4)),
    }
    print(f"    {label}: " + ", ".join(f"{k} p95 {v['p95_ms']} ms" for k, v in out.items()), flush=True)
    return out


class TimedMemoEmbedder:
    """The hashing embedder with its time measured and its vectors remembered by text.

    The first backend pays the hashing; the second gets the same vectors from memory, so the two ingest
    figures compare the pipelines (chunking, writing, relinking) and the embedding is reported once.
    """

    def __init__(self, inner: HashingEmbedder) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.memo: dict[str, np.ndarray] = {}
        self.seconds = 0.0
        self.embedded = 0

    def embed_query(self, text: str) -> np.ndarray:
        return self.inner.embed_query(text)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        t = time.perf_counter()
        todo = [x for x in dict.fromkeys(texts) if x not in self.memo]
        if todo:
            self.memo.update(zip(todo, self.inner.embed_passages(todo), strict=True))
            self.embedded += len(todo)
        out = np.stack([self.memo[x] for x in texts]) if texts else self.inner.embed_passages([])
        self.seconds += time.perf_counter() - t
        return out


def ingest(
    paths: list[Path], store: KnowledgeStore, label: str, embedder: TimedMemoEmbedder
) -> dict[str, Any]:
    before_s, before_n = embedder.seconds, embedder.embedded
    t = time.perf_counter()
    report = ingest_paths(paths, store, embedder)
    secs = time.perf_counter() - t
    chunks = store.stats()["chunks"]
    if report.errors:
        raise SystemExit(f"{label}: ingest errors: {[str(e) for e in report.errors[:3]]}")
    embed_s = embedder.seconds - before_s
    hashed = embedder.embedded - before_n
    figures: dict[str, Any] = {
        "seconds": round(secs, 1),
        "chunks": chunks,
        "chunks_per_s": round(chunks / secs, 1),
        "embed_seconds": round(embed_s, 1),
        "hashed_texts": hashed,
        "pipeline_chunks_per_s": round(chunks / max(secs - embed_s, 1e-9), 1),
    }
    if hashed:
        figures["hashing_chunks_per_s"] = round(hashed / max(embed_s, 1e-9), 1)
    print(
        f"    {label} ingest: {chunks} chunks in {secs:.1f} s = {figures['chunks_per_s']} chunks/s "
        f"(embedding {embed_s:.1f} s for {hashed} new texts; without it {figures['pipeline_chunks_per_s']} "
        "chunks/s)",
        flush=True,
    )
    return figures


def start_postgres(base: Path) -> tuple[Any, str]:
    import pgserver
    import psycopg

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        srv = pgserver.get_server(str(base / "pg"), cleanup_mode="stop")
    uri = srv.get_uri()
    with psycopg.connect(uri, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector SCHEMA public")
    return srv, uri


def fresh_schema(uri: str, name: str) -> str:
    import psycopg
    from psycopg.conninfo import make_conninfo

    with psycopg.connect(uri, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")
        conn.execute(f"CREATE SCHEMA {name}")
    return make_conninfo(uri, options=f"-c search_path={name},public")


def recall_at_10(store: Any, queries: list[str]) -> float:
    hits = total = 0
    for q in queries[:50]:
        vec = EMBEDDER.embed_query(q)
        exact = [cid for cid, _ in store._exact_search(vec, EVERYONE, 10)]
        ann = [cid for cid, _ in store.vector_search(vec, EVERYONE, 10)]
        hits += len(set(exact) & set(ann))
        total += len(exact)
    return round(hits / total, 4) if total else 1.0


def run_size(n: int, base: Path, uri: str | None, queries_n: int) -> dict[str, Any]:
    print(f"== {n} chunks", flush=True)
    work = base / f"n{n}"
    t = time.perf_counter()
    paths, queries = write_corpus(work / "corpus", n)
    queries = (queries * (queries_n // max(1, len(queries)) + 1))[:queries_n]
    print(f"    corpus: {len(paths)} documents written in {time.perf_counter() - t:.1f} s", flush=True)
    result: dict[str, Any] = {"chunks_target": n, "documents": len(paths), "queries": len(queries)}

    embedder = TimedMemoEmbedder(EMBEDDER)
    sqlite = SqliteStore(work / "kb.sqlite", embedder_name=EMBEDDER.name)
    result["sqlite"] = {"ingest": ingest(paths, sqlite, "sqlite", embedder)}
    result["sqlite"]["query"] = query_figures(sqlite, queries, label="sqlite")
    sqlite.close()

    if uri is not None:
        from kb.store.postgres import PostgresStore

        pg = PostgresStore(fresh_schema(uri, f"bench_{n}"), embedder_name=EMBEDDER.name, ann_build_min=0)
        pg_fig: dict[str, Any] = {"ingest": ingest(paths, pg, "postgres", embedder)}
        pg.ann_threshold = 10**12  # exact first
        pg_fig["query_exact"] = query_figures(pg, queries, label="postgres exact")
        t = time.perf_counter()
        pg.ensure_ann_index(build_memory="512MB" if n <= 200_000 else "3GB")
        pg_fig["hnsw_build_s"] = round(time.perf_counter() - t, 1)
        print(f"    postgres HNSW index built in {pg_fig['hnsw_build_s']} s", flush=True)
        pg._q("ANALYZE kb_chunks")
        pg.ann_threshold = 20_000
        pg_fig["query_ann"] = query_figures(pg, queries, label="postgres hnsw")
        pg_fig["ann_recall@10"] = recall_at_10(pg, queries)
        print(f"    postgres hnsw recall@10 vs exact: {pg_fig['ann_recall@10']}", flush=True)
        pg.close()
        result["postgres"] = pg_fig
        s_pipe = result["sqlite"]["ingest"]["pipeline_chunks_per_s"]
        ratios: dict[str, float] = {
            "ingest pipeline chunks/s pg/sqlite": round(pg_fig["ingest"]["pipeline_chunks_per_s"] / s_pipe, 2)
        }
        for mode in ("query_exact", "query_ann"):
            for k, v in pg_fig[mode].items():
                ratios[f"{mode}.{k}.p95 pg/sqlite"] = round(
                    v["p95_ms"] / max(result["sqlite"]["query"][k]["p95_ms"], 1e-6), 2
                )
        result["ratios"] = ratios
        for k, v in ratios.items():
            print(f"    ratio {k}: {v}", flush=True)
    shutil.rmtree(work / "corpus", ignore_errors=True)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--sizes", default="100000", help="comma-separated chunk counts (1000000 is opt-in)")
    parser.add_argument("--queries", type=int, default=200, help="queries per figure")
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    parser.add_argument("--workdir", type=Path, help="where to build (default: a temporary folder)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON at the end")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    base = args.workdir or Path(tempfile.mkdtemp(prefix="dasar-bench-scale-"))
    base.mkdir(parents=True, exist_ok=True)
    srv = None
    uri = None
    if not args.no_postgres:
        srv, uri = start_postgres(base)
    results = []
    try:
        for n in sizes:
            results.append(run_size(n, base, uri, args.queries))
    finally:
        if srv is not None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                srv.cleanup()
        if args.workdir is None:
            shutil.rmtree(base, ignore_errors=True)
    if args.json:
        print(
            json.dumps({"embedder": EMBEDDER.name, "as_of": AS_OF.isoformat(), "results": results}, indent=2)
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
