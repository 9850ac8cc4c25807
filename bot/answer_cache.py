"""Verified answers, cached per question, reader and date, invalidated per document they rest on.

With an LLM composer every repeat question pays full latency and cost; the extractive path still pays
retrieval and the gates.  :class:`AnswerCache` keeps the turn's verified answers (status ``answered``, no
escalation) and serves an identical question again from the cache.

What makes a hit correct for another user is the key, a SHA-256 of:

* the masked question, whitespace-collapsed and case-folded (placeholders such as ``<VENDOR_1>`` are part
  of it; raw PII never reaches this module);
* the reader scope: access groups, legal entities, roles and locale of the principal the answer was
  made for (a reader with other access never shares an entry);
* the as-of date the turn answers for (an explicit date, else the turn's today);
* the namespace (the composer) and a generation counter in the store's meta, which :meth:`AnswerCache.purge`
  increments.

The corpus version is NOT in the key: an ingest of an unrelated document leaves every entry valid.  What
makes a hit correct after a change of the corpus is the rule:

    An entry stays valid exactly as long as every passage it was made from (its cited passages and the
    passages its run retrieved) still exists with the same wording, provision and validity window, and
    every document of those passages (and of its conflicts) still has the same metadata.

Two mechanisms enforce it:

1. **Purge by document.**  Each entry is indexed under the documents of the passages it was made from.
   :meth:`AnswerCache.purge_documents` deletes the entries indexed under the changed documents and under
   the documents they amend or revoke (:func:`related_documents`: ``amends`` / ``revokes`` of the changed
   document, the base laws its restated Pasal belong to, and documents naming it in ``amended_by`` /
   ``revoked_by``).  ``bot.impact.record`` calls it after every ingest or removal with the documents whose
   passages changed wording or validity; the knowledge store itself deletes the entries indexed under a
   document it rewrites or removes; :class:`bot.faq.FaqService` calls its ``on_change`` hook (wire it to
   :meth:`purge_documents`) when an FAQ is approved, withdrawn for review or expires.
2. **Verify on read.**  Each entry carries a fingerprint (SHA-256 of document, location, wording, provision
   and validity window) of every passage it was made from and of every document's metadata, taken from the
   passages the run actually read.  A hit re-reads its passages by id (one ``get_chunks``, which replaying
   the hit into the ledger reuses) and its documents (``get_document``, remembered per corpus version, whose
   hash covers every document's metadata) and is served only when all fingerprints match; otherwise the
   entry is deleted and the question answered afresh.  This keeps the cache safe when a purge was missed
   (another process, a restart, a removal by hand, an ingest racing an answer that was being written).

So a new document that amends nothing keeps every entry (it cannot make a cited wording wrong; the next
fresh answer may cite it); an amendment or revocation ends the validity window of the passages it replaces,
which both purges and fails verification of the entries resting on them, for every as-of date.

Entries live in the knowledge store's answer cache (``cache_answer(..., pinned=False)`` /
``cached_answer`` / ``purge_cached_answers``, indexed by document) or, when Redis is configured, in Redis
with a TTL and a per-document index set.  ``dasar kb cache purge [--doc ID ...]`` purges by hand.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
import logging
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bot.answer.model import (
    Answer,
    ClarifyingQuestion,
    Confidence,
    Conflict,
    ConflictSource,
    Escalation,
    PartAnswer,
    ShownClaim,
    SourceRef,
    UnsupportedClaim,
)
from identity.principal import Principal
from kb.metadata import revoked_part
from kb.model import Chunk, DocumentMeta, Hit
from kb.store.protocol import KnowledgeStore, StoredDocument
from tools.ledger import Ledger, LedgerCitation

logger = logging.getLogger(__name__)

#: Store meta key of the purge generation (part of every key).
GENERATION_KEY = "answer_cache_generation"
#: Bump when the key or payload format changes (2: no corpus version in the key; fingerprints; 3: a
#: multi-part message is answered part by part, so an entry answering it as a whole is not served).
FORMAT = 3


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
            law_url=s.get("law_url"),
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
    # the calibrated model's other inputs, when the answer carries them (name -> value)
    extra: dict[str, Any] = {}
    if "features" in conf:
        extra["features"] = tuple((str(k), float(v)) for k, v in conf["features"].items())
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
            conf["score"], conf["band"], conf.get("judge"), conf["retrieval"], conf["self"], **extra
        ),
        as_of=dt.date.fromisoformat(data["as_of"]),
        corpus_version=data["corpus_version"],
        escalation=Escalation(esc["reason"], esc.get("ticket_id"), esc.get("offered", True)) if esc else None,
        warnings=tuple(data.get("warnings", ())),
        language=data.get("language", "id"),
        period=(dt.date.fromisoformat(period[0]), dt.date.fromisoformat(period[1])) if period else None,
        explain=data.get("explain"),
        withheld_summary=data.get("withheld_summary", ""),
        parts=tuple(
            PartAnswer(
                index=int(p["index"]),
                question=p["question"],
                asked=p.get("asked", p["question"]),
                answer=answer_from_json(p["answer"]),
                line=p.get("line", ""),
                claim_numbers=tuple(int(n) for n in p.get("claim_numbers", ())),
            )
            for p in data.get("parts") or ()
        ),
    )


def normalise_question(question: str) -> str:
    """Whitespace-collapsed, case-folded masked question (the question part of the key)."""
    return " ".join(question.split()).casefold()


def cacheable(answer: Answer) -> bool:
    """Only verified answers: ``answered``, at least one shown claim, nothing escalated."""
    return answer.status == "answered" and bool(answer.claims) and answer.escalation is None


def chunk_fingerprint(chunk: Chunk) -> str:
    """What citing a passage depends on: its document, location, wording, provision and validity window."""
    material = [
        chunk.doc_id,
        chunk.location,
        chunk.text,
        chunk.provision,
        chunk.valid_from.isoformat() if chunk.valid_from else None,
        chunk.valid_to.isoformat() if chunk.valid_to else None,
    ]
    return hashlib.sha256(json.dumps(material, ensure_ascii=False).encode()).hexdigest()[:16]


def doc_fingerprint(meta: DocumentMeta) -> str:
    """A document's metadata (status, dates, access, entities, relations ...) as one hash."""
    material = json.dumps(asdict(meta), sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(material.encode()).hexdigest()[:16]


def related_documents(store: KnowledgeStore, doc_ids: Iterable[str]) -> set[str]:
    """``doc_ids`` and the documents a change of them can make wrong: those they amend or revoke.

    For each changed document still in the store: its ``amends``, ``revokes`` and ``revokes_parts``
    (resolved to ids), and the base laws of the provisions its passages restate (``provision``
    ``"uu-8-1983:pasal-7"`` of an amending act's chunk).  Any stored document naming a changed one in
    ``amended_by`` / ``revoked_by`` too (its metadata announced the change).  A removed document's own
    relations are gone with it; the validity windows relinking re-opens are in the impact's documents, and
    verification on read covers the rest.
    """
    from kb.linking import doc_lookup

    ids = set(doc_ids)
    if not ids:
        return ids
    docs = store.list_documents()
    lookup = doc_lookup(docs)
    known = {d.meta.id for d in docs}
    out = set(ids)
    for d in docs:
        meta = d.meta
        if meta.id in ids:
            out.update(t for ref in (*meta.amends, *meta.revokes) if (t := lookup.get(ref)) is not None)
            # an act revoking some Pasal of another ("pp-9-2021:pasal-5") changes that act's answers too
            parts = (revoked_part(part)[0] for part in meta.revokes_parts)
            out.update(t for ref in parts if (t := lookup.get(ref)) is not None)
            for chunk in store.chunks_of(meta.id):
                root = chunk.base_doc
                if root != meta.id and root in known:
                    out.add(root)
        elif any(lookup.get(ref) in ids for ref in (*meta.amended_by, *meta.revoked_by)):
            out.add(meta.id)
    return out


@dataclass(frozen=True)
class CachedAnswer:
    """A cache hit: the answer and the passages (chunk id, score) its run retrieved, in retrieval order.

    ``chunks`` / ``docs``: the passages and documents read back when the hit was verified (so replaying it
    into the ledger reads nothing twice)."""

    answer: Answer
    hits: tuple[tuple[str, float], ...] = ()
    chunks: Mapping[str, Chunk] = field(default_factory=dict)
    docs: Mapping[str, StoredDocument] = field(default_factory=dict)


class AnswerCache:
    """Get and put verified answers; purge all or by document; verify every hit against the store.

    Args:
        store: the knowledge base (purge generation, verification, and the default backend).
        redis: a redis client (``bot.runtime.Runtime.redis``); None keeps entries in ``store``.
        ttl_seconds: lifetime of a Redis entry (the store's entries live until purged or found stale).
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
        self.stale = 0  # entries found stale on read (counted as misses too) and deleted
        self.puts = 0
        self.saved_ms = 0.0
        # documents read for verification, by corpus version (see _document)
        self._docs_version: str | None = None
        self._docs: dict[str, tuple[StoredDocument, str] | None] = {}

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
        """The deterministic key of one question for one reader on one date (any corpus version)."""
        material = {
            "format": FORMAT,
            "namespace": self.namespace,
            "question": normalise_question(question),
            "groups": sorted(principal.groups),
            "entities": sorted(principal.entities),
            "roles": sorted(principal.roles),
            "locale": principal.locale,
            "as_of": as_of.isoformat(),
            "generation": self.generation(),
        }
        return hashlib.sha256(json.dumps(material, sort_keys=True).encode()).hexdigest()

    # --- get / put ---------------------------------------------------------------------------------------
    def get(self, question: str, principal: Principal, as_of: dt.date) -> Answer | None:
        """The cached answer, or None (counted as a miss)."""
        entry = self.lookup(question, principal, as_of)
        return entry.answer if entry is not None else None

    def lookup(self, question: str, principal: Principal, as_of: dt.date) -> CachedAnswer | None:
        """The cached answer with the passages its run retrieved, or None (counted as a miss).

        A stored entry is served only when every passage and document it was made from still has its
        fingerprint; a stale entry is deleted and counted in ``stale`` (and as a miss)."""
        entry: CachedAnswer | None = None
        key, stale, took_ms = "", False, 0.0
        try:
            key = self.key(question, principal, as_of)
            raw = self._read(key)
            if raw is not None:
                data = json.loads(raw)
                entry = self._verified(data)
                took_ms = float(data.get("took_ms") or 0.0)
                if entry is None:
                    stale = True
                    self._drop(key)
        except Exception as exc:  # a cache outage never blocks an answer
            logger.warning("error=%s | answer cache unavailable; answering without it", type(exc).__name__)
            entry = None
        with self._lock:
            if entry is None:
                self.misses += 1
                self.stale += int(stale)
            else:
                self.hits += 1
                self.saved_ms += took_ms
        if stale:
            logger.info("key=%s | cached answer rests on changed passages; dropped", key[:12])
        return entry

    def _verified(self, data: Mapping[str, Any]) -> CachedAnswer | None:
        """The entry when every fingerprint still matches the store, else None."""
        if data.get("format") != FORMAT:
            return None
        chunk_fps: Mapping[str, str] = data.get("chunks") or {}
        doc_fps: Mapping[str, str] = data.get("docs") or {}
        answer = answer_from_json(data["answer"])
        if not chunk_fps or any(c.source.chunk_id not in chunk_fps for c in answer.claims):
            return None
        chunks = self.store.get_chunks(list(chunk_fps))
        for cid, fp in chunk_fps.items():
            chunk = chunks.get(cid)
            if chunk is None or chunk_fingerprint(chunk) != fp:
                return None
        docs: dict[str, StoredDocument] = {}
        version = self.store.corpus_version() if doc_fps else ""
        for doc_id, fp in doc_fps.items():
            known = self._document(doc_id, version)
            if known is None or known[1] != fp:
                return None
            docs[doc_id] = known[0]
        return CachedAnswer(
            answer,
            tuple((str(cid), float(score)) for cid, score in data.get("hits") or ()),
            chunks,
            docs,
        )

    def _document(self, doc_id: str, version: str) -> tuple[StoredDocument, str] | None:
        """The stored document and its fingerprint, remembered per corpus ``version`` (it hashes every
        document's content hash, which covers the metadata, so a document remembered under it is current)."""
        with self._lock:
            if self._docs_version != version:
                self._docs_version, self._docs = version, {}
            if doc_id in self._docs:
                return self._docs[doc_id]
        stored = self.store.get_document(doc_id)
        known = (stored, doc_fingerprint(stored.meta)) if stored is not None else None
        with self._lock:
            if self._docs_version == version:
                self._docs[doc_id] = known
        return known

    def _made_from(
        self, answer: Answer, ledger: Ledger | None
    ) -> tuple[dict[str, str], dict[str, str]] | None:
        """Fingerprints of the passages and documents ``answer`` was made from, as the run read them (so an
        ingest racing the answer cannot hand the entry its newer state); None when a cited one is gone."""
        hits = ledger.hit_objects() if ledger is not None else ()
        chunks: dict[str, Chunk] = {h.chunk.id: h.chunk for h in hits}
        metas: dict[str, DocumentMeta] = {h.doc.id: h.doc for h in hits}
        missing = [c.source.chunk_id for c in answer.claims if c.source.chunk_id not in chunks]
        if missing:
            chunks.update(self.store.get_chunks(missing))
            if any(cid not in chunks for cid in missing):
                return None
        doc_ids = {c.doc_id for c in chunks.values()} | {c.source.doc_id for c in answer.claims}
        doc_ids |= {s.doc_id for conflict in answer.conflicts for s in conflict.sources}
        for doc_id in sorted(doc_ids - metas.keys()):
            stored = self.store.get_document(doc_id)
            if stored is None:
                return None
            metas[doc_id] = stored.meta
        return (
            {cid: chunk_fingerprint(c) for cid, c in sorted(chunks.items())},
            {d: doc_fingerprint(m) for d, m in sorted(metas.items())},
        )

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
        thread the same escalation evidence (:func:`replay_into`), and the entry rests on them too (their
        documents index it, their fingerprints are verified on read)."""
        if not cacheable(answer):
            return False
        try:
            made_from = self._made_from(answer, ledger)
            if made_from is None:
                return False
            chunk_fps, doc_fps = made_from
            key = self.key(question, principal, as_of)
            payload = json.dumps(
                {
                    "format": FORMAT,
                    "answer": answer.to_json(include_timings=False),
                    "hits": [[h.chunk_id, h.score] for h in ledger.hits] if ledger is not None else [],
                    "took_ms": round(float(answer.timings.get("total_ms", 0.0)), 2),
                    "chunks": chunk_fps,
                    "docs": doc_fps,
                },
                ensure_ascii=False,
                sort_keys=True,
            )
            self._write(key, doc_fps, payload)
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
            self.store.cache_answer(key, doc_ids, payload, pinned=False)
            return
        pipe = self.redis.pipeline()
        pipe.set(self.prefix + key, payload, ex=self.ttl_seconds)
        for doc_id in doc_ids:
            index = f"{self.prefix}doc:{doc_id}"
            pipe.sadd(index, key)
            pipe.expire(index, self.ttl_seconds)
        pipe.execute()

    def _drop(self, key: str) -> None:
        if self.redis is None:
            self.store.drop_cached_answer(key)
        else:
            self.redis.delete(self.prefix + key)

    # --- purge -----------------------------------------------------------------------------------------
    def purge_documents(self, doc_ids: Iterable[str], *, related: bool = True) -> int:
        """Delete the entries resting on any of ``doc_ids``; returns how many were deleted.

        ``related``: also the entries resting on the documents they amend or revoke
        (:func:`related_documents`): what an ingest or removal passes.  ``dasar kb cache purge --doc``
        purges exactly the documents named."""
        ids = set(doc_ids)
        if not ids:
            return 0
        if related:
            try:
                ids = related_documents(self.store, ids)
            except Exception as exc:  # the named documents are purged either way; reads verify the rest
                logger.warning("error=%s | documents related to a change not found", type(exc).__name__)
        if self.redis is None:
            removed = self.store.purge_cached_answers(ids)
        else:
            removed = 0
            for doc_id in sorted(ids):
                index = f"{self.prefix}doc:{doc_id}"
                keys = [k.decode() if isinstance(k, bytes) else str(k) for k in self.redis.smembers(index)]
                if keys:
                    removed += int(self.redis.delete(*[self.prefix + k for k in keys]))
                self.redis.delete(index)
        logger.info("docs=%s, entries=%s | answer cache purged for changed documents", len(ids), removed)
        return removed

    def purge(self) -> int:
        """Delete every entry (and start a new generation, so an answer being written now is unreachable).
        Returns the count deleted."""
        new = self.generation() + 1
        self.store.set_meta(GENERATION_KEY, str(new))
        if self.redis is None:
            removed = self.store.purge_cached_answers(None)
        else:
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
                "stale": self.stale,
                "puts": self.puts,
                "hit_rate": round(self.hits / total, 4) if total else 0.0,
                "saved_ms": round(self.saved_ms, 2),
            }


#: the packages whose code and data make an answer (the front ends' rendering is in ``bot`` too)
ENGINE_PACKAGES = ("bot", "kb", "guardrails", "tools", "identity")
_ENGINE_SUFFIXES = (".py", ".yaml", ".yml", ".json")


@functools.lru_cache(maxsize=1)
def engine_fingerprint() -> str:
    """A digest of the code and word lists that make an answer (every ``.py``, ``.yaml`` and ``.json`` file of
    :data:`ENGINE_PACKAGES`, as installed).

    Why: an entry stays valid while its passages do, but an upgrade of dasar changes how the same passages
    are read and worded ("tarifnya 5%" became the rule's own words); without this, a Redis cache kept across a
    deployment served answers of the old code for a week, so the same question, user, date and corpus gave
    two different answers.  Read once per process (about two megabytes)."""
    return code_fingerprint(Path(__file__).resolve().parents[1])


def code_fingerprint(root: Path) -> str:
    """The digest :func:`engine_fingerprint` takes of the packages under ``root``."""
    digest = hashlib.sha256()
    for package in ENGINE_PACKAGES:
        base = root / package
        for path in sorted(base.rglob("*")):
            if path.suffix in _ENGINE_SUFFIXES and path.is_file() and "__pycache__" not in path.parts:
                digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def answer_cache_for(
    settings: Any, store: KnowledgeStore | Callable[[], KnowledgeStore], redis: Any | None = None
) -> AnswerCache | None:
    """The deployment's cache: None with ``DASAR_ANSWER_CACHE=false``; Redis when ``DASAR_REDIS_URL`` is set
    (``redis``: the process's client, else one is made), else the knowledge store (or a callable giving it,
    called on first use).  The namespace is the composer and the code (:func:`engine_fingerprint`), so answers
    of the extractive path and of an LLM, or of two versions of dasar, never share entries."""
    if not getattr(settings, "answer_cache", True):
        return None
    if redis is None and settings.redis_url is not None:
        from bot.slack.redis_backends import redis_client

        redis = redis_client(settings.redis_url.get_secret_value())
    return AnswerCache(
        store,
        redis=redis,
        ttl_seconds=int(getattr(settings, "answer_cache_ttl_seconds", 7 * 86400)),
        namespace=f"{getattr(settings, 'composer', '')}@{engine_fingerprint()}",
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
    known = cached.chunks
    chunks = dict(known) if all(cid in known for cid in order) else store.get_chunks(order)
    docs: dict[str, Any] = dict(cached.docs)
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
