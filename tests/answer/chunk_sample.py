"""Hand-made passages for the lead-selection tests: one builder instead of a ``Chunk(...)`` literal per file.

Only what a test varies is an argument; the rest is a plain, current, indexed ayat of a made-up act.
:func:`compose_request` and :func:`lead_chunk_id` put such passages before the extractive composer;
:func:`anonymous_answer` asks the whole pipeline over the session index, as those tests' end-to-end cases do.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from bot.answer.extractive import ExtractiveComposer
from bot.answer.model import Answer
from bot.answer.pipeline import answer_question
from bot.answer.protocol import ComposeRequest
from kb.model import Chunk, Hit
from kb.query import understand

#: the date the lead-selection tests ask on
TODAY = dt.date(2026, 12, 5)


def anonymous_answer(services: Any, question: str, *, as_of: dt.date = TODAY) -> Answer:
    """The pipeline's answer to ``question`` for an anonymous reader (public documents) on ``as_of``."""
    return answer_question(question, services.cli_principal(None), services, as_of=as_of)


def compose_request(question: str, hits: Sequence[Hit] = (), *, as_of: dt.date = TODAY) -> ComposeRequest:
    """What the pipeline hands the composer for ``question`` over ``hits`` (in their ranked order)."""
    return ComposeRequest(question, "id", as_of, understand(question), tuple(hits))


def lead_chunk_id(question: str, hits: Sequence[Hit], *, as_of: dt.date = TODAY) -> str:
    """The passage the extractive composer leads the answer with."""
    return (
        ExtractiveComposer().compose(compose_request(question, hits, as_of=as_of)).claims[0].source_chunk_id
    )


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
