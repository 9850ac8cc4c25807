"""The answer object: what ``dasar ask --json`` prints and what every chat front end renders.

One frozen record tree, one ``to_json`` with a fixed key order, so the same question, user, as-of
date and corpus version give byte-identical JSON (``timings`` aside, and always last).

Contract (keep names stable; add fields only at the end of a record)::

    status, answer, claims[], unsupported_claims[], clarifying_questions[], conflicts[],
    confidence{score, band, judge, retrieval, self}, as_of, corpus_version,
    escalation{reason, ticket_id, offered} | null, warnings[], language, period, withheld_summary,
    parts[] (only for a message of several questions, see below), timings

``answer`` is the answer line: for an answered question one or two plain sentences built only from
the verified claims, with their figures and citation markers ``[n]`` (n = position in ``claims``);
for other statuses the one message the user needs (clarify prompt, decline, escalation).  The
evidence (claims, conflicts in words, withheld summary) is rendered by each front end from the
other fields (``bot.answer.render.render_terminal`` for the terminal).

A message that asks several things (``kb.lexical.question_parts``) is answered part by part
(``bot.answer.parts.answer_message``): ``parts`` holds one :class:`PartAnswer` per part (its question, its
own answer, the positions of its claims in the top-level ``claims``), and the top-level fields combine them
(the rule is in ``bot.answer.parts``): ``claims`` are the parts' claims in part order, each passage once, so
``claims[0]`` is the lead of the first part that has claims; ``answer`` is one numbered line per part.
``parts`` is left out of the JSON of a one-question answer, which therefore stays byte-identical.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field, replace
from typing import Any, Literal

Status = Literal["answered", "clarify", "abstained", "escalated", "refused"]
STATUSES: tuple[str, ...] = ("answered", "clarify", "abstained", "escalated", "refused")
EscalationReason = Literal[
    "no_source",
    "low_confidence",
    "out_of_scope",
    "personal_data",
    "advice",
    "protected_determination",
    "answer_failed",
]


_ITEM_LABEL = re.compile(r"^(?:\(\d{1,2}[a-z]?\)|[a-z0-9]{1,3}[.)])\s+")


def claim_heading(text: str, quote: str) -> str:
    """What a front end prints above a claim's quote: the claim's own words without the quote they repeat.

    An extractive claim is its quote with the provision's lead-in ("Wajib Pajak badan dalam negeri: b. dengan
    ..."); printing the text and then the quote showed every passage twice.  The heading is then the lead-in
    alone ("" when the text is the quote); a claim whose text does not contain the start of its quote (a
    model's own sentence) keeps its whole text.
    """
    words = " ".join(text.split())
    said = " ".join(quote.split())
    if not said:
        return words
    for start in (said, _ITEM_LABEL.sub("", said, count=1)):  # the text may drop the item's label ("1. ")
        at = words.find(start[:30]) if start else -1
        if at >= 0:
            return words[:at].rstrip()
    return words


def _iso(d: dt.date | None) -> str | None:
    return d.isoformat() if d else None


@dataclass(frozen=True)
class SourceRef:
    """Where a claim comes from: enough to cite it and to re-open the official text."""

    doc_id: str
    number: str
    title: str
    location: str
    effective_from: dt.date | None
    effective_to: dt.date | None
    status: str
    url: str | None
    ocr_noisy: bool
    chunk_id: str
    #: dasar's own page of the law as it stood on the answer's date (``/law/<doc>?as_of=...#pasal-N``), for
    #: public regulations when ``DASAR_PUBLIC_URL`` is set; ``url`` stays the official text
    law_url: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "doc_id": self.doc_id,
            "number": self.number,
            "title": self.title,
            "location": self.location,
            "effective_from": _iso(self.effective_from),
            "effective_to": _iso(self.effective_to),
            "status": self.status,
            "url": self.url,
            "ocr_noisy": self.ocr_noisy,
            "chunk_id": self.chunk_id,
            "law_url": self.law_url,
        }


@dataclass(frozen=True)
class ShownClaim:
    """A claim that passed every gate. ``layer``/``is_example`` come from the source, never the composer."""

    text: str
    quote: str
    layer: str
    is_example: bool
    support: str | None
    source: SourceRef
    role: str = "direct"
    support_score: float = 0.0
    applies: str | None = None  # straddle: "2022-01-01..2022-03-31" side this claim governs

    def to_json(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "quote": self.quote,
            "layer": self.layer,
            "is_example": self.is_example,
            "support": self.support,
            "source": self.source.to_json(),
            "role": self.role,
            "support_score": round(self.support_score, 4),
            "applies": self.applies,
        }


@dataclass(frozen=True)
class UnsupportedClaim:
    """A claim withheld by the gates, listed (never silently repaired).

    ``quote`` and ``source_id`` are blanked when the cited source is missing or not readable by the
    user, so the list can never reveal that a restricted document exists.
    """

    text: str
    quote: str
    source_id: str | None
    codes: tuple[str, ...]
    messages: tuple[str, ...]
    support: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "quote": self.quote,
            "source_id": self.source_id,
            "codes": list(self.codes),
            "messages": list(self.messages),
            "support": self.support,
        }


@dataclass(frozen=True)
class ClarifyingQuestion:
    slot: str
    question: str
    options: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"slot": self.slot, "question": self.question, "options": list(self.options)}


@dataclass(frozen=True)
class ConflictSource:
    doc_id: str
    number: str
    status: str
    layer: str
    effective_from: dt.date | None
    figures: tuple[str, ...]
    location: str

    def to_json(self) -> dict[str, Any]:
        return {
            "doc_id": self.doc_id,
            "number": self.number,
            "status": self.status,
            "layer": self.layer,
            "effective_from": _iso(self.effective_from),
            "figures": list(self.figures),
            "location": self.location,
        }


@dataclass(frozen=True)
class Conflict:
    topic: str
    sources: tuple[ConflictSource, ...]
    decided_by: str
    preferred: str
    #: The decision in words, in the question's language ("UU 7/2021 berlaku karena ...").
    explanation: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "topic": self.topic,
            "sources": [s.to_json() for s in self.sources],
            "decided_by": self.decided_by,
            "preferred": self.preferred,
            "explanation": self.explanation,
        }


@dataclass(frozen=True)
class Confidence:
    score: float
    band: str
    judge: float | None
    retrieval: float
    self: float
    #: the other inputs of the calibrated model (``bot.answer.confidence.FEATURES``), each in [0, 1]
    features: tuple[tuple[str, float], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "score": round(self.score, 4),
            "band": self.band,
            "judge": None if self.judge is None else round(self.judge, 4),
            "retrieval": round(self.retrieval, 4),
            "self": round(self.self, 4),
            "features": {k: round(v, 4) for k, v in self.features},
        }


#: Escalation reasons the tax team cannot help with: declined without offering a ticket.  A request for a
#: person's data (``personal_data``) is never sent on either: the turn opens no ticket for it (it does for
#: ``out_of_scope``, so the tax team sees what staff ask that the knowledge base lacks).
NOT_OFFERED_REASONS = frozenset({"out_of_scope", "personal_data"})


@dataclass(frozen=True)
class Escalation:
    """Why a question goes (or would go) to the tax team.

    An out-of-scope question ("capital of France") is declined, never offered to the tax team:
    ``offered`` is forced to False for those reasons whatever the caller passes.
    """

    reason: str
    ticket_id: str | None = None
    offered: bool = True

    def __post_init__(self) -> None:
        if self.reason in NOT_OFFERED_REASONS and self.offered:
            object.__setattr__(self, "offered", False)

    def to_json(self) -> dict[str, Any]:
        return {"reason": self.reason, "ticket_id": self.ticket_id, "offered": self.offered}


@dataclass(frozen=True)
class PartAnswer:
    """One question of a multi-part message and its own answer.

    ``question``: the part as the user wrote it; ``asked``: the text actually answered (the part with the
    message's story and, for a part that names no topic of its own, the topic of an earlier part);
    ``answer``: its own :class:`Answer` (markers ``[n]`` count its own claims); ``line``: its answer line
    with the markers renumbered to the top-level ``claims``; ``claim_numbers``: the 1-based position in the
    top-level ``claims`` of each of its own claims (a passage two parts cite is listed once, under the
    first part).
    """

    index: int
    question: str
    asked: str
    answer: Answer
    line: str
    claim_numbers: tuple[int, ...] = ()

    @property
    def status(self) -> str:
        return self.answer.status

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "question": self.question,
            "asked": self.asked,
            "status": self.answer.status,
            "line": self.line,
            "claim_numbers": list(self.claim_numbers),
            "answer": self.answer.to_json(include_timings=False),
        }


@dataclass(frozen=True)
class Answer:
    """The whole answer of one turn."""

    status: str
    answer: str
    claims: tuple[ShownClaim, ...]
    unsupported_claims: tuple[UnsupportedClaim, ...]
    clarifying_questions: tuple[ClarifyingQuestion, ...]
    conflicts: tuple[Conflict, ...]
    confidence: Confidence
    as_of: dt.date
    corpus_version: str
    escalation: Escalation | None
    warnings: tuple[str, ...]
    language: str = "id"
    period: tuple[dt.date, dt.date] | None = None
    explain: dict[str, Any] | None = None
    timings: dict[str, float] = field(default_factory=dict)
    #: Withheld (unsupported) claims as a count with the reason in words; "" when none were withheld.
    #: Derived from ``unsupported_claims`` and ``language`` when not given.
    withheld_summary: str = ""
    #: One record per question of a multi-part message, in order (empty for a one-question message).
    parts: tuple[PartAnswer, ...] = ()

    def __post_init__(self) -> None:
        if self.unsupported_claims and not self.withheld_summary:
            from bot.answer.render import withheld_summary

            object.__setattr__(
                self, "withheld_summary", withheld_summary(self.unsupported_claims, self.language)
            )

    def with_timings(self, timings: dict[str, float]) -> Answer:
        return replace(self, timings=dict(timings))

    def to_json(self, *, include_timings: bool = True) -> dict[str, Any]:
        """The contract object; ``include_timings=False`` gives the deterministic part only."""
        out: dict[str, Any] = {
            "status": self.status,
            "answer": self.answer,
            "claims": [c.to_json() for c in self.claims],
            "unsupported_claims": [c.to_json() for c in self.unsupported_claims],
            "clarifying_questions": [q.to_json() for q in self.clarifying_questions],
            "conflicts": [c.to_json() for c in self.conflicts],
            "confidence": self.confidence.to_json(),
            "as_of": self.as_of.isoformat(),
            "corpus_version": self.corpus_version,
            "escalation": self.escalation.to_json() if self.escalation else None,
            "warnings": list(self.warnings),
            "language": self.language,
            "period": [self.period[0].isoformat(), self.period[1].isoformat()] if self.period else None,
        }
        if self.explain is not None:
            out["explain"] = self.explain
        out["withheld_summary"] = self.withheld_summary
        if self.parts:  # left out for one question, whose JSON stays as it always was
            out["parts"] = [p.to_json() for p in self.parts]
        if include_timings:
            out["timings"] = {k: round(v, 2) for k, v in self.timings.items()}
        return out
