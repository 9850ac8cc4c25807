"""Build and check shipped vector packs (``dasar kb export-vectors``).

A pack is rebuilt from a knowledge base that was ingested with the pack's embedder: every indexed
chunk's embedding input is recomputed (:func:`kb.ingest.embed_input`), its content key looked up in
the store's vector cache, and the result written with :func:`kb.embed.pack.write_pack`.  The same
knowledge base always gives a byte-identical file.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kb.chunking import chunk_document
from kb.embed.pack import PackHeader, VectorPack, write_pack
from kb.errors import IngestError
from kb.ingest import build_chunks, embed_input
from kb.loaders import discover, iter_loaded
from kb.store.protocol import KnowledgeStore
from kb.store.sqlite import embed_key


@dataclass(frozen=True)
class ExportReport:
    """What an export wrote, and the indexed chunks it could not cover (no cached vector)."""

    path: str
    header: PackHeader
    chunks: int
    missing: int

    def to_json(self) -> dict[str, object]:
        return {"path": self.path, **self.header.to_json(), "chunks": self.chunks, "missing": self.missing}


def export_vectors(store: KnowledgeStore, embedder_name: str, path: Path | str) -> ExportReport:
    """Write the vectors of every indexed chunk in ``store`` as a pack for ``embedder_name``."""
    keys: set[str] = set()
    chunks = 0
    for doc in store.list_documents():
        for chunk in store.chunks_of(doc.meta.id, indexed_only=True):
            keys.add(embed_key(embedder_name, embed_input(doc.meta, chunk)))
            chunks += 1
    ordered = sorted(keys)
    found: dict[str, np.ndarray] = {}
    for i in range(0, len(ordered), 500):
        found.update(store.cached_vectors(ordered[i : i + 500]))
    header = write_pack(path, embedder_name, found)
    return ExportReport(path=str(path), header=header, chunks=chunks, missing=len(keys) - len(found))


@dataclass(frozen=True)
class Coverage:
    """How many of a corpus's indexed chunks a pack already holds."""

    covered: int
    total: int
    errors: tuple[str, ...] = ()

    @property
    def ratio(self) -> float:
        return self.covered / self.total if self.total else 1.0


def pack_coverage(paths: Iterable[Path | str], pack: VectorPack) -> Coverage:
    """Chunk the documents under ``paths`` (no store, no model) and count the chunks the pack covers."""
    candidates, errors = discover([Path(p) for p in paths])
    problems = [str(e) for e in errors]
    covered = total = 0
    for item in iter_loaded(candidates):
        if isinstance(item, IngestError):
            problems.append(str(item))
            continue
        chunks, _, _ = build_chunks(item.meta, chunk_document(item.text, item.meta))
        for chunk in chunks:
            if not chunk.indexed:
                continue
            total += 1
            covered += embed_key(pack.embedder, embed_input(item.meta, chunk)) in pack
    return Coverage(covered=covered, total=total, errors=tuple(problems))
