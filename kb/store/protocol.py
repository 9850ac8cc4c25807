"""Capability protocols of a knowledge-base store.

Small interfaces rather than one fat one: the retriever needs keyword and vector search over a
filtered candidate set, ingest needs to write a document atomically, the CLI needs to list and
remove.  The embedded default is ``kb.store.sqlite.SqliteStore``; a PostgreSQL + pgvector store
implements the same protocols.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from kb.model import Chunk, DocumentMeta, Edge


@dataclass(frozen=True)
class SearchFilter:
    """What a caller may see, applied inside the store before any similarity is computed.

    ``groups`` is the principal's access groups (a document is visible when its access groups
    intersect them); ``as_of`` the transaction date.  The optional filters narrow further; they are
    the only ones a corrective retry may relax.
    """

    groups: frozenset[str]
    as_of: dt.date
    jurisdiction: str | None = None
    entities: frozenset[str] = frozenset()
    tax_types: frozenset[str] = frozenset()
    language: str | None = None
    doc_ids: frozenset[str] = frozenset()

    def relaxed(self) -> SearchFilter:
        """The same access and date, without the optional narrowing filters."""
        return SearchFilter(groups=self.groups, as_of=self.as_of)


@dataclass(frozen=True)
class StoredDocument:
    meta: DocumentMeta
    content_hash: str
    version_no: int
    source_path: str
    ingested_at: str
    quarantine_reason: str | None
    effective_to: dt.date | None  # derived: explicit effective_to or the revoking document's start
    chunk_count: int
    injection_flags: tuple[str, ...] = field(default=())
    chunker_version: str = ""  # kb.chunking.CHUNKER_VERSION that produced the stored chunks


class DocumentWriter(Protocol):
    def write_document(self, doc: StoredDocument, text: str, original: bytes, original_name: str,
                       chunks: Sequence[Chunk], edges: Sequence[Edge], vectors: dict[str, np.ndarray]) -> None:
        """Replace the document and everything derived from it, in one transaction."""
        ...

    def remove_document(self, doc_id: str) -> int:
        """Purge the document, its chunks, vectors, edges and cached answers; return chunks removed."""
        ...


class KeywordSearcher(Protocol):
    def keyword_search(self, match: str, flt: SearchFilter, limit: int) -> list[tuple[str, float]]:
        """(chunk id, score higher-is-better) for chunks visible under ``flt``."""
        ...


class VectorSearcher(Protocol):
    def vector_search(self, query: np.ndarray, flt: SearchFilter, limit: int) -> list[tuple[str, float]]:
        """(chunk id, cosine) for chunks visible under ``flt``."""
        ...


class ChunkReader(Protocol):
    def get_chunks(self, ids: Sequence[str]) -> dict[str, Chunk]: ...

    def get_document(self, doc_id: str) -> StoredDocument | None: ...

    def edges_from(self, ids: Sequence[str], kinds: Sequence[str]) -> list[Edge]: ...
