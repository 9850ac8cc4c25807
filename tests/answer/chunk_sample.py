"""Hand-made passages for the lead-selection tests: one builder instead of a ``Chunk(...)`` literal per file.

Only what a test varies is an argument; the rest is a plain, current, indexed ayat of a made-up act.
"""

from __future__ import annotations

from kb.model import Chunk


def sample_chunk(
    doc_id: str,
    key: str,
    text: str,
    *,
    location: str,
    seq: int,
    kind: str = "ayat",
    parent_key: str | None = None,
    pasal: str | None = None,
    ayat: str | None = None,
) -> Chunk:
    """A stored passage ``<doc_id>#<key>`` with no validity window, no provision chain and no example flag."""
    return Chunk(
        id=f"{doc_id}#{key}",
        doc_id=doc_id,
        key=key,
        kind=kind,
        location=location,
        text=text,
        prefix="",
        parent_id=f"{doc_id}#{parent_key}" if parent_key else None,
        pasal=pasal,
        ayat=ayat,
        huruf=None,
        provision=None,
        valid_from=None,
        valid_to=None,
        is_example=False,
        seq=seq,
    )
