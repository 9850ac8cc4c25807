"""Verified answers, cached per question, reader, date and corpus version, with purge.

With an LLM composer every repeat question pays full latency and cost; the extractive path still pays
retrieval and the gates.  :class:`AnswerCache` keeps the turn's verified answers (status ``answered``, no
escalation) and serves an identical question again from the cache.

What makes a hit correct for another user and after a change of the corpus is the key, a SHA-256 of:

* the masked question, whitespace-collapsed and case-folded (placeholders such as ``<VENDOR_1>`` are part
  of it; raw PII never reaches this module);
* the reader scope: access groups, legal entities, roles and locale of the principal the answer was
  made for (a reader with other access never shares an entry);
* the as-of date the turn answers for (an explicit date, else the turn's today);
* the corpus version (:meth:`kb.store.protocol.KnowledgeStore.corpus_version`): any ingest, removal or FAQ
  approval changes it, so no answer made from an older corpus is ever served;
* a generation counter in the store's meta, which :meth:`AnswerCache.purge` increments.

Entries live in the knowledge store's answer cache (``cache_answer`` / ``cached_answer``: the store drops
the entries citing a document it rewrites or removes, and refuses entries of another corpus version) or,
when Redis is configured, in Redis with a TTL and a per-document index so :meth:`purge_documents`
deletes exactly the entries citing changed documents (``bot.impact.record`` calls it after an ingest).
``dasar kb cache purge [--doc ID ...]`` purges by hand.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.answer.model import (
    Answer,
    ClarifyingQuestion,
    Confidence,
    Conflict,
    ConflictSource,
    Escalation,
    ShownClaim,
    SourceRef,
    UnsupportedClaim,
)
from identity.principal import Principal
from kb.model import Hit
from kb.store.protocol import KnowledgeStore
from tools.ledger import Ledger, LedgerCitation

logger = logging.getLogger(__name__)

#: Store meta key of the purge generation (part of every key).
GENERATION_KEY = "answer_cache_generation"
#: Bump when the key or payload format changes.
FORMAT = 1


def _date(value: Any) -> dt.date | None:
    return dt.date.fromisoformat(str(value)) if value else None


def answer_from_json(data: Mapping[str, Any]) -> Answer:
    """The :class:`Answer` whose ``to_json(include_timings=False)`` is ``data`` (the cache payload)."""

    def source(s: Mapping[str, Any]) -> SourceRef:
        return SourceRef(
            doc_id=s["doc_id"],
            number=s["number"],
            title=s["title"],
            location=s["location"],
            effective_from=_date(s.get("effective_from")),
            effective_to=_date(s.get("effective_to")),
            status=s["status"],
            url=s.get("url"),
            ocr_noisy=bool(s.get("ocr_noisy")),
            chunk_id=s["chunk_id"],
        )

    claims = tuple(
        ShownClaim(
            text=c["text"],
            quote=c["quote"],
            layer=c["layer"],
            is_example=bool(c["is_example"]),
            support=c.get("support"),
            source=source(c["source"]),
            role=c.get("role", "direct"),
            support_score=float(c.get("support_score", 0.0)),
            applies=c.get("applies"),
        )
        for c in data["claims"]
    )
    unsupported = tuple(
        UnsupportedClaim(
            text=u["text"],
            quote=u["quote"],
            source_id=u.get("source_id"),
            codes=tuple(u.get("codes", ())),
            messages=tuple(u.get("messages", ())),
            support=u.get("support"),
        )
        for u in data["unsupported_claims"]
    )
    questions = tuple(
        ClarifyingQuestion(q["slot"], q["question"], tuple(q.get("options", ())))
        for q in data["clarifying_questions"]
    )
    conflicts = tuple(
        Conflict(
            topic=c["topic"],
            sources=tuple(
                ConflictSource(
                    doc_id=s["doc_id"],
                    number=s["number"],
                    status=s["status"],
                    layer=s["layer"],
                    effective_from=_date(s.get("effective_from")),
                    figures=tuple(s.get("figures", ())),
                    location=s["location"],
                )
                for s in c["sources"]
            ),
            decided_by=c["decided_by"],
            preferred=c["preferred"],
            explanation=c.get("explanation", ""),
        )
        for c in data["conflicts"]
    )
    conf = data["confidence"]
    esc = data.get("escalation")
    period = data.get("period")
    return Answer(
        status=data["status"],
        answer=data["answer"],
        claims=claims,
        unsupported_claims=unsupported,
        clarifying_questions=questions,
        conflicts=conflicts,
        confidence=Confidence(
            conf["score"], conf["band"], conf.get("judge"), conf["retrieval"], conf["self"]
        ),
        as_of=dt.date.fromisoformat(data["as_of"]),
        corpus_version=data["corpus_version"],
        escalation=Escalation(esc["reason"], esc.get("ticket_id"), esc.get("offered", True)) if esc else None,
        warnings=tuple(data.get("warnings", ())),
        language=data.get("language", "id"),
        period=(dt.date.fromisoformat(period[0]), dt.date.fromisoformat(period[1])) if period else None,
        explain=data.get("explain"),
        withheld_summary=data.get("withheld_summary", ""),
    )


def normalise_question(question: str) -> str:
    """Whitespace-collapsed, case-folded masked question (the question part of the key)."""
    return " ".join(question.split()).casefold()


def cacheable(answer: Answer) -> bool:
    """Only verified answers: ``answered``, at least one shown claim, nothing escalated."""
    return answer.status == "answered" and bool(answer.claims) and answer.escalation is None


@dataclass(frozen=True)
class CachedAnswer:
    """A cache hit: the answer and the passages (chunk id, score) its run retrieved, in retrieval order."""

    answer: Answer
    hits: tuple[tuple[str, float], ...] = ()


class AnswerCache:
    """Get and put verified answers; purge all or by document.

    Args:
        store: the knowledge base (corpus version, purge generation, and the default backend).
        redis: a redis client (``bot.runtime.Runtime.redis``); None keeps entries in ``store``.
        ttl_seconds: lifetime of a Redis entry (the store's entries live until purged or outdated).
        prefix: Redis key prefix.
        namespace: anything else the answers depend on in this process (e.g. the composer name), so two
            deployments with different answerers never share entries.
    """

    def __init__(
        self,
        store: KnowledgeStore | Callable[[], KnowledgeStore],
        *,
        redis: Any | None = None,
        ttl_seconds: int = 7 * 86400,
        prefix: str = "dasar:answer:",
        namespace: str = "",
    ) -> None:
        self._store = store
        self.redis = redis
        self.ttl_seconds = ttl_seconds
        self.prefix = prefix
        self.namespace = namespace
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0
        self.puts = 0
        self.saved_ms = 0.0

    @property
    def store(self) -> KnowledgeStore:
        """The knowledge store (a callable given to the constructor is called on first use, so a front end
        can build its turn before the knowledge base is opened)."""
        if callable(self._store) and not hasattr(self._store, "corpus_version"):
            self._store = self._store()
        return self._store  # type: ignore[return-value]

    # --- keys ------------------------------------------------------------------------------------------
    def generation(self) -> int:
        raw = self.store.get_meta(GENERATION_KEY)
        return int(raw) if raw and raw.isdigit() else 0

    def key(self, question: str, principal: Principal, as_of: dt.date) -> str:
        """The deterministic key of one question for one reader on one date of the current corpus."""
        material = {
            "format": FORMAT,
            "namespace": self.namespace,
            "question": normalise_question(question),
            "groups": sorted(principal.groups),
            "entities": sorted(principal.entities),
            "roles": sorted(principal.roles),
            "locale": principal.locale,
            "as_of": as_of.isoformat(),
            "corpus_version": self.store.corpus_version(),
            "generation": self.generation(),
        }
        return hashlib.sha256(json.dumps(material, sort_keys=True).encode()).hexdigest()

    # --- get / put ---------------------------------------------------------------------------------------
    def get(self, question: str, principal: Principal, as_of: dt.date) -> Answer | None:
        """The cached answer, or None (counted as a miss)."""
        entry = self.lookup(question, principal, as_of)
        return entry.answer if entry is not None else None

    def lookup(self, question: str, principal: Principal, as_of: dt.date) -> CachedAnswer | None:
        """The cached answer with the passages its run retrieved, or None (counted as a miss)."""
        key = self.key(question, principal, as_of)
        try:
            raw = self._read(key)
        except Exception as exc:  # a cache outage never blocks an answer
            logger.warning("error=%s | answer cache unavailable; answering without it", type(exc).__name__)
            raw = None
        with self._lock:
            if raw is None:
                self.misses += 1
            else:
                self.hits += 1
        if raw is None:
            return None
        data = json.loads(raw)
        entry = CachedAnswer(
            answer_from_json(data["answer"]),
            tuple((str(cid), float(score)) for cid, score in data.get("hits") or ()),
        )
        with self._lock:
            self.saved_ms += float(data.get("took_ms") or 0.0)
        return entry

    def put(
        self,
        question: str,
        principal: Principal,
        as_of: dt.date,
        answer: Answer,
        ledger: Ledger | None = None,
    ) -> bool:
        """Cache ``answer`` when it is verified (:func:`cacheable`); True when stored.

        ``ledger``: the run's ledger; the passages it retrieved are kept (ids and scores) so a hit gives the
        thread the same escalation evidence (:func:`replay_into`)."""
        if not cacheable(answer):
            return False
        key = self.key(question, principal, as_of)
        payload = json.dumps(
            {
                "answer": answer.to_json(include_timings=False),
                "hits": [[h.chunk_id, h.score] for h in ledger.hits] if ledger is not None else [],
                "took_ms": round(float(answer.timings.get("total_ms", 0.0)), 2),
            },
            ensure_ascii=False,
            sort_keys=True,
        )
        docs = sorted({c.source.doc_id for c in answer.claims})
        try:
            self._write(key, docs, payload)
        except Exception as exc:
            logger.warning("error=%s | answer cache unavailable; answer not cached", type(exc).__name__)
            return False
        with self._lock:
            self.puts += 1
        return True

    def _read(self, key: str) -> str | None:
        if self.redis is None:
            return self.store.cached_answer(key)
        raw = self.redis.get(self.prefix + key)
        if raw is None:
            return None
        return raw.decode() if isinstance(raw, bytes) else str(raw)

    def _write(self, key: str, doc_ids: Iterable[str], payload: str) -> None:
        if self.redis is None:
            self.store.cache_answer(key, doc_ids, payload)
            return
        pipe = self.redis.pipeline()
        pipe.set(self.prefix + key, payload, ex=self.ttl_seconds)
        for doc_id in doc_ids:
            index = f"{self.prefix}doc:{doc_id}"
            pipe.sadd(index, key)
            pipe.expire(index, self.ttl_seconds)
        pipe.execute()

    # --- purge -----------------------------------------------------------------------------------------
    def purge_documents(self, doc_ids: Iterable[str]) -> int:
        """Delete the entries citing any of ``doc_ids``; returns how many were deleted.

        In the store backend the store already deletes them when it writes or removes a document (and a
        changed corpus version makes every older entry unreachable); this returns 0 there.
        """
        if self.redis is None:
            return 0
        removed = 0
        for doc_id in sorted(set(doc_ids)):
            index = f"{self.prefix}doc:{doc_id}"
            keys = [k.decode() if isinstance(k, bytes) else str(k) for k in self.redis.smembers(index)]
            if keys:
                removed += int(self.redis.delete(*[self.prefix + k for k in keys]))
            self.redis.delete(index)
        logger.info(
            "docs=%s, entries=%s | answer cache purged for changed documents", len(set(doc_ids)), removed
        )
        return removed

    def purge(self) -> int:
        """Make every entry unreachable (new generation); Redis entries are also deleted. Returns the count
        deleted (Redis) or the number of store entries made unreachable."""
        new = self.generation() + 1
        self.store.set_meta(GENERATION_KEY, str(new))
        if self.redis is None:
            return self.store.cached_answer_count()
        removed = 0
        batch: list[Any] = []
        for k in self.redis.scan_iter(match=self.prefix + "*", count=500):
            batch.append(k)
            if len(batch) >= 500:
                removed += int(self.redis.delete(*batch))
                batch = []
        if batch:
            removed += int(self.redis.delete(*batch))
        logger.info("generation=%s, entries=%s | answer cache purged", new, removed)
        return removed

    def stats(self) -> dict[str, float | int]:
        with self._lock:
            total = self.hits + self.misses
            return {
                "hits": self.hits,
                "misses": self.misses,
                "puts": self.puts,
                "hit_rate": round(self.hits / total, 4) if total else 0.0,
                "saved_ms": round(self.saved_ms, 2),
            }


def answer_cache_for(
    settings: Any, store: KnowledgeStore | Callable[[], KnowledgeStore], redis: Any | None = None
) -> AnswerCache | None:
    """The deployment's cache: None with ``DASAR_ANSWER_CACHE=false``; Redis when ``DASAR_REDIS_URL`` is set
    (``redis``: the process's client, else one is made), else the knowledge store (or a callable giving it,
    called on first use).  The namespace is the composer, so answers of the extractive path and of an LLM
    never share entries."""
    if not getattr(settings, "answer_cache", True):
        return None
    if redis is None and settings.redis_url is not None:
        from bot.slack.redis_backends import redis_client

        redis = redis_client(settings.redis_url.get_secret_value())
    return AnswerCache(
        store,
        redis=redis,
        ttl_seconds=int(getattr(settings, "answer_cache_ttl_seconds", 7 * 86400)),
        namespace=str(getattr(settings, "composer", "")),
    )


def replay_into(ledger: Ledger, cached: CachedAnswer, store: KnowledgeStore) -> None:
    """Record a cached answer's retrieved passages and citations in the turn's ledger, as its run did.

    The turn builds its escalation evidence from the ledger (a later "please escalate" in the thread files
    it on the ticket); without this a question served from the cache would leave the ticket empty.  The
    passages were readable by this reader scope when cached (the scope is part of the key); ones that no
    longer exist are skipped.
    """
    answer = cached.answer
    scores = dict(cached.hits)
    order = list(dict.fromkeys([*scores, *(c.source.chunk_id for c in answer.claims)]))
    seq = ledger.record_call("answer_cache", {"chunks": order}, ok=True)
    chunks = store.get_chunks(order)
    docs: dict[str, Any] = {}
    hits: list[Hit] = []
    for cid in order:
        chunk = chunks.get(cid)
        if chunk is None:
            continue
        if chunk.doc_id not in docs:
            docs[chunk.doc_id] = store.get_document(chunk.doc_id)
        stored = docs[chunk.doc_id]
        if stored is not None:
            hits.append(Hit(chunk=chunk, doc=stored.meta, score=scores.get(cid, 1.0), via=("answer_cache",)))
    ledger.record_hits(hits, seq)
    for claim in answer.claims:
        ledger.record_citation(
            LedgerCitation(
                source_id=claim.source.chunk_id,
                doc_id=claim.source.doc_id,
                location=claim.source.location,
                quote=claim.quote,
                layer=claim.layer,
                passed=True,
            )
        )
