"""Errors raised by the knowledge base.

Every message names what the user must fix (file, field, id) so an operator can act on it::

    KbError
    ├── IngestError            one input file could not be ingested (carries ``path`` and ``field``)
    │   ├── MetadataError      malformed front matter / sidecar / metadata.json, unknown or missing fields
    │   ├── ExtractionError    unreadable PDF, empty text, undecodable file
    │   └── DuplicateError     an id or number already belongs to another document
    ├── NotFoundError          ``kb show`` / ``kb remove`` of an unknown document id
    ├── StoreError             the index file is missing, locked, corrupt or from a newer schema
    │   └── DiskFullError      the disk filled up during a write ("disk full while writing <path>;
    │                          nothing was changed"); see :func:`disk_full_guard`, :func:`write_atomically`
    ├── AliasError             the alias dictionary YAML is malformed (kb.query; names file and entry)
    └── EmbedderError          the embedding model could not be loaded or failed
"""

from __future__ import annotations

import errno
import os
import reprlib
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

#: Longest rendering of a user value inside an error message.
MAX_VALUE_CHARS = 80

_REPR = reprlib.Repr()
_REPR.maxstring = MAX_VALUE_CHARS
_REPR.maxother = MAX_VALUE_CHARS
_REPR.maxlong = 40
_REPR.maxlist = _REPR.maxtuple = _REPR.maxset = _REPR.maxdict = 6
_REPR.maxlevel = 3


def short_repr(value: Any) -> str:
    """``repr(value)`` cut to about :data:`MAX_VALUE_CHARS` characters, in time bounded by the cut.

    Error messages quote user values; a hostile or accidental huge value (a 10 MB title, a deeply nested
    list) must not make the message -- or the log line, or the terminal -- enormous.
    """
    text = _REPR.repr(value)
    return text if len(text) <= MAX_VALUE_CHARS + 10 else text[: MAX_VALUE_CHARS - 3] + "..."


def short_text(text: str) -> str:
    """``text`` cut to :data:`MAX_VALUE_CHARS` characters (with "..." when cut)."""
    return text if len(text) <= MAX_VALUE_CHARS else text[: MAX_VALUE_CHARS - 3] + "..."


class KbError(Exception):
    """Base of every knowledge-base error."""


class IngestError(KbError):
    """One input could not be ingested; other inputs are unaffected."""

    def __init__(self, path: Path | str, message: str, *, field: str | None = None, line: int | None = None):
        self.path = str(path)
        field = short_text(field) if field is not None else None
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


class DiskFullError(StoreError):
    """The disk (or quota) filled up during a write; the write was rolled back or never became visible."""

    def __init__(self, path: Path | str) -> None:
        self.path = str(path)
        super().__init__(f"disk full while writing {self.path}; nothing was changed")


_FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})


def is_disk_full(exc: BaseException | None) -> bool:
    """True for ENOSPC/EDQUOT/EFBIG and SQLite's SQLITE_FULL, also when wrapped as cause or context."""
    seen = 0
    while exc is not None and seen < 8:
        if isinstance(exc, OSError) and exc.errno in _FULL_ERRNOS:
            return True
        if isinstance(exc, sqlite3.Error) and (
            getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL
            or "database or disk is full" in str(exc)
        ):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


def store_write_error(path: Path | str, exc: BaseException) -> StoreError:
    """The error to raise after a failed (and rolled back) write to ``path``."""
    if is_disk_full(exc):
        return DiskFullError(path)
    return StoreError(f"knowledge-base write failed in {path}: {exc}; nothing was changed")


@contextmanager
def disk_full_guard(path: Path | str) -> Iterator[None]:
    """Turn a disk-full failure inside the block into :class:`DiskFullError` naming ``path``.

    The block must itself leave nothing half-written (a rolled-back transaction, :func:`write_atomically`).
    """
    try:
        yield
    except DiskFullError:
        raise
    except BaseException as exc:
        if is_disk_full(exc):
            raise DiskFullError(path) from exc
        raise


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def write_atomically(path: Path | str, data: bytes) -> None:
    """Write ``data`` to ``path`` all or nothing: a temporary file beside it, fsync, then rename.

    On a full disk the temporary file is removed, ``path`` keeps its old content (or stays absent) and
    :class:`DiskFullError` is raised; other ``OSError`` propagate after the same clean-up.
    """
    target = Path(path)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, target)
    except BaseException as exc:
        with suppress(OSError):
            tmp.unlink()
        if is_disk_full(exc):
            raise DiskFullError(target) from exc
        raise
