"""Reviewed FAQ: a tax-team answer becomes a knowledge-base document only after an approver says so.

Why a reviewed file rather than "remember the answer": dasar answers ONLY from approved documents with
quotes.  An answer written for one requester is promoted by (1) a tax-team member proposing it
(:meth:`FaqService.propose_faq` writes a Markdown draft with canonical front matter into the FAQ folder,
where it can be read and edited like any internal policy), (2) a principal with the ``faq_approver`` role
approving it (:meth:`FaqService.approve_faq` sets ``status: in_force`` + ``approved_by`` and ingests the
file as type ``faq``, layer policy), and (3) it answering until its review date, after which
:meth:`FaqService.expire_faqs` takes it out of the answerable set (``status: quarantined`` +
``effective_to``, re-ingested) and reminds its owner through a :class:`Notifier`.

The file is the source of truth: front matter uses only the canonical fields of
:mod:`kb.metadata` (unknown fields are rejected there), the ticket id lives in the document id
(``faq-t-000042``) and number (``FAQ-T-000042``).  A draft is never ingested, so it can never answer.

Errors::

    FaqError
    ├── FaqNotFound       no FAQ file with that id in the FAQ folder
    ├── FaqNotPermitted   the person lacks the role (tax_team to propose, faq_approver to approve)
    ├── FaqStateError     wrong status for the step (e.g. approving an in-force FAQ, proposing an open ticket)
    └── FaqIngestError    the knowledge base refused the file (the ingest report's message is included)
"""

from __future__ import annotations

import builtins
import datetime as dt
import logging
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

import yaml

from identity.principal import Principal
from kb.embed import Embedder
from kb.ingest import ingest_paths
from kb.loaders import split_front_matter
from kb.model import PUBLIC_GROUP
from kb.store.protocol import KnowledgeStore
from tickets.model import Ticket

logger = logging.getLogger(__name__)

FAQ_TYPE = "faq"
_Q_HEADING = "## Pertanyaan dan jawaban"
_SRC_HEADING = "## Sumber"
_Q_LABEL = "**Pertanyaan:**"
_A_LABEL = "**Jawaban Tim Pajak:**"
_REVIEW_HEADING = "## Perlu ditinjau"
#: An approved FAQ whose cited provisions changed: stored as ``status: quarantined`` (so the knowledge
#: base stops answering from it) with a ``## Perlu ditinjau`` section naming what changed; read back as
#: this status.
NEEDS_REVIEW = "needs_review"
#: What the owner of a withdrawn FAQ is told (through the :class:`Notifier`: the tax-team channel in Teams).
FAQ_NEEDS_REVIEW_REMINDER = (
    "FAQ {doc_id} ({title}) no longer answers questions: a provision it cites changed ({changes}). "
    "Owner {owner}: please review it; an FAQ approver re-approves it when it is still right."
)
_FALLBACK_ACCESS: tuple[str, ...] = ("tax-team",)


class FaqError(Exception):
    """Base class of reviewed-FAQ errors."""


class FaqNotFound(FaqError):
    """No FAQ file with that id."""


class FaqNotPermitted(FaqError):
    """The person lacks the role for this step."""


class FaqStateError(FaqError):
    """The FAQ or ticket is in the wrong state for this step."""


class FaqIngestError(FaqError):
    """The knowledge base refused the FAQ file."""


@dataclass(frozen=True)
class FaqDoc:
    """One FAQ file as read back (front matter + the parts of its body dasar wrote)."""

    doc_id: str
    path: Path
    number: str
    title: str
    status: str
    owner: str | None
    approved_by: str | None
    effective_from: dt.date | None
    effective_to: dt.date | None
    review_by: dt.date | None
    access: tuple[str, ...]
    language: str
    question: str
    answer: str
    sources: tuple[str, ...]
    #: Legal entities the FAQ applies to: the intersection of its entity-restricted sources' entities
    #: (entities are access; empty = applies to all).
    entities: tuple[str, ...] = ()
    #: Why the FAQ needs review (``needs_review`` only): one line per change of a cited provision.
    review_notes: tuple[str, ...] = ()

    @property
    def ticket_id(self) -> str:
        """``faq-t-000042`` -> ``T-000042``."""
        return self.number.removeprefix("FAQ-")


class Notifier(Protocol):
    """Where owner reminders go (Teams channel message in production, a list in tests)."""

    def remind_owner(self, doc: FaqDoc, text: str) -> None: ...


def faq_id_for(ticket_id: str) -> str:
    """Document id of the FAQ promoted from a ticket: ``T-000042`` -> ``faq-t-000042``."""
    return "faq-" + re.sub(r"[^a-z0-9]+", "-", ticket_id.lower()).strip("-")


def _actor_name(actor: Principal | str) -> str:
    if isinstance(actor, Principal):
        return actor.email or actor.id
    return actor


def _source_line(src: Mapping[str, Any]) -> str:
    """One ``## Sumber`` bullet from a cited-source or evidence dict (whatever keys it has)."""
    ref = src.get("number") or src.get("ref") or src.get("doc_id") or src.get("source_id") or "?"
    parts = [str(ref)]
    if src.get("location"):
        parts.append(str(src["location"]))
    line = " ".join(parts)
    if src.get("quote"):
        line += f': "{" ".join(str(src["quote"]).split())}"'
    url = src.get("url") or src.get("source_url")
    if url:
        line += f" <{url}>"
    return line


def _bullets(body: str, heading: str) -> list[str]:
    """The ``- `` lines of one ``## `` section of an FAQ body (empty when the section is absent)."""
    if heading not in body:
        return []
    section = body.split(heading, 1)[1].split("\n## ", 1)[0]
    return [ln[2:].strip() for ln in section.splitlines() if ln.startswith("- ")]


def _yaml_date(value: dt.date | None) -> str | None:
    return value.isoformat() if value else None


def _parse_date(value: Any) -> dt.date | None:
    if value in (None, ""):
        return None
    if isinstance(value, dt.date):
        return value
    return dt.date.fromisoformat(str(value))


class FaqService:
    """Propose, approve and expire reviewed FAQ documents.

    Args:
        faq_dir: folder of FAQ Markdown files (created on first use).
        kb_store: the knowledge base approved FAQs are ingested into.
        embedder: embedder of that knowledge base (None for a deterministic-only KB).
        review_days: validity of an FAQ from its proposal; the approver may edit ``review_by`` in the file.
        default_access: access groups when every cited document is public (an FAQ is internal guidance).
        notifier: receives owner reminders when an FAQ expires.
        clock: current time (timezone-aware).
        doc_access: optional ``doc_id -> access groups`` lookup; default reads ``kb_store``.
        on_change: called with the FAQ's document id after every change the knowledge base sees (approved,
            withdrawn for review, expired), e.g. ``AnswerCache.purge_documents`` so cached answers resting on
            the FAQ go; an error there is logged, never raised (the FAQ changed either way).
    """

    def __init__(
        self,
        faq_dir: Path | str,
        kb_store: KnowledgeStore,
        embedder: Embedder | None,
        *,
        review_days: int = 180,
        default_access: Sequence[str] = ("finance",),
        notifier: Notifier | None = None,
        clock: Callable[[], dt.datetime] | None = None,
        flagger: Callable[[str], Sequence[str]] | None = None,
        on_change: Callable[[Sequence[str]], object] | None = None,
    ) -> None:
        self.faq_dir = Path(faq_dir)
        self.kb_store = kb_store
        self.embedder = embedder
        self.review_days = review_days
        self.default_access = tuple(sorted(default_access)) or _FALLBACK_ACCESS
        self.notifier = notifier
        self.clock = clock or (lambda: dt.datetime.now(dt.UTC))
        self.flagger = flagger
        self.on_change = on_change

    def _changed(self, doc_id: str) -> None:
        if self.on_change is None:
            return
        try:
            self.on_change([doc_id])
        except Exception as exc:
            logger.warning("doc_id=%s, error=%s | faq change hook failed", doc_id, type(exc).__name__)

    # --- reading ---------------------------------------------------------------------------------
    def path_for(self, doc_id: str) -> Path:
        if not re.fullmatch(r"faq-[a-z0-9-]+", doc_id):
            raise FaqNotFound(f"{doc_id!r} is not an FAQ id (expected faq-t-000123)")
        return self.faq_dir / f"{doc_id}.md"

    def get(self, doc_id: str) -> FaqDoc:
        """Read one FAQ file. Raises :class:`FaqNotFound`."""
        path = self.path_for(doc_id)
        if not path.is_file():
            raise FaqNotFound(f"no FAQ {doc_id} in {self.faq_dir}; propose it from its ticket first")
        return self._read(path)

    def list(self) -> list[FaqDoc]:
        """Every FAQ file, by id."""
        if not self.faq_dir.is_dir():
            return []
        return [self._read(p) for p in sorted(self.faq_dir.glob("faq-*.md"))]

    def _read(self, path: Path) -> FaqDoc:
        fields, body = split_front_matter(path, path.read_text(encoding="utf-8"))
        question = answer = ""
        m = re.search(
            re.escape(_Q_LABEL) + r"\s*(.*?)\s*" + re.escape(_A_LABEL) + r"\s*(.*?)\s*(?:\n## |\Z)",
            body,
            re.S,
        )
        if m:
            question, answer = m.group(1).strip(), m.group(2).strip()
        sources = _bullets(body, _SRC_HEADING)
        notes = _bullets(body, _REVIEW_HEADING)
        status = str(fields.get("status") or "draft")
        if status == "quarantined" and _REVIEW_HEADING in body:
            status = NEEDS_REVIEW
        return FaqDoc(
            doc_id=str(fields["id"]),
            path=path,
            number=str(fields["number"]),
            title=str(fields["title"]),
            status=status,
            owner=fields.get("owner"),
            approved_by=fields.get("approved_by") or None,
            effective_from=_parse_date(fields.get("effective_from")),
            effective_to=_parse_date(fields.get("effective_to")),
            review_by=_parse_date(fields.get("review_by")),
            access=tuple(fields.get("access") or ()),
            language=str(fields.get("language") or "id"),
            question=question,
            answer=answer,
            sources=tuple(sources),
            entities=tuple(fields.get("entities") or ()),
            review_notes=tuple(notes) if status == NEEDS_REVIEW else (),
        )

    # --- writing ---------------------------------------------------------------------------------
    def _write(self, doc: FaqDoc, topics: Iterable[str] = ()) -> None:
        fields: dict[str, Any] = {
            "id": doc.doc_id,
            "title": doc.title,
            "number": doc.number,
            "type": FAQ_TYPE,
            "jurisdiction": "ID",
            "language": doc.language,
            # needs_review is not a knowledge-base status: the KB keeps the file but never answers from it
            "status": "quarantined" if doc.status == NEEDS_REVIEW else doc.status,
            "effective_from": _yaml_date(doc.effective_from),
            "effective_to": _yaml_date(doc.effective_to),
            "owner": doc.owner,
            "approved_by": doc.approved_by or "",
            "access": list(doc.access),
            **({"entities": list(doc.entities)} if doc.entities else {}),
            "review_by": _yaml_date(doc.review_by),
            "source_url": f"dasar://tickets/{doc.ticket_id}",
        }
        topic_list = [t for t in topics if t]
        if topic_list:
            fields["topics"] = topic_list
        front = yaml.safe_dump(fields, sort_keys=False, allow_unicode=True, width=1000)
        body = [
            f"# {doc.title}",
            "",
            _Q_HEADING,
            "",
            f"{_Q_LABEL} {doc.question}",
            "",
            f"{_A_LABEL} {doc.answer}",
            "",
        ]
        if doc.sources:
            body += [_SRC_HEADING, ""] + [f"- {s}" for s in doc.sources] + [""]
        if doc.status == NEEDS_REVIEW:
            notes = doc.review_notes or ("a cited provision changed",)
            body += [_REVIEW_HEADING, ""] + [f"- {n}" for n in notes] + [""]
        self.faq_dir.mkdir(parents=True, exist_ok=True)
        tmp = doc.path.with_suffix(".md.tmp")
        tmp.write_text("---\n" + front + "---\n" + "\n".join(body), encoding="utf-8")
        tmp.replace(doc.path)  # atomic: a reader never sees half a file

    def _entities_for(self, cited_doc_ids: Iterable[str]) -> tuple[str, ...]:
        """The entities every entity-restricted source applies to (their intersection).

        An FAQ drawn from an SNL-only procedure applies to SNL only, like the procedure.  Sources that name
        no entity do not restrict.  Sources of disjoint entities leave no common entity: the FAQ then keeps
        them all and is narrowed to the tax team by :meth:`_access_for`.
        """
        common: set[str] | None = None
        union: set[str] = set()
        for doc_id in sorted(set(cited_doc_ids)):
            stored = self.kb_store.get_document(doc_id)
            if stored is None or not stored.meta.entities:
                continue
            ents = set(stored.meta.entities)
            union |= ents
            common = ents if common is None else common & ents
        if common is None:
            return ()
        return tuple(sorted(common or union))

    def _disjoint_entities(self, cited_doc_ids: Iterable[str]) -> bool:
        sets = []
        for doc_id in sorted(set(cited_doc_ids)):
            stored = self.kb_store.get_document(doc_id)
            if stored is not None and stored.meta.entities:
                sets.append(set(stored.meta.entities))
        return bool(sets) and not set.intersection(*sets)

    def _access_for(self, cited_doc_ids: Iterable[str]) -> tuple[str, ...]:
        """Most restrictive combination of the cited documents' access groups.

        A reader of the FAQ must be allowed to read every restricted document it draws on, so the FAQ's
        groups are the intersection of their groups; public documents do not restrict.  No restricted
        source -> ``default_access``; an empty intersection -> ``tax-team`` only (the approver widens it
        by editing the file if appropriate).
        """
        groups: set[str] | None = None
        for doc_id in sorted(set(cited_doc_ids)):
            stored = self.kb_store.get_document(doc_id)
            if stored is None:
                continue
            acc = set(stored.meta.access)
            if PUBLIC_GROUP in acc:
                continue
            groups = acc if groups is None else groups & acc
        if self._disjoint_entities(cited_doc_ids):
            return _FALLBACK_ACCESS
        if groups is None:
            return self.default_access
        return tuple(sorted(groups)) or _FALLBACK_ACCESS

    def propose_faq(self, ticket: Ticket, actor: Principal | str) -> str:
        """Write a draft FAQ from an answered ticket; returns its document id (idempotent per ticket).

        Raises:
            FaqNotPermitted: ``actor`` is a principal without the tax_team role.
            FaqStateError: the ticket has no answer yet, or its FAQ is already approved.
        """
        if isinstance(actor, Principal) and not actor.may_act_on_tickets:
            raise FaqNotPermitted("only the tax team can propose an FAQ")
        if not ticket.answer or ticket.status not in ("answered", "closed"):
            raise FaqStateError(
                f"ticket {ticket.id} is {ticket.status}: only an answered ticket can become an FAQ"
            )
        doc_id = faq_id_for(ticket.id)
        path = self.path_for(doc_id)
        if path.exists():
            existing = self._read(path)
            if existing.status != "draft":
                raise FaqStateError(f"FAQ {doc_id} is already {existing.status}; edit the file to change it")
        from kb.query import understand

        sources = [dict(s) for s in ticket.answer_sources]
        sources += [dict(c) for c in ticket.evidence.claims if c.get("quote")]
        cited = [
            str(s.get("doc_id") or s.get("source_id"))
            for s in sources
            if s.get("doc_id") or s.get("source_id")
        ]
        today = self.clock().date()
        question = " ".join(ticket.question_masked.split())
        doc = FaqDoc(
            doc_id=doc_id,
            path=path,
            number=f"FAQ-{ticket.id}",
            title=("FAQ: " + (question[:90] + ("..." if len(question) > 90 else ""))),
            status="draft",
            owner=_actor_name(actor),
            approved_by=None,
            effective_from=None,
            effective_to=None,
            review_by=today + dt.timedelta(days=self.review_days),
            access=self._access_for(cited),
            entities=self._entities_for(cited),
            language=understand(question).language,
            question=question,
            answer=ticket.answer.strip(),
            sources=tuple(dict.fromkeys(_source_line(s) for s in sources)),
        )
        self._write(doc, topics=[ticket.topic] if ticket.topic else ())
        logger.info("doc_id=%s, ticket_id=%s | faq draft written", doc_id, ticket.id)
        return doc_id

    def approve_faq(self, doc_id: str, approver: Principal) -> FaqDoc:
        """Approve a draft: ``status: in_force``, ``approved_by``, ingest into the KB so it answers.

        Raises:
            FaqNotPermitted: ``approver`` lacks the faq_approver role.
            FaqNotFound: no such FAQ.
            FaqStateError: not a draft, or its review date has already passed.
            FaqIngestError: the KB refused the file (the draft is restored).
        """
        if not approver.may_approve_faq:
            raise FaqNotPermitted("only an FAQ approver (faq_approver role) can approve an FAQ")
        doc = self.get(doc_id)
        if doc.status not in ("draft", NEEDS_REVIEW):
            raise FaqStateError(f"FAQ {doc_id} is {doc.status}, not a draft; nothing to approve")
        today = self.clock().date()
        if doc.review_by is not None and doc.review_by <= today:
            raise FaqStateError(f"FAQ {doc_id} review date {doc.review_by} has passed; set a later review_by")
        approved = replace(
            doc,
            status="in_force",
            approved_by=_actor_name(approver),
            effective_from=today,
            review_notes=(),
        )
        self._write(approved, topics=self._topics(doc))
        report = ingest_paths(
            [approved.path], self.kb_store, self.embedder, flagger=self.flagger, now=self.clock
        )
        if not report.ok or doc_id not in (report.added + report.updated):
            self._write(doc, topics=self._topics(doc))
            detail = "; ".join(str(e) for e in report.errors) or f"not ingested ({report.to_json()})"
            raise FaqIngestError(f"FAQ {doc_id} could not be ingested: {detail}")
        logger.info("doc_id=%s | faq approved and ingested", doc_id)
        self._changed(doc_id)
        return approved

    def mark_needs_review(self, doc_id: str, notes: Sequence[str]) -> FaqDoc:
        """Withdraw an approved FAQ whose cited provisions changed until an approver re-approves it.

        The file gets ``status: quarantined`` and a ``## Perlu ditinjau`` section listing ``notes``, and is
        re-ingested so the knowledge base stops answering from it; :meth:`approve_faq` puts it back.  Only an
        in-force FAQ changes; any other is returned as it is (idempotent: a second change adds its notes).
        The owner is reminded through the :class:`Notifier` once, when the FAQ is withdrawn.

        Raises:
            FaqNotFound: no such FAQ.
            FaqIngestError: the knowledge base refused the re-ingest.
        """
        doc = self.get(doc_id)
        if doc.status not in (NEEDS_REVIEW, "in_force"):
            return doc
        topics = self._topics(doc)  # read once: the rewrites below keep them
        if doc.status == NEEDS_REVIEW:
            merged = tuple(dict.fromkeys((*doc.review_notes, *notes)))
            if merged != doc.review_notes:
                doc = replace(doc, review_notes=merged)
                self._write(doc, topics=topics)  # the KB copy is already withdrawn
            return doc
        withdrawn = replace(doc, status=NEEDS_REVIEW, review_notes=tuple(dict.fromkeys(notes)))
        self._write(withdrawn, topics=topics)
        report = ingest_paths(
            [withdrawn.path], self.kb_store, self.embedder, flagger=self.flagger, now=self.clock
        )
        if not report.ok:
            self._write(doc, topics=topics)
            raise FaqIngestError(
                f"FAQ {doc_id} could not be withdrawn for review: " + "; ".join(str(e) for e in report.errors)
            )
        logger.info("doc_id=%s | faq needs review: a cited provision changed", doc_id)
        self._changed(doc_id)
        if self.notifier is not None:
            text = FAQ_NEEDS_REVIEW_REMINDER.format(
                doc_id=doc_id,
                title=doc.title,
                changes="; ".join(withdrawn.review_notes),
                owner=doc.owner or "-",
            )
            try:
                self.notifier.remind_owner(withdrawn, text)
            except Exception as exc:  # the FAQ is withdrawn either way; the impact log lists it
                logger.warning("doc_id=%s, error=%s | faq owner not reminded", doc_id, type(exc).__name__)
        return withdrawn

    def _topics(self, doc: FaqDoc) -> builtins.list[str]:
        fields, _ = split_front_matter(doc.path, doc.path.read_text(encoding="utf-8"))
        return [str(t) for t in fields.get("topics") or ()]

    def expire_faqs(self, now: dt.datetime) -> builtins.list[FaqDoc]:
        """Take in-force FAQs past their review date out of the answerable set; remind each owner once.

        The status becomes ``quarantined`` (the KB stores but never answers from quarantined documents)
        and ``effective_to`` is set to the review date, then the file is re-ingested.  Returns the expired
        FAQs in id order; already-expired ones are not reminded again.
        """
        from bot.teams.strings import FAQ_EXPIRED_REMINDER

        today = now.date()
        expired: list[FaqDoc] = []
        for doc in self.list():
            if doc.status != "in_force" or doc.review_by is None or doc.review_by > today:
                continue
            end = doc.review_by if doc.effective_from is None or doc.review_by > doc.effective_from else None
            gone = replace(doc, status="quarantined", effective_to=end)
            self._write(gone, topics=self._topics(doc))
            report = ingest_paths(
                [gone.path], self.kb_store, self.embedder, flagger=self.flagger, now=self.clock
            )
            if not report.ok:
                raise FaqIngestError(
                    f"expired FAQ {doc.doc_id} could not be re-ingested: "
                    + "; ".join(str(e) for e in report.errors)
                )
            expired.append(gone)
            logger.info("doc_id=%s | faq expired", doc.doc_id)
            self._changed(doc.doc_id)
            if self.notifier is not None:
                text = FAQ_EXPIRED_REMINDER.format(
                    doc_id=doc.doc_id,
                    title=doc.title,
                    review_by=doc.review_by.isoformat(),
                    owner=doc.owner or "-",
                )
                self.notifier.remind_owner(gone, text)
        return expired
