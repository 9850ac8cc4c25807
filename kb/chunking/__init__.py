"""Structure-aware chunking: ``chunk_document(text, meta) -> list[ParsedChunk]``.

Dispatches on ``meta.type``: regulations (UU, PP, PMK, PER, SE, KEP) go to the regulation
chunker (Pasal / ayat / huruf, Penjelasan, amendments), internal documents (memo, policy,
procedure, faq) to the Markdown chunker.  Both are pure and deterministic, and every chunk's
``text`` is the exact slice ``text[start:end]`` so quotes can be verified against the source.

Errors::

    ChunkingError
    └── UnsupportedDocumentType   meta.type is neither a regulation nor an internal type
"""

from __future__ import annotations

from kb.chunking.errors import ChunkingError, UnsupportedDocumentType
from kb.chunking.internal import INTERNAL_TYPES, chunk_internal
from kb.chunking.regulation import chunk_regulation
from kb.model import REGULATION_TYPES, DocumentMeta, ParsedChunk

#: Bumped whenever the chunkers cut or mark the same text differently, or the loader hands them another text
#: for the same source (12: page furniture removed, kb.pages; 13: an annex part is an example by its lettered
#: section, textspan.AnnexSections; 14: a running head OCR ran into a line before a Pasal or Ayat heading
#: goes, kb.pages; 15: an elucidation's Pasal heading whose full stop OCR lost, regulation._PEN_PASAL_LOOSE;
#: 16: an annex title run into the elucidation's last line, regulation._LAMPIRAN; 17: a watermark or running
#: head before an ayat heading or a list item starts that heading's line, kb.pages, and a huruf "l." read as
#: "1." after a closed huruf k is huruf l, lists.find_items; 18: an annex of rate tables is chunked table by
#: table in whole rows, regulation._rate_tables).
#: A stored document whose chunks were made by another version is re-derived on the next ingest even though
#: its content hash is unchanged, so an upgrade never leaves a knowledge base with stale structure (same
#: version number: the source did not change).
CHUNKER_VERSION = "19"

__all__ = [
    "CHUNKER_VERSION",
    "ChunkingError",
    "UnsupportedDocumentType",
    "chunk_document",
    "chunk_internal",
    "chunk_regulation",
]


def chunk_document(text: str, meta: DocumentMeta) -> list[ParsedChunk]:
    """Chunk one document body in document order.

    Raises:
        UnsupportedDocumentType: ``meta.type`` has no chunker.
    """
    if meta.type in REGULATION_TYPES:
        return chunk_regulation(text, meta)
    if meta.type in INTERNAL_TYPES:
        return chunk_internal(text, meta)
    raise UnsupportedDocumentType(
        f"document {meta.id!r} has type {meta.type!r}; expected one of "
        f"{sorted(REGULATION_TYPES | INTERNAL_TYPES)} (fix the type in its metadata)"
    )
