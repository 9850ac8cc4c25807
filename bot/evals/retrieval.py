"""``dasar eval retrieval``: recall@k, MRR@10 and context precision per retrieval mode.

Modes compared side by side on the repository's question set (``eval/retrieval.yaml``):
hybrid, BM25-only, dense-only, deterministic (no vectors) and a naive baseline that ignores
structure (fixed ~500-token windows of each document, dense only, no amendment awareness).
A result counts as relevant when it lies in a gold location (document + Pasal [+ ayat], or an
internal document's section); for the naive windows, when the window overlaps a gold chunk's text.
The outside check runs the same modes on the facqa_id Indonesian QA set (valid split).
"""

from __future__ import annotations

import datetime as dt
import json
import statistics
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from kb.model import Chunk, DocumentMeta
from kb.store.protocol import KnowledgeStore, SearchFilter, StoredDocument
from kb.store.sqlite import SqliteStore, embed_key

NAIVE_WINDOW_CHARS = 1800  # ~500 e5 tokens of Indonesian legal text


@dataclass(frozen=True)
class Gold:
    doc_id: str
    pasal: str | None = None
    ayat: str | None = None
    section: str | None = None


@dataclass(frozen=True)
class Question:
    id: str
    question: str
    gold: tuple[Gold, ...]
    as_of: dt.date | None
    user: str | None
    lang: str


def load_questions(path: Path) -> list[Question]:
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    items = raw.get("questions", raw) if isinstance(raw, dict) else raw
    out = []
    for i, item in enumerate(items):
        try:
            gold = tuple(
                Gold(str(g["doc_id"]), _s(g.get("pasal")), _s(g.get("ayat")), _s(g.get("section")))
                for g in item["gold"]
            )
            as_of = item.get("as_of")
            out.append(
                Question(
                    str(item["id"]),
                    str(item["question"]),
                    gold,
                    as_of
                    if isinstance(as_of, dt.date)
                    else (dt.date.fromisoformat(as_of) if as_of else None),
                    item.get("user"),
                    item.get("lang", "id"),
                )
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{path}: question #{i + 1} is malformed ({exc})") from None
    return out


def _s(v: Any) -> str | None:
    return None if v is None else str(v)


def is_relevant(chunk: Chunk, gold: Sequence[Gold]) -> bool:
    for g in gold:
        if chunk.doc_id != g.doc_id:
            continue
        if g.section is not None:
            if (
                chunk.section and g.section.lower() in chunk.section.lower()
            ) or g.section.lower() in chunk.location.lower():
                return True
            continue
        if g.pasal is None:
            return True
        if chunk.pasal == g.pasal and (g.ayat is None or chunk.ayat in (None, g.ayat)):
            return True
    return False


def _metrics(ranked: list[list[bool]], k: int) -> dict[str, float]:
    n = len(ranked) or 1
    recall = sum(1 for r in ranked if any(r[:k])) / n
    mrr = 0.0
    for r in ranked:
        for i, rel in enumerate(r[:10]):
            if rel:
                mrr += 1.0 / (i + 1)
                break
    precision = sum((sum(r[:k]) / len(r[:k])) if r[:k] else 0.0 for r in ranked) / n
    return {
        "recall@k": round(recall, 3),
        "mrr@10": round(mrr / n, 3),
        "context_precision@k": round(precision, 3),
    }


def run_retrieval_eval(
    services: Any,
    set_path: Path,
    *,
    modes: Sequence[str],
    include_naive: bool = True,
    facqa: Path | None = None,
    k: int = 5,
    facqa_limit: int = 200,
    console: Any | None = None,
    split: str = "all",
) -> dict[str, Any]:
    """Every mode on the set (``split`` "tune" / "check" keeps one half, :mod:`bot.evals.split`)."""
    from bot.evals.split import id_side, keep
    from bot.wiring import search_filter

    questions = [q for q in load_questions(set_path) if keep(id_side(q.id), split)]
    retriever = services.retriever
    principals = {q.user: services.cli_principal(q.user) for q in questions}
    today = dt.date.today()
    report: dict[str, Any] = {
        "set": str(set_path),
        "split": split,
        "questions": len(questions),
        "k": k,
        "modes": {},
    }
    per_question: dict[str, dict[str, int | None]] = {q.id: {} for q in questions}
    for mode in modes:
        ranked, latencies = [], []
        for q in questions:
            flt = search_filter(principals[q.user], q.as_of or today)
            t0 = time.perf_counter()
            res = retriever.search(q.question, flt, mode=mode, top_k=10)
            latencies.append((time.perf_counter() - t0) * 1000)
            rels = [is_relevant(h.chunk, q.gold) for h in res.results]
            ranked.append(rels)
            per_question[q.id][mode] = next((i + 1 for i, r in enumerate(rels) if r), None)
        report["modes"][mode] = {
            **_metrics(ranked, k),
            "latency_ms_p50": round(statistics.median(latencies), 1),
        }
    if include_naive and services.embedder is not None:
        report["modes"]["naive-window-dense"] = _naive_baseline(
            services, questions, principals, k, per_question
        )
    report["per_question"] = per_question
    if facqa is not None:
        report["facqa_id"] = run_facqa(
            services.embedder, services.aliases, facqa, modes=modes, k=k, limit=facqa_limit
        )
    if console is not None:
        _print(console, report)
    return report


def _naive_baseline(
    services: Any,
    questions: list[Question],
    principals: dict[str | None, Any],
    k: int,
    per_question: dict[str, dict[str, int | None]],
) -> dict[str, float]:
    """Fixed windows over each document's full text, dense only, document-level access only."""
    store: KnowledgeStore = services.store
    embedder = services.embedder
    windows: list[tuple[str, int, int]] = []
    texts: dict[str, str] = {}
    for d in store.list_documents():
        if d.quarantine_reason:
            continue
        text = store.document_text(d.meta.id)
        texts[d.meta.id] = text
        for start in range(0, len(text), NAIVE_WINDOW_CHARS):
            windows.append((d.meta.id, start, min(len(text), start + NAIVE_WINDOW_CHARS)))
    keys = [embed_key(embedder.name, "naive\n" + texts[w[0]][w[1] : w[2]]) for w in windows]
    cached = store.cached_vectors(sorted(set(keys)))
    missing = sorted({key: i for i, key in enumerate(keys) if key not in cached}.items())
    for i in range(0, len(missing), 32):
        batch = missing[i : i + 32]
        vecs = embedder.embed_passages(
            [texts[windows[j][0]][windows[j][1] : windows[j][2]] for _, j in batch]
        )
        fresh = {key: v for (key, _), v in zip(batch, vecs, strict=True)}
        store.put_vectors(fresh)
        cached.update(fresh)
    mat = np.stack([cached[key] for key in keys]) if keys else np.zeros((0, embedder.dim), dtype=np.float32)
    gold_spans: dict[str, list[tuple[str, int, int]]] = {}
    ranked = []
    today = dt.date.today()
    for q in questions:
        spans = []
        for g in q.gold:
            for c in store.chunks_of(g.doc_id, indexed_only=True):
                if is_relevant(c, (g,)):
                    pos = texts.get(g.doc_id, "").find(c.text)
                    if pos >= 0:
                        spans.append((g.doc_id, pos, pos + len(c.text)))
        gold_spans[q.id] = spans
        flt = SearchFilter(groups=frozenset(principals[q.user].groups), as_of=q.as_of or today)
        allowed = store.visible_documents(flt)
        scores = mat @ embedder.embed_query(q.question)
        order = sorted(
            (i for i in range(len(windows)) if windows[i][0] in allowed), key=lambda i: (-float(scores[i]), i)
        )[:10]
        rels = [
            any(
                w_doc == s_doc and windows[i][1] < s_end and s_start < windows[i][2]
                for s_doc, s_start, s_end in spans
                for w_doc in (windows[i][0],)
            )
            for i in order
        ]
        ranked.append(rels)
        per_question[q.id]["naive-window-dense"] = next((i + 1 for i, r in enumerate(rels) if r), None)
    return {**_metrics(ranked, k), "windows": len(windows)}


def run_facqa(
    embedder: Any, aliases: Any, folder: Path, *, modes: Sequence[str], k: int, limit: int
) -> dict[str, Any]:
    """Outside check: Indonesian factoid QA over news passages (no structure, no references)."""
    from kb.retrieve import RetrievalConfig, Retriever

    passages = [
        json.loads(line)
        for line in (folder / "corpus.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    queries = [
        json.loads(line)
        for line in (folder / "queries.valid.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ][:limit]
    tmp = tempfile.TemporaryDirectory(prefix="dasar-facqa-")
    try:
        store = SqliteStore(
            Path(tmp.name) / "facqa.sqlite", embedder_name=embedder.name if embedder else None
        )
        meta = DocumentMeta(
            id="facqa",
            title="facqa_id passages",
            number="FACQA",
            type="faq",
            owner="eval",
            access=("everyone",),
        )
        chunks = [
            Chunk(
                id=p["_id"],
                doc_id="facqa",
                key=p["_id"],
                kind="section",
                location=p["_id"],
                text=p["text"],
                prefix="",
                parent_id=None,
                pasal=None,
                ayat=None,
                huruf=None,
                provision=None,
                valid_from=None,
                valid_to=None,
                is_example=False,
                seq=i,
            )
            for i, p in enumerate(passages)
        ]
        vectors: dict[str, np.ndarray] = {}
        if embedder is not None:
            for i in range(0, len(chunks), 64):
                batch = chunks[i : i + 64]
                for c, v in zip(batch, embedder.embed_passages([f"\n{c.text}" for c in batch]), strict=True):
                    vectors[c.id] = v
        stored = StoredDocument(meta, "facqa", 1, str(folder), "", None, None, len(chunks))
        store.write_document(stored, "", b"", "corpus.jsonl", chunks, [], vectors)
        retriever = Retriever(store, embedder, aliases=aliases, config=RetrievalConfig(per_doc=10))
        flt = SearchFilter(groups=frozenset({"everyone"}), as_of=dt.date.today())
        out: dict[str, Any] = {"queries": len(queries), "passages": len(passages), "modes": {}}
        for mode in modes:
            if mode in ("hybrid", "dense") and embedder is None:
                continue
            ranked = []
            for q in queries:
                res = retriever.search(q["text"], flt, mode=mode, top_k=10)  # type: ignore[arg-type]
                ranked.append([h.chunk.id == q["gold_passage_id"] for h in res.results])
            out["modes"][mode] = _metrics(ranked, k)
        store.close()
        return out
    finally:
        tmp.cleanup()


def _print(console: Any, report: dict[str, Any]) -> None:
    from rich.table import Table

    k = report["k"]
    table = Table(
        title=f"Retrieval on {report['set']} ({report.get('split', 'all')}, {report['questions']} questions)"
    )
    for col in ("mode", f"recall@{k}", "MRR@10", f"context precision@{k}", "p50 ms"):
        table.add_column(col)
    for mode, m in report["modes"].items():
        table.add_row(
            mode,
            f"{m['recall@k']:.3f}",
            f"{m['mrr@10']:.3f}",
            f"{m['context_precision@k']:.3f}",
            str(m.get("latency_ms_p50", "")),
        )
    console.print(table)
    base = report["modes"].get("naive-window-dense")
    hybrid = report["modes"].get("hybrid")
    if base and hybrid and base["recall@k"]:
        console.print(f"hybrid / naive recall@{k} ratio: {hybrid['recall@k'] / base['recall@k']:.2f}")
    if "facqa_id" in report:
        f = report["facqa_id"]
        t = Table(title=f"Outside check: facqa_id valid ({f['queries']} queries, {f['passages']} passages)")
        for col in ("mode", f"recall@{k}", "MRR@10"):
            t.add_column(col)
        for mode, m in f["modes"].items():
            t.add_row(mode, f"{m['recall@k']:.3f}", f"{m['mrr@10']:.3f}")
        console.print(t)
