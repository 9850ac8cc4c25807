"""The composer interface: retrieved passages in, draft claims (each with a quote and a source) out.

A composer never decides what is shown: every draft claim goes through the same gates
(``guardrails.verify``) whatever produced it -- the deterministic extractive composer (default) or
an LLM through strands-agents.  Composers see chunk text only as data.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Literal, Protocol

from kb.model import Hit
from kb.query import QueryPlan

Layer = Literal["regulation", "policy", "unknown"]
Role = Literal["direct", "condition", "exception", "definition", "policy", "example", "context"]


@dataclass(frozen=True)
class ComposeRequest:
    """What a composer may read: the (masked) question and the passages retrieval returned."""

    question: str
    language: str  # "id" | "en": labels follow the question, quotes stay in the source language
    as_of: dt.date
    plan: QueryPlan
    hits: tuple[Hit, ...]  # ranked results
    context: tuple[Hit, ...] = ()  # graph expansion: parent Pasal, definitions, references, memo links


@dataclass(frozen=True)
class DraftClaim:
    """One statement with the verbatim quote that backs it and the chunk it comes from."""

    text: str
    quote: str
    source_chunk_id: str
    layer: Layer = "regulation"
    role: Role = "direct"
    is_example: bool = False
    assumption: str | None = None


#: the note a composer adds when its model failed ("model_failed:TimeoutError"): the answer has no claims
#: because nothing was composed, not because no source answers (the pipeline escalates it as a fault)
MODEL_FAILED = "model_failed:"


@dataclass(frozen=True)
class ComposedAnswer:
    claims: tuple[DraftClaim, ...]
    self_assessment: float  # composer's own confidence in [0, 1]
    notes: tuple[str, ...] = ()


class Composer(Protocol):
    name: str

    def compose(self, request: ComposeRequest) -> ComposedAnswer: ...
