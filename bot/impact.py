"""Who relied on what a corpus change changed: approved FAQs, open tickets and recent answers.

:mod:`kb.impact` says which chunks an ingest or removal changed (wording, validity window, removed).
This module finds everything outside the knowledge base that cites them:

* approved (in-force) FAQs whose ``## Sumber`` lines cite a changed provision -- they are withdrawn for
  review (:meth:`bot.faq.FaqService.mark_needs_review`: status ``needs_review``, no longer answering; the
  answer cache drops the answers resting on them) and their owner gets a card (see Notices);
* open tickets (``open``, ``claimed``, ``needs_info``) whose evidence claims, citations or answer sources
  cite one (matched by chunk id, else by document and location) -- each gets a note, which updates its
  card in the tax-team channel through the ticket outbox;
* answers of the last ``days`` days in the audit log (read only) whose cited chunks changed.

Notices: each withdrawn FAQ's owner and each affected ticket's assignee (when it has one) gets a Teams
card through the ticket outbox (:class:`tickets.outbox.Notice`, kind ``notice_card``, built by
:func:`bot.teams.cards.impact_notice_card`): what changed (documents, provisions), which FAQ or ticket it
affects, what to do, with an @mention of the person (their Entra ID object id from the directory, else
their e-mail as UPN).  The outbox key is ``notice:{impact_id}:{subject}:{recipient}``, where the impact
id is a hash of the chunk changes that subject relies on (:func:`_relevant_id`), so assessing the same
change again (``record`` run twice, ``catch_up`` after an interrupted run) queues no second card, and the
ticket note carries the same id so it is not written twice either.  (The flip side: should exactly the
same chunk change happen to the same subject again -- an act removed and re-ingested -- no second card
is sent; the FAQ is still withdrawn and listed.)  The Teams outbox worker posts the cards to the tax-team
channel (:class:`bot.teams.outbox_worker.NoticeSender`), retried and de-duplicated like ticket cards.
The report lists them (``notices``).

A citation matches a changed chunk when it names the chunk itself, or the same document (canonical number
or id) and a location that is the chunk's, a part of it or contains it ("Pasal 23" matches a changed
"Pasal 23 ayat (2)"; "Pasal 23 ayat (1)" does not).  A citation of a whole document matches only when the
document was removed.  Chunks that were only added cite nothing yet and are ignored.

Each assessment is appended to a JSON-lines :class:`ImpactLog` (``impact.jsonl`` in the data folder) that
``dasar kb impact`` prints.  The store keeps a baseline snapshot of the corpus (meta ``impact_baseline``):
:func:`catch_up` assesses whatever changed since the last assessment, so changes made by any ingest,
removal or FAQ approval are listed even when their command did not call :func:`record` itself.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from kb.impact import ChunkChange, ChunkState, Impact, Snapshot, diff, snapshot
from kb.refs import find_doc_refs, key_from_doc_id, parse_doc_ref
from kb.store.protocol import KnowledgeStore
from tickets.model import ACTIVE_STATUSES
from tickets.outbox import KIND_NOTICE, Notice

logger = logging.getLogger(__name__)

#: Store meta key of the corpus snapshot the last assessment ended with.
BASELINE_KEY = "impact_baseline"
#: How far back the audit log counts as "recent answers".
RECENT_DAYS = 90
#: Who writes the note on an affected ticket, and what it says (the card shows notes to the tax team).
NOTE_ACTOR = "dasar"
TICKET_NOTE = (
    "Knowledge-base change / perubahan basis pengetahuan: {citations} changed with {documents}. "
    "Check this ticket's evidence before answering. (impact {impact_id})"
)


def changes_id(changes: Iterable[ChunkChange]) -> str:
    """A stable id of a set of chunk changes: the same changes (however often assessed) give the same id."""
    rows = sorted({json.dumps(c.to_json(), sort_keys=True) for c in changes})
    return hashlib.sha256("\n".join(rows).encode()).hexdigest()[:16]


def impact_id(impact: Impact) -> str:
    """The id of an assessed change (:func:`changes_id` of all its chunk changes)."""
    return changes_id(impact.changes)


def _relevant_id(changed: Sequence[Changed], chunk_ids: Iterable[str]) -> str:
    """:func:`changes_id` of the changes one FAQ or ticket relies on: what its note and card are keyed by.

    Keyed by what changed for THIS subject, not by the whole assessment: a re-assessment of the same
    change that also sees other changes (``catch_up`` after an interrupted ``record`` also sees the
    withdrawn FAQs' own chunks) gives the same key, so no second card or note.
    """
    wanted = set(chunk_ids)
    return changes_id(c.change for c in changed if c.chunk_id in wanted)


@dataclass(frozen=True)
class Changed:
    """A changed chunk with the document key citations name it by."""

    change: ChunkChange
    doc_key: str | None

    @property
    def chunk_id(self) -> str:
        return self.change.chunk_id


@dataclass(frozen=True)
class Citation:
    """One thing an FAQ, ticket or answer cites: a chunk id and/or a document with a location."""

    label: str
    chunk_id: str | None = None
    doc_id: str | None = None
    doc_key: str | None = None
    location: str | None = None


def _norm(text: str | None) -> str:
    return " ".join((text or "").split()).casefold()


def _location_related(cited: str, changed: str) -> bool:
    """Same location, or one is a part of the other ("Pasal 23" / "Pasal 23 ayat (2)")."""
    a, b = _norm(cited), _norm(changed)
    return a == b or b.startswith(a + " ") or a.startswith(b + " ")


def cites(citation: Citation, changed: Changed) -> bool:
    """Does ``citation`` rely on the changed chunk (see the module docstring for the rule)?"""
    ch = changed.change
    if citation.chunk_id and citation.chunk_id == ch.chunk_id:
        return True
    same_doc = (citation.doc_id is not None and citation.doc_id == ch.doc_id) or (
        citation.doc_key is not None and citation.doc_key == changed.doc_key
    )
    if not same_doc:
        return False
    if not _norm(citation.location):
        return ch.kind == "removed"
    return _location_related(citation.location or "", ch.location)


def changed_chunks(impact: Impact, store: KnowledgeStore) -> list[Changed]:
    """The impact's changes that existing citations may be wrong about (added chunks left out)."""
    keys: dict[str, str | None] = {}
    out: list[Changed] = []
    for c in impact.changes:
        if c.kind == "added":
            continue
        if c.doc_id not in keys:
            stored = store.get_document(c.doc_id)
            number = stored.meta.number if stored is not None else None
            keys[c.doc_id] = (parse_doc_ref(number) if number else None) or key_from_doc_id(c.doc_id)
        out.append(Changed(c, keys[c.doc_id]))
    return out


# --- citations of FAQs, tickets and answers ------------------------------------------------------------


def faq_source_citation(line: str) -> Citation:
    """``UU 36/2008 Pasal 23 ayat (1): "q" <url>`` -> ``UU 36/2008`` and location ``Pasal 23 ayat (1)``."""
    head = line.split(': "', 1)[0].split(" <", 1)[0].strip()
    refs = find_doc_refs(head)
    if refs and refs[0].start == 0:
        return Citation(line, doc_key=refs[0].key, location=head[refs[0].end :].strip() or None)
    first, _, rest = head.partition(" ")
    return Citation(line, doc_id=first or None, location=rest.strip() or None)  # "<doc_id> <location>"


def _dict_citation(item: Mapping[str, Any]) -> Citation:
    number = item.get("doc_number") or item.get("number") or item.get("ref")
    chunk_id = item.get("chunk_id") or item.get("source_id")
    doc_id = item.get("doc_id")
    label = " ".join(str(x) for x in (number or doc_id or chunk_id or "?", item.get("location") or "") if x)
    return Citation(
        label.strip(),
        chunk_id=str(chunk_id) if chunk_id else None,
        doc_id=str(doc_id) if doc_id else None,
        doc_key=parse_doc_ref(str(number)) if number else None,
        location=str(item["location"]) if item.get("location") else None,
    )


def ticket_citations(ticket: Any) -> list[Citation]:
    """What a ticket cites: its evidence claims and citations and the tax team's answer sources."""
    items = [*ticket.evidence.claims, *ticket.evidence.citations, *ticket.answer_sources]
    return [_dict_citation(i) for i in items]


def _matches(citations: Iterable[Citation], changed: Sequence[Changed]) -> tuple[list[str], list[str]]:
    """(labels of the citations that rely on a change, ids of the changed chunks they rely on)."""
    labels: dict[str, None] = {}
    chunks: dict[str, None] = {}
    for cit in citations:
        for ch in changed:
            if cites(cit, ch):
                labels[cit.label] = None
                chunks[ch.chunk_id] = None
    return list(labels), sorted(chunks)


# --- the report ------------------------------------------------------------------------------------------


def _fields_json(item: Any) -> dict[str, object]:
    """A report row's fields by name, in declaration order, tuples as JSON lists."""
    out: dict[str, object] = {}
    for f in fields(item):
        value = getattr(item, f.name)
        out[f.name] = list(value) if isinstance(value, tuple) else value
    return out


@dataclass(frozen=True)
class AffectedFaq:
    faq_id: str
    number: str
    title: str
    owner: str | None
    status_before: str
    status: str
    citations: tuple[str, ...]
    changed_chunks: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        return _fields_json(self)


@dataclass(frozen=True)
class AffectedTicket:
    ticket_id: str
    status: str
    assignee: str | None
    requester: str
    citations: tuple[str, ...]
    changed_chunks: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        return _fields_json(self)


@dataclass(frozen=True)
class AffectedAnswer:
    reference_id: str
    at: str
    principal_id: str
    status: str
    question_hash: str
    changed_chunks: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        return _fields_json(self)


@dataclass(frozen=True)
class QueuedNotice:
    """A card to one person about one FAQ or ticket (``status``: ``queued`` now, or ``already_queued`` by
    an earlier assessment of the same change)."""

    key: str
    recipient: str
    mention_id: str | None
    subject: str
    kind: str
    status: str

    def to_json(self) -> dict[str, object]:
        return _fields_json(self)


@dataclass(frozen=True)
class ImpactReport:
    """One assessed corpus change: what changed and who relied on it."""

    at: str
    trigger: str
    impact: Impact
    faqs: tuple[AffectedFaq, ...] = ()
    tickets: tuple[AffectedTicket, ...] = ()
    answers: tuple[AffectedAnswer, ...] = ()
    warnings: tuple[str, ...] = field(default=())
    notices: tuple[QueuedNotice, ...] = ()
    impact_id: str = ""

    def to_json(self) -> dict[str, object]:
        """Stable field names: at, trigger, documents, provisions, chunks_changed, faqs, tickets, answers,
        warnings, notices (the cards queued: key, recipient, mention_id, subject, kind, status), impact_id."""
        kb = self.impact.to_json()
        return {
            "at": self.at,
            "trigger": self.trigger,
            "documents": kb["documents"],
            "provisions": kb["provisions"],
            "chunks_changed": kb["chunks_changed"],
            "by_kind": kb["by_kind"],
            "faqs": [f.to_json() for f in self.faqs],
            "tickets": [t.to_json() for t in self.tickets],
            "answers": [a.to_json() for a in self.answers],
            "warnings": list(self.warnings),
            "notices": [n.to_json() for n in self.notices],
            "impact_id": self.impact_id,
        }


# --- notices to FAQ owners and ticket assignees --------------------------------------------------------


def mention_for(person: str, directory: Any | None = None) -> tuple[str | None, str]:
    """(Teams mention id, display name) of a person as tickets and FAQs record them (e-mail, else a
    principal id).  The id is the Entra ID object id when the directory knows one, else the e-mail as UPN
    (Teams accepts both in a bot's Adaptive Card); None when neither can be told (no mention then)."""
    entry = None
    if directory is not None and "@" in person:
        try:
            entry = directory.lookup_email(person)
        except Exception as exc:  # the directory is down: mention by UPN
            logger.warning("error=%s | directory lookup for a mention failed", type(exc).__name__)
    name = entry.display_name if entry is not None and entry.display_name else person
    if entry is not None and entry.aad_object_id:
        return entry.aad_object_id, name
    if "@" in person:
        return person, name
    tail = person.rsplit(":", 1)[-1]  # "teams:<tenant>:<aad object id>"
    try:
        return str(uuid.UUID(tail)), name
    except ValueError:
        return None, name


def _doc_names(doc_ids: Iterable[str], store: KnowledgeStore) -> list[str]:
    """``UU 7/2021`` for a stored document with a number, else its id."""
    out = []
    for doc_id in sorted(doc_ids):
        stored = store.get_document(doc_id)
        out.append(stored.meta.number if stored is not None and stored.meta.number else doc_id)
    return out


def _queue_notices(
    outbox: Any,
    *,
    at: str,
    documents: Sequence[str],
    changed: Sequence[Changed],
    faqs: Sequence[AffectedFaq],
    tickets: Sequence[AffectedTicket],
    directory: Any | None,
    warnings: list[str],
) -> list[QueuedNotice]:
    """Queue one card per withdrawn FAQ's owner and per affected ticket's assignee (idempotent)."""
    from bot.teams.cards import impact_notice_card

    by_chunk = {c.chunk_id: c.change.to_json() for c in changed}
    wanted: list[tuple[str, str, str, str, str, Sequence[str], Sequence[str], str | None]] = [
        ("faq", f.faq_id, f.title, f.status, f.owner, f.citations, f.changed_chunks, None)
        for f in faqs
        if f.owner and f.status == "needs_review"
    ]
    wanted += [
        ("ticket", t.ticket_id, "", t.status, t.assignee, t.citations, t.changed_chunks, t.ticket_id)
        for t in tickets
        if t.assignee
    ]
    out: list[QueuedNotice] = []
    for kind, sid, title, status, person, citations, chunk_ids, ticket_id in wanted:
        mention_id, name = mention_for(person, directory)
        subject = f"{kind}:{sid}"
        key = _relevant_id(changed, chunk_ids)
        notice = {
            "impact_id": key,
            "at": at,
            "subject": subject,
            "subject_kind": kind,
            "subject_id": sid,
            "title": title,
            "status": status,
            "recipient": person,
            "mention": {"id": mention_id, "name": name},
            "documents": list(documents),
            "citations": list(citations),
            "changes": [by_chunk[c] for c in chunk_ids if c in by_chunk],
        }
        message = Notice(
            key,
            subject,
            person,
            {"notice": notice, "card": impact_notice_card(notice)},
            ticket_id=ticket_id,
        )
        try:
            queued = outbox.enqueue_notice(message)
        except Exception as exc:  # one failing notice must not hide the rest of the report
            warnings.append(f"{subject}: no card queued for {person} ({type(exc).__name__})")
            continue
        out.append(
            QueuedNotice(
                message.key,
                person,
                mention_id,
                subject,
                KIND_NOTICE,
                "queued" if queued else "already_queued",
            )
        )
    return out


def _audit_records(path: Path, since: dt.datetime) -> Iterable[dict[str, Any]]:
    if not path.is_file():
        return
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            try:
                rec = json.loads(line)
                at = dt.datetime.fromisoformat(str(rec.get("at")))
            except (ValueError, TypeError):
                continue
            if at.tzinfo is None:
                at = at.replace(tzinfo=dt.UTC)
            if at >= since and rec.get("cited_chunks"):
                yield rec


def assess(
    impact: Impact,
    *,
    store: KnowledgeStore,
    faqs: Any | None = None,
    tickets: Any | None = None,
    audit_log: Path | None = None,
    now: dt.datetime | None = None,
    trigger: str = "ingest",
    apply: bool = True,
    days: int = RECENT_DAYS,
    outbox: Any | None = None,
    directory: Any | None = None,
) -> ImpactReport:
    """List the FAQs, open tickets and recent answers citing what ``impact`` changed.

    Args:
        impact: the chunk changes (``IngestReport.impact`` or a :func:`kb.impact.diff`).
        store: the knowledge base after the change (document numbers of changed chunks).
        faqs: a :class:`bot.faq.FaqService`; with ``apply`` its affected in-force FAQs become needs_review.
        tickets: a ticket store (``tickets.protocol.TicketStore``); only active tickets are listed.
        audit_log: the JSON-lines audit log (read only).
        now: the time of the assessment (UTC), for the report and the audit window.
        outbox: where notices go (an outbox with ``enqueue_notice``, e.g. ``ticket_store.outbox``);
            ``tickets.outbox`` when None.  With ``apply``, FAQ owners and ticket assignees get a card.
        directory: an :class:`identity.directory.Directory` for mention ids and names (optional).
    """
    now = now or dt.datetime.now(dt.UTC)
    impact_key = impact_id(impact)
    changed = changed_chunks(impact, store)
    # the documents the change wrote or removed (validity-only changes are their consequences)
    changed_docs = {c.doc_id for c in impact.changes if c.kind != "validity"} or set(impact.doc_ids)
    warnings: list[str] = []
    affected_faqs: list[AffectedFaq] = []
    if faqs is not None and changed:
        for doc in faqs.list():
            if doc.status not in ("in_force", "needs_review"):
                continue
            labels, chunk_ids = _matches(
                (faq_source_citation(s) for s in doc.sources),
                [c for c in changed if c.change.doc_id != doc.doc_id],
            )
            if not labels:
                continue
            status = doc.status
            if apply:
                notes = [
                    f"{now.date().isoformat()}: {label} changed with {', '.join(sorted(changed_docs))}"
                    for label in labels
                ]
                try:
                    status = faqs.mark_needs_review(doc.doc_id, notes).status
                except Exception as exc:  # one FAQ failing must not hide the rest of the report
                    warnings.append(f"{doc.doc_id}: not withdrawn ({exc})")
            affected_faqs.append(
                AffectedFaq(
                    doc.doc_id,
                    doc.number,
                    doc.title,
                    doc.owner,
                    doc.status,
                    status,
                    tuple(labels),
                    tuple(chunk_ids),
                )
            )
    affected_tickets: list[AffectedTicket] = []
    if tickets is not None and changed:
        for status in ACTIVE_STATUSES:
            for t in tickets.list(status=status):
                labels, chunk_ids = _matches(ticket_citations(t), changed)
                if labels and apply:
                    key = _relevant_id(changed, chunk_ids)
                    note = TICKET_NOTE.format(
                        citations="; ".join(labels), documents=", ".join(sorted(changed_docs)), impact_id=key
                    )
                    try:  # a note updates the ticket's card in the tax-team channel (outbox note_added)
                        if not _noted(tickets, t.id, key):  # once per change, however often assessed
                            t = tickets.add_note(t.id, NOTE_ACTOR, note)
                    except Exception as exc:
                        warnings.append(f"{t.id}: no note added ({type(exc).__name__})")
                if labels:
                    affected_tickets.append(
                        AffectedTicket(
                            t.id,
                            t.status,
                            t.assignee,
                            t.requester.principal_id,
                            tuple(labels),
                            tuple(chunk_ids),
                        )
                    )
        affected_tickets.sort(key=lambda a: a.ticket_id)
    affected_answers: list[AffectedAnswer] = []
    if audit_log is not None and changed:
        ids = {c.chunk_id for c in changed}
        for rec in _audit_records(audit_log, now - dt.timedelta(days=days)):
            hit = sorted(ids.intersection(rec.get("cited_chunks") or ()))
            if hit:
                affected_answers.append(
                    AffectedAnswer(
                        str(rec.get("reference_id")),
                        str(rec.get("at")),
                        str(rec.get("principal_id")),
                        str(rec.get("status")),
                        str(rec.get("question_hash")),
                        tuple(hit),
                    )
                )
    at = now.isoformat(timespec="seconds")
    if outbox is None and tickets is not None:
        outbox = getattr(tickets, "outbox", None)
    notices: list[QueuedNotice] = []
    wants_cards = any(f.owner for f in affected_faqs) or any(t.assignee for t in affected_tickets)
    if apply and wants_cards and outbox is None:
        warnings.append("no ticket store: no cards queued for FAQ owners (configure DASAR_TICKETS_DB/URL)")
    elif apply and wants_cards:
        notices = _queue_notices(
            outbox,
            at=at,
            documents=_doc_names(changed_docs, store),
            changed=changed,
            faqs=affected_faqs,
            tickets=affected_tickets,
            directory=directory,
            warnings=warnings,
        )
    logger.info(
        "trigger=%s, impact_id=%s, chunks=%s, faqs=%s, tickets=%s, answers=%s, notices=%s | "
        "corpus change assessed",
        trigger,
        impact_key,
        len(changed),
        len(affected_faqs),
        len(affected_tickets),
        len(affected_answers),
        sum(n.status == "queued" for n in notices),
    )
    return ImpactReport(
        at=at,
        trigger=trigger,
        impact=impact,
        faqs=tuple(affected_faqs),
        tickets=tuple(affected_tickets),
        answers=tuple(affected_answers),
        warnings=tuple(warnings),
        notices=tuple(notices),
        impact_id=impact_key,
    )


def _noted(tickets: Any, ticket_id: str, impact_key: str) -> bool:
    """The ticket already has this change's note (an earlier assessment of the same change wrote it)."""
    marker = f"(impact {impact_key})"
    return any(
        e.kind == "note_added" and marker in str(e.data.get("note", "")) for e in tickets.events(ticket_id)
    )


# --- the log and the baseline ------------------------------------------------------------------------------


class ImpactLog:
    """Assessed changes, one JSON object per line (``impact.jsonl`` in the data folder)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    def append(self, report: ImpactReport) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(report.to_json(), ensure_ascii=False, sort_keys=False) + "\n")

    def since(self, day: dt.date | None = None) -> list[dict[str, Any]]:
        """Logged reports on or after ``day`` (all when None), oldest first."""
        if not self.path.is_file():
            return []
        out = []
        for line in self.path.read_text(encoding="utf-8").splitlines():
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if day is None or str(rec.get("at", ""))[:10] >= day.isoformat():
                out.append(rec)
        return out


def save_baseline(store: KnowledgeStore, snap: Snapshot | None = None) -> None:
    """Remember the corpus as it is now (``snap`` or a fresh snapshot) as the next comparison point."""
    snap = snapshot(store) if snap is None else snap
    data = {
        cid: [
            s.doc_id,
            s.location,
            s.provision,
            s.text_hash,
            s.valid_from.isoformat() if s.valid_from else None,
            s.valid_to.isoformat() if s.valid_to else None,
        ]
        for cid, s in snap.items()
    }
    store.set_meta(BASELINE_KEY, json.dumps(data, ensure_ascii=False, sort_keys=True))


def load_baseline(store: KnowledgeStore) -> Snapshot | None:
    raw = store.get_meta(BASELINE_KEY)
    if not raw:
        return None
    out: Snapshot = {}
    for cid, (doc_id, location, provision, text_hash, vf, vt) in json.loads(raw).items():
        out[cid] = ChunkState(
            doc_id,
            location,
            provision,
            text_hash,
            dt.date.fromisoformat(vf) if vf else None,
            dt.date.fromisoformat(vt) if vt else None,
        )
    return out


def record(
    impact: Impact | None,
    *,
    store: KnowledgeStore,
    log: ImpactLog,
    trigger: str = "ingest",
    **context: Any,
) -> ImpactReport | None:
    """Assess an ingest's ``impact`` (see :func:`assess`), log it and move the baseline; None if nothing.

    The call an ingest makes after ``ingest_paths``: ``record(report.impact, store=..., log=..., faqs=...,
    tickets=..., audit_log=..., answer_cache=...)``; an ``answer_cache``
    (:class:`bot.answer_cache.AnswerCache`) drops the cached answers citing the changed documents.
    """
    cache = context.pop("answer_cache", None)
    report = None
    if impact is not None and cache is not None and impact.doc_ids:
        cache.purge_documents(impact.doc_ids)
    if impact is not None and any(c.kind != "added" for c in impact.changes):
        report = assess(impact, store=store, trigger=trigger, **context)
        log.append(report)
    save_baseline(store)
    return report


def catch_up(store: KnowledgeStore, *, log: ImpactLog, **context: Any) -> ImpactReport | bool | None:
    """Assess every change since the stored baseline (``trigger: catch-up``), log it, move the baseline.

    Returns the report, None when nothing changed, or False when there was no baseline yet (one is
    recorded now: the first call only starts the record).
    """
    before = load_baseline(store)
    now_snap = snapshot(store)
    if before is None:
        save_baseline(store, now_snap)
        return False
    changes = diff(before, now_snap)
    if not changes:
        return None
    return record(Impact(tuple(changes)), store=store, log=log, trigger="catch-up", **context)


# --- wiring from a runtime ------------------------------------------------------------------------------


def log_for(settings: Any) -> ImpactLog:
    """The impact log of a deployment: ``impact.jsonl`` in its data folder."""
    return ImpactLog(Path(settings.home) / "impact.jsonl")


def context_for(runtime: Any, store: KnowledgeStore | None = None) -> dict[str, Any]:
    """What :func:`assess` reads and updates, from a :class:`bot.runtime.Runtime`: the FAQ service (only when
    FAQ files exist: it needs the embedder to re-ingest withdrawn FAQs), the ticket store (only when one is
    configured or its file exists; else, with FAQs, its outbox for the owners' cards), the directory (for
    mentions), the audit log and the answer cache."""
    from bot.answer_cache import answer_cache_for

    s = runtime.settings
    store = store if store is not None else runtime.store
    cache = getattr(runtime, "answer_cache", None)
    cache = cache if cache is not None else answer_cache_for(s, store)
    context: dict[str, Any] = {"audit_log": Path(s.audit_log)}
    try:  # mention ids and names of the people notified (optional: mentions fall back to e-mail)
        context["directory"] = runtime.directory
    except Exception as exc:
        logger.warning("error=%s | no directory for notice mentions; using e-mail", type(exc).__name__)
    faq_dir = Path(s.faq_dir)
    if faq_dir.is_dir() and any(faq_dir.glob("faq-*.md")):
        from bot.faq import FaqService
        from bot.runtime import injection_flagger

        context["faqs"] = FaqService(
            faq_dir,
            store,
            runtime.embedder,
            review_days=s.faq_review_days,
            default_access=s.faq_default_access,
            flagger=injection_flagger,
            # a FAQ withdrawn during the assessment stops being served from the cache (Redis too) at once
            on_change=cache.purge_documents if cache is not None else None,
        )
    if s.tickets_url is not None or Path(s.tickets_db).is_file():
        context["tickets"] = runtime.tickets
    elif "faqs" in context:  # FAQ owners' cards go through the ticket outbox (the database is created)
        try:
            context["outbox"] = runtime.tickets.outbox
        except Exception as exc:  # the report then warns that no cards were queued
            logger.warning("error=%s | no ticket outbox for FAQ owners' cards", type(exc).__name__)
    context["answer_cache"] = cache
    return context


def record_ingest(impact: Impact | None, runtime: Any) -> ImpactReport | None:
    """After ``ingest_paths`` in a command or worker: assess, notify, log, purge cached answers.

    ``dasar ingest`` calls ``record_ingest(report.impact, svc)`` and prints the result's ``to_json()``.
    """
    return record(impact, store=runtime.store, log=log_for(runtime.settings), **context_for(runtime))
