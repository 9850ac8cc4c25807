"""The bundled regulations chunked straight from their text, for tests of one act's chunking."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from kb.chunking import chunk_document
from kb.metadata import meta_from_corpus
from kb.model import ParsedChunk

REGS = Path(__file__).resolve().parents[2] / "corpus" / "regulations"


@cache
def chunks(doc_id: str) -> tuple[ParsedChunk, ...]:
    """The chunks of ``corpus/regulations/<doc_id>`` (read and chunked once per test session)."""
    folder = REGS / doc_id
    meta = meta_from_corpus(
        json.loads((folder / "metadata.json").read_text()), folder / "metadata.json", doc_id
    )
    return tuple(chunk_document((folder / "text.txt").read_text(encoding="utf-8"), meta))
