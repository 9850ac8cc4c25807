"""The channel-neutral turn: verified envelope -> principal -> mask/refuse -> answer -> verify -> reply.

Every front end (Slack, Teams, CLI chat) calls ``Turn.handle`` with an ``InboundMessage`` built from a
verified platform envelope and renders the ``Reply``.  Nothing here reads identity from the message
text or from a model: the principal is resolved from ``(platform, tenant, user_id)`` only.

Order of operations (one way, no shortcuts); this is the only place policy lives, for every platform:

1. resolve the principal (identity); unknown users are guests, directory outages fail closed;
2. normalise the text (NFKC, zero-width characters removed, Unicode spaces mapped), then inspect it
   (guardrails): secrets -> refused, nothing stored; PII -> masked with placeholders stable within the
   conversation; instruction-like text -> flagged, still treated as data;
3. a reply by the asker to their waiting ticket goes to the ticket (masked); an escalation request
   ("/ticket", "ya, teruskan ke tim pajak", "please escalate") escalates the thread -- only its asker
   may, with their own question and evidence; per-person rate limit;
4. answer the masked question (``bot.answer.parts.answer_message``: a message of several questions part by
   part, each through ``bot.answer.pipeline``) for the reader scope of everyone the reply
   reaches (``InboundMessage.audience``: a shared conversation's common groups and entities), the
   asker's full answer offered privately when it differs; the turn's ledger records every retrieval;
5. open a ticket for low-confidence, out-of-scope, advice and protected-determination turns when the
   principal may escalate (idempotent per thread), with evidence from the ledger filtered to what the
   tax team may read ("N restricted sources" otherwise);
6. record masked history, the thread's asker, and an audit record (ids, hashes, statuses; never raw text).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import logging
import re
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from bot.answer.model import Answer
from bot.answer.parts import answer_message
from bot.answer_cache import AnswerCache, replay_into
from bot.audit import AuditLog, AuditRecord, MemoryAuditLog, question_hash
from bot.history import History, HistoryEntry, MemoryHistory, conversation_key
from bot.messages import InboundMessage, Reply
from bot.slack.ratelimit import NoticeGate
from guardrails.inbound import inspect
from guardrails.injection import normalise
from guardrails.pii import MaskingSession
from identity.principal import EVERYONE, Principal, VerifiedEnvelope
from kb.scope import ReaderScope
from tickets.errors import StoreError as TicketStoreError
from tickets.model import Evidence, Requester, ThreadRef
from tools.access import reader_scope, ticket_reader
from tools.build import build_tools
from tools.deps import ToolDeps
from tools.ledger import Ledger

logger = logging.getLogger(__name__)

#: Retrieval candidates a ticket keeps per question of the message: one question's search plus the passages
#: its quotes link to (definitions, a referenced Pasal in each of its versions) can run past 20.
CANDIDATES_PER_PART = 30
#: Reasons for which a turn opens a ticket by itself (no_source is only offered; the user decides).
AUTO_TICKET_REASONS = frozenset(
    {"low_confidence", "out_of_scope", "advice", "protected_determination", "answer_failed"}
)

_REFUSED_TEXT = {
    "id": "Pesan Anda tidak diproses karena berisi data rahasia ({kinds}). Hapus pesan tersebut dan jangan "
    "membagikan kata sandi, kunci, token, atau CVV di chat.",
    "en": "Your message was not processed because it contains a secret ({kinds}). Please delete it and never "
    "share passwords, keys, tokens or card CVV in chat.",
}
_TICKET_TEXT = {
    "id": "Tiket {ticket} dibuat untuk tim pajak; jawabannya akan dikirim ke utas ini.",
    "en": "Ticket {ticket} was opened for the tax team; their answer will come back to this thread.",
}
_NO_ESCALATE_TEXT = {
    "id": "Anda belum terdaftar untuk membuat tiket; hubungi tim pajak secara langsung.",
    "en": "You are not registered to open tickets; please contact the tax team directly.",
}
_FOLLOW_UP_TEXT = {
    "id": "Balasan Anda ditambahkan ke tiket {ticket}; tim pajak akan menindaklanjuti di utas ini.",
    "en": "Your reply was added to ticket {ticket}; the tax team will follow up in this thread.",
}
_TICKET_UPDATED_TEXT = {
    "id": "Tiket {ticket} diperbarui dengan pertanyaan baru Anda; tim pajak akan menjawab di utas ini.",
    "en": "Ticket {ticket} was updated with your new question; the tax team will answer in this thread.",
}
_NOT_ASKER_TEXT = {
    "id": "Hanya orang yang mengajukan pertanyaan ini yang dapat meneruskannya ke tim pajak. Ajukan "
    "pertanyaan Anda sendiri bila Anda juga memerlukannya.",
    "en": "Only the person who asked this question can send it to the tax team. Ask your own question if "
    "you need it too.",
}
_NOTHING_TO_ESCALATE = {
    "id": "Belum ada pertanyaan di utas ini untuk diteruskan; tulis pertanyaan Anda dulu.",
    "en": "There is no question in this thread to send yet; please write your question first.",
}
_RATE_LIMITED_TEXT = {
    "id": "Terlalu banyak pertanyaan dalam waktu singkat; coba lagi dalam {seconds} detik.",
    "en": "Too many questions in a short time; please try again in {seconds} seconds.",
}

_INJECTION_WARNING = {
    "id": "Instruksi di dalam pesan Anda diperlakukan sebagai data dan tidak diikuti.",
    "en": "Instructions inside your message were treated as data and not followed.",
}


class Turn:
    """Implements ``bot.messages.TurnService`` over the services of one process."""

    def __init__(
        self,
        services: Any,
        *,
        resolver: Any,
        tickets: Any | None = None,
        history: History | None = None,
        audit: AuditLog | None = None,
        composer_factory: Callable[[Principal], Any] | None = None,
        today: Callable[[], dt.date] | None = None,
        max_sessions: int = 5000,
        rate_limiter: Any | None = None,
        ticket_audience: ReaderScope | None = None,
        notice_gate: NoticeGate | None = None,
        answer_cache: AnswerCache | None = None,
    ) -> None:
        self.services = services
        self.resolver = resolver
        self.tickets = tickets
        self.history = history if history is not None else MemoryHistory()
        self.audit = audit if audit is not None else MemoryAuditLog()
        self.composer_factory = composer_factory
        self.today = today or dt.date.today
        self._sessions: OrderedDict[str, MaskingSession] = OrderedDict()
        self._sessions_lock = threading.Lock()
        self._max_sessions = max_sessions
        self.rate_limiter = rate_limiter
        self.notice_gate = notice_gate if notice_gate is not None else NoticeGate()
        self.ticket_audience = ticket_audience
        #: Verified answers served again for the same masked question, reader scope, date and corpus
        #: (None: every question is answered afresh).
        self.answer_cache = answer_cache

    # --- helpers ---------------------------------------------------------------------------------

    def principal_for(self, message: InboundMessage) -> Principal:
        principal: Principal = self.resolver.resolve(
            VerifiedEnvelope(platform=message.platform, tenant=message.tenant, user_id=message.user_id)
        )
        return principal

    def _session(self, key: str) -> MaskingSession:
        """Placeholders stay stable within one conversation; raw values live only in this process's memory."""
        with self._sessions_lock:
            session = self._sessions.pop(key, None) or MaskingSession()
            self._sessions[key] = session
            while len(self._sessions) > self._max_sessions:
                self._sessions.popitem(last=False)
            return session

    @staticmethod
    def _key(message: InboundMessage) -> str:
        return conversation_key(message.platform, message.tenant, message.user_id, message.thread_id)

    @staticmethod
    def _thread_key(message: InboundMessage) -> str:
        """The thread's own record (who asked its last question), shared by everyone in the thread."""
        return conversation_key(
            message.platform, message.tenant, "\x00thread", f"{message.channel}\x00{message.thread_id}"
        )

    @staticmethod
    def _direct_key(message: InboundMessage) -> str:
        """The last answered question of a direct conversation, whatever thread it was in."""
        return conversation_key(
            message.platform, message.tenant, message.user_id, f"\x00direct\x00{message.channel}"
        )

    def _answer(
        self, question: str, principal: Principal, as_of: dt.date | None, ledger: Ledger | None = None
    ) -> Answer:
        """The answer for ``principal``: from the answer cache when it holds this question for this reader and
        date (verified against the passages it rests on), else answered afresh (and cached when verified)."""
        cache = self.answer_cache
        if cache is None:
            return self._answer_fresh(question, principal, as_of, ledger)
        day = as_of or self.today()
        t0 = time.perf_counter()
        cached = cache.lookup(question, principal, day)
        if cached is not None:
            if ledger is not None:  # the thread's escalation evidence, as the answering run recorded it
                replay_into(ledger, cached, self.services.store)
            return cached.answer.with_timings({"cache_ms": _ms(t0), "total_ms": _ms(t0)})
        answer = self._answer_fresh(question, principal, as_of, ledger)
        cache.put(question, principal, day, answer, ledger)
        return answer

    def purge_answer_cache(self, doc_ids: Iterable[str] | None = None) -> int:
        """Drop cached answers citing ``doc_ids`` (all when None); 0 without a cache. For FAQ and corpus
        changes made inside this process (ingest and ``dasar kb cache purge`` reach the cache directly)."""
        if self.answer_cache is None:
            return 0
        if doc_ids is None:
            return self.answer_cache.purge()
        return self.answer_cache.purge_documents(doc_ids)

    def _answer_fresh(
        self, question: str, principal: Principal, as_of: dt.date | None, ledger: Ledger | None = None
    ) -> Answer:
        composer = self.composer_factory(principal) if self.composer_factory else None
        return answer_message(
            question,
            principal,
            self.services,
            as_of=as_of,
            composer=composer,
            today=self.today(),
            ledger=ledger,
        )

    # --- TurnService -------------------------------------------------------------------------------

    def handle(self, message: InboundMessage) -> Reply:
        t0 = time.perf_counter()
        ref = uuid.uuid4().hex[:10]
        principal = self.principal_for(message)
        key = self._key(message)
        message = dataclasses.replace(message, text=normalise(message.text))
        inspection = inspect(message.text, self._session(key))
        pii_types = tuple(sorted({e.type for e in inspection.entities}))
        if inspection.refused:
            kinds = ", ".join(inspection.refusal_kinds)
            refused = refused_answer(
                inspection.refusal_kinds, message.text, self.today(), self.services.store.corpus_version()
            )
            text = refused["answer"]
            self.audit.write(
                AuditRecord(
                    at=_now(),
                    reference_id=ref,
                    principal_id=principal.id,
                    platform=message.platform,
                    question_hash="",
                    status="refused",
                    pii_types=pii_types,
                    timings_ms={"total": _ms(t0)},
                )
            )
            logger.info("ref=%s, kinds=%s | message refused: secret", ref, kinds)
            return Reply(answer=refused, text=text, status="refused", reference_id=ref)

        masked = inspection.masked
        followed = self._ticket_follow_up(message, principal, masked, ref)
        if followed is not None:
            return followed
        if is_escalation_request(masked):
            return self.escalate(message)
        limited = self._rate_limited(message, principal, ref)
        if limited is not None:
            return limited
        recent = self.history.recent(key)
        question = _merge_follow_up(masked, recent)
        self.history.append(key, HistoryEntry(role="user", text=masked, at=time.time()))

        viewer = _viewer(principal, message)
        ledger = Ledger()
        answer = self._answer(question, viewer, message.as_of, ledger)
        private = None
        if viewer is not principal and (
            viewer.groups != principal.groups or viewer.entities != principal.entities
        ):
            full = self._answer(question, principal, message.as_of)
            if full.to_json(include_timings=False) != answer.to_json(include_timings=False):
                private = full.to_json()
        if inspection.injection.flagged:
            answer = dataclasses.replace(
                answer, warnings=(*answer.warnings, _INJECTION_WARNING[answer.language])
            )

        ticket_id = None
        reason = answer.escalation.reason if answer.escalation else None
        extra_text = ""
        evidence = self._evidence(ledger, principal, parts=len(answer.parts))
        # the parts of a multi-part message no source answered (what a ticket, now or later, asks)
        open_parts = {"open_parts": unanswered} if (unanswered := _open_parts(answer)) else {}
        if reason in AUTO_TICKET_REASONS:
            if self.tickets is not None and principal.may_escalate:
                ticket_id = self._open_ticket(
                    message, principal, question, answer, reason or "user_request", ledger, evidence
                )
                extra_text = _TICKET_TEXT[answer.language].format(ticket=ticket_id)
            elif not principal.may_escalate:
                extra_text = _NO_ESCALATE_TEXT[answer.language]
        if ticket_id and answer.escalation is not None:
            answer = dataclasses.replace(
                answer, escalation=dataclasses.replace(answer.escalation, ticket_id=ticket_id, offered=False)
            )
        payload = answer.to_json()
        if extra_text:
            payload["answer"] = f"{payload['answer']}\n\n{extra_text}"
        self.history.append(
            key,
            HistoryEntry(
                role="assistant",
                text=_summary(answer),
                at=time.time(),
                status=answer.status,
                meta=json.dumps(
                    {
                        "question": question,
                        "reason": reason,
                        "ticket_id": ticket_id,
                        "claims": [
                            c["source"]["doc_id"] + " " + c["source"]["location"] for c in payload["claims"]
                        ],
                        "evidence": evidence,
                        **open_parts,
                    },
                    ensure_ascii=False,
                ),
            ),
        )
        # the thread's record: who asked its last question (only they may escalate it), and what was found
        record = HistoryEntry(
            role="assistant",
            text="",
            at=time.time(),
            status=answer.status,
            meta=json.dumps(
                {
                    "asker": principal.id,
                    "question": question,
                    "evidence": evidence,
                    "ticket_id": ticket_id,
                    **open_parts,
                },
                ensure_ascii=False,
            ),
        )
        self.history.append(self._thread_key(message), record)
        if message.is_direct:  # in a DM "tolong eskalasi" is often a new message, not a reply in the thread
            self.history.append(self._direct_key(message), record)
        self.audit.write(
            AuditRecord(
                at=_now(),
                reference_id=ref,
                principal_id=principal.id,
                platform=message.platform,
                question_hash=question_hash(question),
                status=answer.status,
                cited_documents=tuple(sorted({c.source.doc_id for c in answer.claims})),
                cited_chunks=tuple(
                    c.source.chunk_id for c in answer.claims if getattr(c.source, "chunk_id", None)
                ),
                ticket_id=ticket_id,
                escalation_reason=reason,
                injection_flags=inspection.injection.rule_ids,
                pii_types=pii_types,
                timings_ms={"total": _ms(t0), **{k: round(v, 2) for k, v in answer.timings.items()}},
            )
        )
        return Reply(
            answer=payload,
            text=payload["answer"],
            status=answer.status,
            ticket_id=ticket_id,
            private_answer=private,
            reference_id=ref,
        )

    def escalate(self, message: InboundMessage, note: str | None = None) -> Reply:
        """Open (or update) the thread's ticket for the person who asked its last question.

        Only that asker may escalate, with their own question and its evidence; a bystander's click is
        refused.  A second escalation in the same thread with a new question updates the ticket.
        """
        principal = self.principal_for(message)
        key = self._key(message)
        lang = "en" if _looks_english(message.text or note or "") else "id"
        if self.tickets is None or not principal.may_escalate:
            return self._notice("abstained", _NO_ESCALATE_TEXT[lang], lang)
        thread = _last_meta(self.history.recent(self._thread_key(message)))
        own = _last_meta(self.history.recent(key))
        if message.is_direct and not own.get("question") and not thread.get("question"):
            own = _last_meta(self.history.recent(self._direct_key(message)))  # a new DM message, not a reply
        asked_here = bool(own.get("question"))  # the clicker asked a question of their own in this thread
        if not asked_here and thread.get("asker") and thread["asker"] != principal.id:
            logger.info("status=escalation_refused | only the asker may escalate this thread")
            self.audit.write(
                AuditRecord(
                    at=_now(),
                    reference_id=uuid.uuid4().hex[:10],
                    principal_id=principal.id,
                    platform=message.platform,
                    question_hash="",
                    status="escalation_refused",
                )
            )
            return self._notice("abstained", _NOT_ASKER_TEXT[lang], lang)
        meta = own if asked_here else thread
        text = normalise(message.text or "")
        typed = (
            ""
            if not text.strip() or is_escalation_request(text)
            else inspect(text, self._session(key)).masked
        )
        question = str(meta.get("question") or typed)
        if not question.strip():
            return self._notice("abstained", _NOTHING_TO_ESCALATE[lang], lang)
        masked_note = inspect(normalise(note), self._session(key)).masked if note else None
        evidence = meta.get("evidence") or {}
        carried = Ledger()
        carried.carry(
            Evidence.of(
                claims=evidence.get("claims", ()),
                citations=evidence.get("citations", ()),
                candidates=evidence.get("candidates", ()),
            ),
            restricted=int(evidence.get("restricted") or 0),
        )
        summary = _naming_open_parts(
            masked_note or "requester asked for the tax team", [str(p) for p in meta.get("open_parts") or []]
        )
        ticket_id, created = self._file_ticket(
            message,
            principal,
            question,
            carried,
            "user_request",
            summary,
            evidence.get("topic"),
        )
        ticket = self.tickets.get(ticket_id)
        if created:
            text_out = _TICKET_TEXT[lang].format(ticket=ticket.id)
        elif question.strip() != ticket.question_masked.strip():
            self.tickets.add_note(ticket.id, principal.id, f"New question from the requester: {question}")
            text_out = _TICKET_UPDATED_TEXT[lang].format(ticket=ticket.id)
        else:
            text_out = _TICKET_TEXT[lang].format(ticket=ticket.id)
        answer = _bare_answer("escalated", text_out, self.today(), self.services.store.corpus_version(), lang)
        answer["escalation"] = {"reason": "user_request", "ticket_id": ticket.id, "offered": False}
        self.audit.write(
            AuditRecord(
                at=_now(),
                reference_id=uuid.uuid4().hex[:10],
                principal_id=principal.id,
                platform=message.platform,
                question_hash=question_hash(question),
                status="escalated",
                ticket_id=ticket.id,
                escalation_reason="user_request",
            )
        )
        return Reply(answer=answer, text=text_out, status="escalated", ticket_id=ticket.id)

    def _notice(self, status: str, text: str, lang: str) -> Reply:
        answer = _bare_answer(status, text, self.today(), self.services.store.corpus_version(), lang)
        return Reply(answer=answer, text=text, status=status)

    def _rate_limited(self, message: InboundMessage, principal: Principal, ref: str) -> Reply | None:
        """Per-person question rate, the same for every platform (None: go ahead)."""
        if self.rate_limiter is None:
            return None
        decision = self.rate_limiter.hit(principal.id)
        if decision.allowed:
            return None
        lang = "en" if _looks_english(message.text) else "id"
        text = _RATE_LIMITED_TEXT[lang].format(seconds=decision.retry_after_seconds)
        self.audit.write(
            AuditRecord(
                at=_now(),
                reference_id=ref,
                principal_id=principal.id,
                platform=message.platform,
                question_hash="",
                status="rate_limited",
            )
        )
        reply = self._notice("rate_limited", text, lang)
        # flood control: one notice per person per window, the other rejections of that window are silent
        window = float(getattr(self.rate_limiter, "window_seconds", decision.retry_after_seconds))
        silent = not self.notice_gate.should_notify(principal.id, window)
        if silent:
            logger.info("ref=%s | rate limited, notice already given in this window", ref)
        return dataclasses.replace(reply, reference_id=ref, silent=silent)

    def _evidence(self, ledger: Ledger, asker: Principal, parts: int = 0) -> dict[str, Any]:
        """The turn's evidence (:meth:`tools.ledger.Ledger.evidence`, the one builder), filtered to what the
        tax team may read; the rest is only counted (``restricted``), so a card never shows a management-only
        policy or another entity's procedure to people who cannot read it.  ``parts``: the questions of a
        multi-part message, each searched on its own (``CANDIDATES_PER_PART`` each)."""
        readable = ticket_reader(asker, self._tool_deps())
        out: dict[str, Any] = ledger.evidence(readable).to_json()
        out["candidates"] = out["candidates"][: CANDIDATES_PER_PART * max(1, parts)]
        out["restricted"] = ledger.restricted_sources(readable)
        out["topic"] = next((c.get("doc_number") for c in out["citations"] if c.get("doc_number")), None)
        return out

    def feedback(self, message: InboundMessage, helpful: bool) -> None:
        principal = self.principal_for(message)
        self.audit.write(
            AuditRecord(
                at=_now(),
                reference_id=message.message_id,
                principal_id=principal.id,
                platform=message.platform,
                question_hash="",
                status="feedback:helpful" if helpful else "feedback:not_helpful",
            )
        )

    # --- tickets -------------------------------------------------------------------------------------

    def _ticket_follow_up(
        self, message: InboundMessage, principal: Principal, masked: str, ref: str
    ) -> Reply | None:
        """The asker replying in a thread whose ticket waits for them (or was answered) writes to it."""
        if self.tickets is None:
            return None
        thread = ThreadRef(
            platform=message.platform,
            tenant=message.tenant,
            channel=message.channel,
            thread_id=message.thread_id,
        )
        try:
            ticket = self.tickets.find_by_thread(thread)
        except TicketStoreError as exc:  # the ticket store is down: never block an ordinary answer
            logger.warning("error=%s | ticket store unavailable; answering without ticket follow-up", exc)
            return None
        if ticket is None or ticket.status not in ("needs_info", "answered"):
            return None
        if ticket.requester.principal_id != principal.id:
            return None
        self.tickets.requester_reply(ticket.id, masked)
        lang = "en" if _looks_english(masked) else "id"
        text = _FOLLOW_UP_TEXT[lang].format(ticket=ticket.id)
        answer = _bare_answer("escalated", text, self.today(), self.services.store.corpus_version(), lang)
        answer["escalation"] = {"reason": ticket.reason, "ticket_id": ticket.id, "offered": False}
        self.audit.write(
            AuditRecord(
                at=_now(),
                reference_id=ref,
                principal_id=principal.id,
                platform=message.platform,
                question_hash=question_hash(masked),
                status="ticket_reply",
                ticket_id=ticket.id,
            )
        )
        return Reply(answer=answer, text=text, status="escalated", ticket_id=ticket.id, reference_id=ref)

    def _open_ticket(
        self,
        message: InboundMessage,
        principal: Principal,
        question: str,
        answer: Answer,
        reason: str,
        ledger: Ledger,
        evidence: dict[str, Any],
    ) -> str:
        """Escalate a question the turn could not answer (no source, low confidence, advice ...)."""
        gap = {
            "low_confidence": f"confidence {answer.confidence.band} ({answer.confidence.score:.2f})",
            "out_of_scope": "question outside the knowledge base's scope",
            "advice": "advice / planning request: needs the tax team's judgement",
            "protected_determination": "protected determination: only the tax team decides",
            "answer_failed": "the answering model failed: no answer was composed or verified",
        }.get(reason, reason)
        gap = _naming_open_parts(gap, _open_parts(answer))  # what the tax team is asked to answer
        ticket_id, _created = self._file_ticket(
            message, principal, question, ledger, reason, gap, evidence.get("topic")
        )
        return ticket_id

    def _tool_deps(self, **turn_facts: Any) -> ToolDeps:
        """The tools' dependencies for this turn: shared clients, today, the ticket audience, plus facts."""
        return ToolDeps(
            retriever=self.services.retriever,
            store=self.services.store,
            default_as_of=self.today(),
            ticket_audience=self.ticket_audience,
            **turn_facts,
        )

    def _file_ticket(
        self,
        message: InboundMessage,
        principal: Principal,
        question: str,
        ledger: Ledger,
        reason: str,
        gap: str,
        topic: str | None,
    ) -> tuple[str, bool]:
        """The one way a ticket is opened: the ``create_ticket`` closure tool over ``ledger`` (one evidence
        builder, filtered to what the tax team may read).  Returns the ticket id and whether it is new."""
        deps = self._tool_deps(
            question_masked=question,
            tickets=self.tickets,
            thread=_thread_ref(message),
            requester=_requester(message, principal),
            facts=tuple(e.text for e in self.history.recent(self._key(message)) if e.role == "user")[-5:],
            topic=topic,
        )
        tools = build_tools(principal, deps, ledger=ledger)
        outcome = tools.get("create_ticket").invoke({"summary": gap[:1000], "reason": reason})
        opened = [t for t in ledger.tickets if t.action in ("opened", "evidence_added")]
        if not opened:
            raise RuntimeError(f"create_ticket did not open a ticket: {outcome.text[:200]}")
        return opened[-1].ticket_id, opened[-1].action == "opened"


# --- small pure helpers ------------------------------------------------------------------------------


def _viewer(principal: Principal, message: InboundMessage) -> Principal:
    """The principal narrowed to everyone the reply reaches (a shared conversation's common scope)."""
    if message.audience is None and message.audience_groups is None:
        return principal
    scope = reader_scope(principal, audience=message.audience)
    groups = scope.groups if message.audience_groups is None else scope.groups & message.audience_groups
    return dataclasses.replace(principal, groups=groups | {EVERYONE}, entities=scope.entities)


def _thread_ref(message: InboundMessage) -> ThreadRef:
    return ThreadRef(
        platform=message.platform, tenant=message.tenant, channel=message.channel, thread_id=message.thread_id
    )


def _requester(message: InboundMessage, principal: Principal) -> Requester:
    return Requester(
        principal_id=principal.id,
        platform=message.platform,
        tenant=message.tenant,
        user_id=message.user_id,
        email=principal.email,
        display_name=principal.display_name,
    )


def _last_meta(entries: list[HistoryEntry]) -> dict[str, Any]:
    """The meta of the latest assistant record that has one ({} when none)."""
    last = next((e for e in reversed(entries) if e.role == "assistant" and e.meta), None)
    if last is None or not last.meta:
        return {}
    data = json.loads(last.meta)
    return data if isinstance(data, dict) else {}


#: A chat message that only asks for the tax team does what ``/ticket`` does (both languages).
_ESCALATION_REQUEST = re.compile(
    r"^(?:(?:ya|iya|ok|oke|baik|yes|yeah|sure|please|pls|tolong|mohon|bisa)\b[\s,.!]*)*"
    r"(?:/ticket|/escalate|teruskan|eskalasi(?:kan)?|escalate|forward(?: it| this)?|ask the tax team|"
    r"tanya(?:kan)? (?:ke )?tim pajak|hubungkan (?:ke|dengan) tim pajak)"
    r"(?:\s+(?:ini|itu|it|this|saja|aja|dong|ya|please|pertanyaan (?:ini|saya)|my question))*"
    r"(?:\s+(?:ke|kepada|to)\s+(?:the\s+)?(?:tim pajak|tax team|tax))?"
    r"(?:\s+(?:ya|dong|saja|aja|please|sekarang|now))*[\s.!]*$",
    re.IGNORECASE,
)


def is_escalation_request(text: str) -> bool:
    """True for "ya, teruskan ke tim pajak", "tolong eskalasi", "please escalate", "/ticket" and the like --
    messages that only ask for a human, never a question that mentions escalation."""
    return bool(_ESCALATION_REQUEST.match(" ".join(normalise(text).split())))


def _merge_follow_up(masked: str, recent: list[HistoryEntry]) -> str:
    """A reply to a clarifying question completes the earlier question instead of starting a new one."""
    last_assistant = next((e for e in reversed(recent) if e.role == "assistant"), None)
    if last_assistant is None or last_assistant.status != "clarify" or not last_assistant.meta:
        return masked
    earlier = json.loads(last_assistant.meta).get("question") or ""
    return f"{earlier} {masked}".strip()


def _open_parts(answer: Answer) -> list[str]:
    """The parts of a multi-part message that are not answered while another is ("2. <question>"); [] when
    every part, or none, is answered (the whole message is then the ticket's question)."""
    open_parts = [p for p in answer.parts if p.status != "answered"]
    if not open_parts or len(open_parts) == len(answer.parts):
        return []
    return [f"{p.index}. {' '.join(p.question.split())[:200]}" for p in open_parts]


def _naming_open_parts(gap: str, open_parts: list[str]) -> str:
    """A ticket's gap text, naming the open parts of a multi-part message when there are any."""
    return f"{gap}; open parts of the message: {'; '.join(open_parts)}" if open_parts else gap


def _summary(answer: Answer) -> str:
    return f"[{answer.status}] " + "; ".join(
        f"{c.source.number} {c.source.location}" for c in answer.claims[:5]
    )


def refused_answer(kinds: Sequence[str], message: str, as_of: dt.date, corpus_version: str) -> dict[str, Any]:
    """The answer object for a message refused because it holds a secret (every front end, the CLI too)."""
    lang = "en" if _looks_english(message) else "id"
    return _bare_answer(
        "refused", _REFUSED_TEXT[lang].format(kinds=", ".join(kinds)), as_of, corpus_version, lang
    )


def _bare_answer(status: str, text: str, as_of: dt.date, corpus_version: str, lang: str) -> dict[str, Any]:
    return {
        "status": status,
        "answer": text,
        "claims": [],
        "unsupported_claims": [],
        "clarifying_questions": [],
        "conflicts": [],
        "confidence": {"score": 0.0, "band": "low", "judge": None, "retrieval": 0.0, "self": 0.0},
        "as_of": as_of.isoformat(),
        "corpus_version": corpus_version,
        "escalation": None,
        "warnings": [],
        "language": lang,
        "period": None,
        "timings": {},
    }


def _looks_english(text: str) -> bool:
    from kb.query import detect_language

    return detect_language(text) == "en"


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def _ms(t0: float) -> float:
    return round((time.perf_counter() - t0) * 1000, 2)
