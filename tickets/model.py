"""Records of the ticket workflow: who asked, in which conversation, with what evidence, and what happened.

All records are frozen dataclasses of plain values so that :mod:`tickets` needs nothing from the rest of
dasar: the bot converts its own identity/KB objects into these at the boundary.  Evidence and sources are
JSON-able dicts because they are stored as JSON and shown verbatim on the tax team's card.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

Reason = Literal[
    "no_source",
    "low_confidence",
    "out_of_scope",
    "advice",
    "protected_determination",
    "user_request",
    "answer_failed",
]
#: Why dasar escalated instead of answering (stored on the ticket, counted in reports): the values of
#: :data:`Reason`, in its order, written once
REASONS: tuple[str, ...] = get_args(Reason)

Status = Literal["open", "claimed", "needs_info", "answered", "closed", "rejected"]
STATUSES: tuple[str, ...] = get_args(Status)
#: Statuses in which a thread's ticket is still being worked on; at most one such ticket per thread.
ACTIVE_STATUSES: tuple[str, ...] = ("open", "claimed", "needs_info")

TICKET_ID_PREFIX = "T-"


def format_ticket_id(number: int) -> str:
    """Human-friendly, sortable id: ``T-000042`` (widens past 999999 rather than wrapping)."""
    return f"{TICKET_ID_PREFIX}{number:06d}"


def canonical_json(value: Any) -> str:
    """Deterministic JSON (sorted keys, no spaces) so equal content compares and hashes equal."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def to_utc(ts: dt.datetime) -> dt.datetime:
    """Reject naive datetimes (ambiguous timezone) and normalise to UTC."""
    if ts.tzinfo is None:
        raise ValueError("timestamps must be timezone-aware (use datetime.now(timezone.utc))")
    return ts.astimezone(dt.UTC)


def ts_to_text(ts: dt.datetime) -> str:
    """Fixed-width UTC ISO text: sorts lexicographically in both SQLite and PostgreSQL TEXT columns."""
    return to_utc(ts).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def text_to_ts(text: str) -> dt.datetime:
    """Inverse of :func:`ts_to_text`."""
    return dt.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=dt.UTC)


@dataclass(frozen=True)
class Requester:
    """The person who asked, as resolved by identity (principal) plus how to reach them on their platform."""

    principal_id: str
    platform: str
    tenant: str
    user_id: str
    email: str | None = None
    display_name: str | None = None


@dataclass(frozen=True)
class ThreadRef:
    """The conversation a ticket belongs to; answers are relayed back into it."""

    platform: str
    tenant: str
    channel: str
    thread_id: str

    @property
    def key(self) -> str:
        """Stable unique key of the thread (idempotency of :meth:`TicketStore.open_ticket` hangs on it)."""
        return f"{self.platform}:{self.tenant}:{self.channel}:{self.thread_id}"


def _dict_tuple(items: Sequence[Mapping[str, Any]]) -> tuple[dict[str, Any], ...]:
    return tuple(dict(i) for i in items)


@dataclass(frozen=True)
class Evidence:
    """What dasar found before giving up: claims it could make, citations, and retrieval candidates.

    Each item is a JSON-able dict (e.g. ``{"text": ..., "quote": ..., "doc_id": ..., "location": ...}``);
    the store keeps them verbatim for the tax team.
    """

    claims: tuple[dict[str, Any], ...] = ()
    citations: tuple[dict[str, Any], ...] = ()
    candidates: tuple[dict[str, Any], ...] = ()

    @classmethod
    def of(
        cls,
        claims: Sequence[Mapping[str, Any]] = (),
        citations: Sequence[Mapping[str, Any]] = (),
        candidates: Sequence[Mapping[str, Any]] = (),
    ) -> Evidence:
        """Build from any sequences of mappings (lists are converted so the record stays immutable)."""
        return cls(_dict_tuple(claims), _dict_tuple(citations), _dict_tuple(candidates))

    def to_json(self) -> dict[str, list[dict[str, Any]]]:
        return {
            "claims": list(self.claims),
            "citations": list(self.citations),
            "candidates": list(self.candidates),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Evidence:
        return cls.of(data.get("claims", ()), data.get("citations", ()), data.get("candidates", ()))

    def is_empty(self) -> bool:
        return not (self.claims or self.citations or self.candidates)

    def merge(self, other: Evidence) -> tuple[Evidence, Evidence]:
        """Union with ``other`` keeping first-seen order; returns ``(merged, only_new_items)``."""

        def union(
            a: tuple[dict[str, Any], ...], b: tuple[dict[str, Any], ...]
        ) -> tuple[tuple[dict[str, Any], ...], tuple[dict[str, Any], ...]]:
            seen = {canonical_json(x) for x in a}
            new: list[dict[str, Any]] = []
            for item in b:
                k = canonical_json(item)
                if k not in seen:
                    seen.add(k)
                    new.append(item)
            return a + tuple(new), tuple(new)

        cl, ncl = union(self.claims, other.claims)
        ci, nci = union(self.citations, other.citations)
        ca, nca = union(self.candidates, other.candidates)
        return Evidence(cl, ci, ca), Evidence(ncl, nci, nca)


@dataclass(frozen=True)
class Ticket:
    """One escalated question and its current state (history lives in :class:`TicketEvent`)."""

    id: str
    thread: ThreadRef
    requester: Requester
    question_masked: str
    facts: tuple[str, ...]
    evidence: Evidence
    gap: str
    reason: str
    status: str
    assignee: str | None
    created_at: dt.datetime
    updated_at: dt.datetime
    answer: str | None = None
    answer_by: str | None = None
    answer_sources: tuple[dict[str, Any], ...] = ()
    topic: str | None = None
    version: int = 1
    #: When the ticket entered its current status (drives "waiting since" and aging reports).
    status_since: dt.datetime | None = None

    def summary(self) -> dict[str, Any]:
        """JSON-able snapshot used as outbox payload (what a card or relay needs, nothing more)."""
        return {
            "ticket_id": self.id,
            "version": self.version,
            "status": self.status,
            "reason": self.reason,
            "topic": self.topic,
            "question_masked": self.question_masked,
            "facts": list(self.facts),
            "gap": self.gap,
            "evidence": self.evidence.to_json(),
            "assignee": self.assignee,
            "answer": self.answer,
            "answer_by": self.answer_by,
            "answer_sources": list(self.answer_sources),
            "thread": {
                "platform": self.thread.platform,
                "tenant": self.thread.tenant,
                "channel": self.thread.channel,
                "thread_id": self.thread.thread_id,
                "key": self.thread.key,
            },
            "requester": {
                "principal_id": self.requester.principal_id,
                "platform": self.requester.platform,
                "tenant": self.requester.tenant,
                "user_id": self.requester.user_id,
                "display_name": self.requester.display_name,
            },
            "created_at": ts_to_text(self.created_at),
            "updated_at": ts_to_text(self.updated_at),
            "status_since": ts_to_text(self.status_since or self.updated_at),
        }


@dataclass(frozen=True)
class TicketEvent:
    """One append-only history entry; ``seq`` counts from 1 per ticket."""

    seq: int
    ticket_id: str
    kind: str
    actor: str
    at: dt.datetime
    data: dict[str, Any] = field(default_factory=dict)


Verdict = Literal["helpful", "not_helpful"]
#: What a user said about one answer (Slack/Teams thumbs up / down).
VERDICTS: tuple[str, ...] = ("helpful", "not_helpful")
#: Longest stored feedback comment (characters, after masking).
MAX_FEEDBACK_COMMENT = 1000


@dataclass(frozen=True)
class Feedback:
    """One user's verdict on one answer (latest click wins; one row per answer and user).

    ``answer_ref`` is the turn's reference id (what the answer's buttons carry); ``answer_status`` and
    ``confidence_band`` are copied from the answer so reports can group without the answer itself.
    ``comment_masked`` MUST already be PII-masked by the caller (this package cannot mask): the bot
    passes it through its inbound guardrails first.
    """

    answer_ref: str
    user_id: str
    platform: str
    tenant: str
    corpus_version: str
    answer_status: str
    confidence_band: str
    verdict: str
    comment_masked: str | None = None
    created_at: dt.datetime | None = None
    updated_at: dt.datetime | None = None

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(
                f"unknown feedback verdict {self.verdict!r}; expected one of {', '.join(VERDICTS)}"
            )
        if not self.answer_ref or not self.user_id:
            raise ValueError("feedback needs an answer reference and a user")

    def to_json(self) -> dict[str, Any]:
        return {
            "answer_ref": self.answer_ref,
            "user_id": self.user_id,
            "platform": self.platform,
            "tenant": self.tenant,
            "corpus_version": self.corpus_version,
            "answer_status": self.answer_status,
            "confidence_band": self.confidence_band,
            "verdict": self.verdict,
            "comment_masked": self.comment_masked,
            "created_at": ts_to_text(self.created_at) if self.created_at else None,
            "updated_at": ts_to_text(self.updated_at) if self.updated_at else None,
        }
