"""Errors of the chunking package (tree in ``kb/chunking/__init__.py``)."""

from __future__ import annotations


class ChunkingError(Exception):
    """Base class: a document could not be chunked."""


class UnsupportedDocumentType(ChunkingError, ValueError):
    """``DocumentMeta.type`` names no chunker."""
