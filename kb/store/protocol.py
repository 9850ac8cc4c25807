"""Capability protocols of a knowledge-base store.

Small interfaces rather than one fat one: the retriever needs keyword and vector search over a
filtered candidate set, ingest needs to write a document atomically, the CLI needs to list and
remove.  :class:`KnowledgeStore` is their union plus the bookkeeping (meta, caches, corpus version)
the rest of dasar calls: code outside ``kb/store`` is typed against it, never against a backend.
The embedded default is ``kb.store.sqlite.SqliteStore``; ``kb.store.postgres.PostgresStore``
(PostgreSQL + pgvector) implements the same semantics; ``kb.store.factory.open_store`` picks one.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from kb.model import Chunk, DocumentMeta, Edge
from kb.scope import Narrowing, ReaderScope


@dataclass(frozen=True)
class SearchFilter:
    """What a caller may see, applied inside the store before any similarity is computed.

    Built from a :class:`kb.scope.ReaderScope` (access: groups, entities, date) and a
    :class:`kb.scope.Narrowing` (tax types, language, jurisdiction, documents) with :meth:`of`.  A document
    is visible when its access groups meet ``groups`` and, with ``enforce_entities``, when it names no
    entity or one of ``entities`` (entities are access).  Only the narrowing may be relaxed.

    Constructing the dataclass directly (``enforce_entities=False``) keeps the older meaning in which
    ``entities`` narrows only when non-empty; readers' searches go through :meth:`of`.
    """

    groups: frozenset[str]
    as_of: dt.date
    jurisdiction: str | None = None
    entities: frozenset[str] = frozenset()
    tax_types: frozenset[str] = frozenset()
    language: str | None = None
    doc_ids: frozenset[str] = frozenset()
    enforce_entities: bool = False

    @classmethod
    def of(
        cls, scope: ReaderScope, narrowing: Narrowing | None = None, *, as_of: dt.date | None = None
    ) -> SearchFilter:
        """The filter for ``scope`` (its date unless ``as_of`` is given) narrowed by ``narrowing``."""
        when = as_of or scope.as_of
        if when is None:
            raise ValueError("a search needs a date: give the scope an as_of or pass as_of")
        narrow = narrowing or Narrowing()
        return cls(
            groups=scope.groups,
            as_of=when,
            jurisdiction=narrow.jurisdiction,
            entities=scope.entities,
            tax_types=narrow.tax_types,
            language=narrow.language,
            doc_ids=narrow.doc_ids,
            enforce_entities=True,
        )

    @property
    def scope(self) -> ReaderScope:
        return ReaderScope(self.groups, self.entities, self.as_of)

    @property
    def narrowing(self) -> Narrowing:
        return Narrowing(self.tax_types, self.language, self.jurisdiction, self.doc_ids)

    def relaxed(self) -> SearchFilter:
        """The same access (groups, entities, date), without the optional narrowing."""
        return dataclasses.replace(
            self, jurisdiction=None, tax_types=frozenset(), language=None, doc_ids=frozenset()
        )


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


def corpus_version_of(documents: Iterable[tuple[str, str, str]]) -> str:
    """The corpus version from ``(id, content_hash, chunker_version)`` of every document, ids in byte order.

    One definition for every backend: the same corpus has the same version wherever it is stored, and
    cached answers are keyed by it.  The chunker version is part of it: re-chunked text cites other
    locations, so answers must not repeat.
    """
    h = hashlib.sha256()
    for doc_id, content_hash, chunker_version in documents:
        h.update(f"{doc_id}={content_hash}/{chunker_version};".encode())
    return h.hexdigest()[:16]


class DocumentWriter(Protocol):
    def write_document(
        self,
        doc: StoredDocument,
        text: str,
        original: bytes,
        original_name: str,
        chunks: Sequence[Chunk],
        edges: Sequence[Edge],
        vectors: dict[str, np.ndarray],
    ) -> None:
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

    def edges_to(self, ids: Sequence[str], kinds: Sequence[str]) -> list[Edge]:
        """Edges of ``kinds`` that point at ``ids`` (the passages that refer to them), by dst, kind, src."""
        ...


class KnowledgeStore(DocumentWriter, KeywordSearcher, VectorSearcher, ChunkReader, Protocol):
    """Everything dasar outside ``kb/store`` uses of a knowledge-base store.

    Why one protocol on top of the small ones: ingest, linking, the CLI and the bot hold one store and
    call most of it; typing them against this (not a backend class) is what lets configuration pick
    SQLite or PostgreSQL.  Semantics every backend keeps (the contract tests check them): filtering
    happens inside the store before any score is computed; ``write_document`` and ``replace_derived``
    are one transaction each; ``corpus_version`` hashes ``id=content_hash/chunker_version;`` of every
    document in byte order of id, so the same corpus has the same version in every backend; a cached
    answer stored ``pinned`` is returned only while the corpus version it was stored under is current, an
    unpinned one until it is purged or a document it is indexed under is rewritten or removed.
    """

    @property
    def path(self) -> Path | str:
        """Where the knowledge base lives, for messages (a file, or a URL without its password)."""
        ...

    def close(self) -> None: ...

    # --- meta ----------------------------------------------------------------------------------

    def get_meta(self, key: str) -> str | None: ...

    def set_meta(self, key: str, value: str) -> None: ...

    # --- documents -----------------------------------------------------------------------------

    def document_by_number(self, number: str) -> StoredDocument | None: ...

    def list_documents(self) -> list[StoredDocument]:
        """Every stored document (quarantined ones too), ordered by id."""
        ...

    def document_text(self, doc_id: str) -> str:
        """Text of the latest version; raises ``NotFoundError`` for an unknown id."""
        ...

    def versions(self, doc_id: str) -> list[dict[str, Any]]:
        """``version_no, content_hash, ingested_at, original_name, size`` per stored version, oldest first."""
        ...

    def write_document(
        self,
        doc: StoredDocument,
        text: str,
        original: bytes,
        original_name: str,
        chunks: Sequence[Chunk],
        edges: Sequence[Edge],
        vectors: dict[str, np.ndarray],
        payloads: dict[str, str] | None = None,
    ) -> None:
        """Replace the document and everything derived from it, in one transaction."""
        ...

    # --- chunks, edges and corpus-wide derived state -------------------------------------------

    def chunks_of(self, doc_id: str, *, indexed_only: bool = False) -> list[Chunk]: ...

    def iter_parse_payloads(self) -> Iterator[tuple[Chunk, dict[str, Any]]]:
        """Every chunk with the parser's payload (definitions, references, amendments), by doc and seq."""
        ...

    def replace_derived(
        self,
        windows: Iterable[tuple[str, str | None, dt.date | None, dt.date | None]],
        edges: Iterable[Edge],
        doc_effective_to: dict[str, dt.date | None],
    ) -> None:
        """Store the corpus-wide derived state (validity windows, cross-document edges) atomically."""
        ...

    # --- corpus version and cached answers -----------------------------------------------------

    def corpus_version(self) -> str: ...

    def cache_answer(self, key: str, doc_ids: Iterable[str], payload: str, *, pinned: bool = True) -> None:
        """Store ``payload`` under ``key``, indexed under ``doc_ids``; ``pinned``: served only while the
        corpus version stays the current one."""
        ...

    def cached_answer(self, key: str) -> str | None: ...

    def cached_answer_count(self) -> int: ...

    def purge_cached_answers(self, doc_ids: Iterable[str] | None = None) -> int:
        """Delete the cached answers indexed under any of ``doc_ids`` (every one when None); the count."""
        ...

    def drop_cached_answer(self, key: str) -> bool:
        """Delete one cached answer (found stale on read); True when it existed."""
        ...

    # --- embeddings cache ----------------------------------------------------------------------

    def cached_vectors(self, keys: Sequence[str]) -> dict[str, np.ndarray]: ...

    def put_vectors(self, items: dict[str, np.ndarray]) -> None: ...

    # --- visibility ----------------------------------------------------------------------------

    def visible_chunk_ids(self, flt: SearchFilter, chunk_ids: Sequence[str] | None = None) -> set[str]: ...

    def routed_chunk_ids(
        self,
        flt: SearchFilter,
        *,
        provisions: Sequence[str] = (),
        doc_pasal: Sequence[tuple[str, str | None, str | None]] = (),
        limit: int = 50,
    ) -> list[str]: ...

    def visible_documents(self, flt: SearchFilter) -> set[str]: ...

    def stats(self) -> dict[str, int]: ...
