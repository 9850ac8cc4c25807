"""The per-turn ledger: every hit, citation, ticket and tool call of one turn, for the reply and the audit.

WHY: the reply must cite exactly what the tools returned, the escalation ticket must carry the evidence the
turn gathered, and the audit log must show what the model asked the tools to do -- without ever storing the
user's raw question.  The ledger keeps ids, locations and hashes (chunk text is hashed; quotes are verbatim
KB text, never user text); tool arguments are stored only as a hash.

One ledger belongs to one turn.  Tools run in worker threads (strands runs sync tools with
``asyncio.to_thread``), so every mutation takes a lock.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from kb.model import Hit
from tickets.model import Evidence


def short_hash(value: str | bytes) -> str:
    """First 16 hex chars of SHA-256: enough to correlate, too short to be a useful fingerprint store."""
    data = value.encode("utf-8") if isinstance(value, str) else value
    return hashlib.sha256(data).hexdigest()[:16]


def args_hash(args: Mapping[str, Any]) -> str:
    """Hash of a tool call's arguments in canonical JSON (sorted keys), so equal calls hash equal."""
    return short_hash(json.dumps(args, sort_keys=True, ensure_ascii=False, default=str))


@dataclass(frozen=True)
class LedgerHit:
    """A passage a tool showed the model."""

    chunk_id: str
    doc_id: str
    doc_number: str
    location: str
    text_sha: str
    score: float
    call: int  # seq of the tool call that returned it


@dataclass(frozen=True)
class LedgerCitation:
    """A claim's citation as drafted (before or after the gates; ``passed`` is None until verified)."""

    source_id: str
    doc_id: str | None
    location: str | None
    quote: str
    layer: str
    passed: bool | None = None


@dataclass(frozen=True)
class LedgerTicket:
    """A ticket action performed by a tool in this turn."""

    ticket_id: str
    action: str  # opened | evidence_added | note_added
    reason: str | None = None


@dataclass(frozen=True)
class LedgerToolCall:
    """One tool call: name, hash of its arguments, outcome (``ok`` or an error code)."""

    seq: int
    name: str
    args_sha: str
    ok: bool
    outcome: (
        str  # "ok" or a short code: rejected_arguments, denied, not_allowed, unavailable, bad_input, failed
    )


class Ledger:
    """Append-only record of one turn (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._hits: dict[str, LedgerHit] = {}
        self._hit_objects: dict[str, Hit] = {}
        self._citations: list[LedgerCitation] = []
        self._tickets: list[LedgerTicket] = []
        self._calls: list[LedgerToolCall] = []
        self._carried: Evidence = Evidence()
        self._carried_restricted = 0

    # --- writers -----------------------------------------------------------------------------

    def record_call(self, name: str, args: Mapping[str, Any], ok: bool, outcome: str = "ok") -> int:
        """Append a tool call and return its sequence number (1-based)."""
        with self._lock:
            seq = len(self._calls) + 1
            self._calls.append(LedgerToolCall(seq, name, args_hash(args), ok, outcome))
            return seq

    def record_hits(self, hits: tuple[Hit, ...] | list[Hit], call: int) -> None:
        """Remember passages shown to the model (first sighting wins; order of first sighting is kept)."""
        with self._lock:
            for hit in hits:
                if hit.chunk.id in self._hits:
                    continue
                self._hits[hit.chunk.id] = LedgerHit(
                    chunk_id=hit.chunk.id,
                    doc_id=hit.doc.id,
                    doc_number=hit.doc.number,
                    location=hit.chunk.location,
                    text_sha=short_hash(hit.chunk.text),
                    score=round(float(hit.score), 6),
                    call=call,
                )
                self._hit_objects[hit.chunk.id] = hit

    def record_citation(self, citation: LedgerCitation) -> None:
        with self._lock:
            self._citations.append(citation)

    def set_citations(self, citations: list[LedgerCitation]) -> None:
        """Replace drafted citations (e.g. with their gate outcome filled in)."""
        with self._lock:
            self._citations = list(citations)

    def carry(self, evidence: Evidence, restricted: int = 0) -> None:
        """Evidence an earlier turn of the thread gathered (already filtered for the ticket's audience, with
        the count it withheld): an escalation asked for later ("Ask the tax team", "tolong eskalasi") files it
        through ``create_ticket`` like an escalation decided inside the turn."""
        with self._lock:
            self._carried = evidence
            self._carried_restricted = max(0, int(restricted))

    def record_ticket(self, ticket: LedgerTicket) -> None:
        with self._lock:
            self._tickets.append(ticket)

    # --- readers -----------------------------------------------------------------------------

    @property
    def hits(self) -> tuple[LedgerHit, ...]:
        with self._lock:
            return tuple(self._hits.values())

    def hit_objects(self) -> tuple[Hit, ...]:
        """The full :class:`~kb.model.Hit` records seen this turn (for source resolution and composers)."""
        with self._lock:
            return tuple(self._hit_objects.values())

    def hit(self, chunk_id: str) -> Hit | None:
        with self._lock:
            return self._hit_objects.get(chunk_id)

    @property
    def citations(self) -> tuple[LedgerCitation, ...]:
        with self._lock:
            return tuple(self._citations)

    @property
    def tickets(self) -> tuple[LedgerTicket, ...]:
        with self._lock:
            return tuple(self._tickets)

    @property
    def calls(self) -> tuple[LedgerToolCall, ...]:
        with self._lock:
            return tuple(self._calls)

    def evidence(self, readable: Callable[[str], bool] | None = None) -> Evidence:
        """What this turn found, in the shape a ticket stores (claims, citations, retrieval candidates).

        The one evidence builder.  ``readable`` (doc id -> may the ticket's audience read it) leaves out
        everything the people who will see the ticket may not read; :meth:`restricted_sources` counts it.
        """
        with self._lock:
            hits = list(self._hits.values())
            citations = list(self._citations)
        if readable is not None:
            hits = [h for h in hits if readable(h.doc_id)]
            citations = [c for c in citations if c.doc_id is not None and readable(c.doc_id)]
        by_id = {h.chunk_id: h for h in hits}
        claims = [
            {
                "source_id": c.source_id,
                "doc_id": c.doc_id,
                "location": c.location,
                "quote": c.quote,
                "layer": c.layer,
                "passed": c.passed,
            }
            for c in citations
        ]
        cited: list[dict[str, Any]] = []
        seen: set[str] = set()
        for c in citations:
            if c.source_id in seen or c.source_id not in by_id:
                continue
            seen.add(c.source_id)
            h = by_id[c.source_id]
            cited.append(
                {
                    "chunk_id": h.chunk_id,
                    "doc_id": h.doc_id,
                    "doc_number": h.doc_number,
                    "location": h.location,
                }
            )
        candidates = [
            {
                "chunk_id": h.chunk_id,
                "doc_id": h.doc_id,
                "doc_number": h.doc_number,
                "location": h.location,
                "score": h.score,
            }
            for h in hits
        ]
        with self._lock:
            carried = self._carried
        return Evidence.of(
            claims=[*carried.claims, *claims],
            citations=[*carried.citations, *cited],
            candidates=[*carried.candidates, *candidates],
        )

    def restricted_sources(self, readable: Callable[[str], bool]) -> int:
        """How many documents this turn found that ``readable`` keeps from the ticket's audience."""
        with self._lock:
            docs = {h.doc_id for h in self._hits.values()} | {c.doc_id for c in self._citations if c.doc_id}
            carried = self._carried_restricted
        return carried + sum(1 for d in docs if not readable(d))

    def to_json(self) -> dict[str, Any]:
        """JSON-able snapshot for the audit log (no raw question text, tool arguments only hashed)."""
        with self._lock:
            return {
                "hits": [asdict(h) for h in self._hits.values()],
                "citations": [asdict(c) for c in self._citations],
                "tickets": [asdict(t) for t in self._tickets],
                "tool_calls": [asdict(c) for c in self._calls],
            }
