"""Errors raised by the knowledge base.

Every message names what the user must fix (file, field, id) so an operator can act on it::

    KbError
    ├── IngestError            one input file could not be ingested (carries ``path`` and ``field``)
    │   ├── MetadataError      malformed front matter / sidecar / metadata.json, unknown or missing fields
    │   ├── ExtractionError    unreadable PDF, empty text, undecodable file
    │   └── DuplicateError     an id or number already belongs to another document
    ├── NotFoundError          ``kb show`` / ``kb remove`` of an unknown document id
    ├── StoreError             the index file is missing, locked, corrupt or from a newer schema
    ├── AliasError             the alias dictionary YAML is malformed (kb.query; names file and entry)
    └── EmbedderError          the embedding model could not be loaded or failed
"""

from __future__ import annotations

from pathlib import Path


class KbError(Exception):
    """Base of every knowledge-base error."""


class IngestError(KbError):
    """One input could not be ingested; other inputs are unaffected."""

    def __init__(self, path: Path | str, message: str, *, field: str | None = None, line: int | None = None):
        self.path = str(path)
        self.field = field
        self.line = line
        where = self.path + (f":{line}" if line else "")
        what = f" field '{field}'" if field else ""
        super().__init__(f"{where}:{what} {message}".replace(": ", ": ", 1))
        self.message = message


class MetadataError(IngestError):
    """Front matter, sidecar or metadata.json is malformed or incomplete."""


class ExtractionError(IngestError):
    """The document text could not be extracted (unreadable PDF, empty text, bad encoding)."""


class DuplicateError(IngestError):
    """The document's id or number is already used by a different source file."""


class NotFoundError(KbError):
    """No document with the given id is in the knowledge base."""


class StoreError(KbError):
    """The index could not be opened or written."""


class EmbedderError(KbError):
    """The embedder failed to load or to embed."""
