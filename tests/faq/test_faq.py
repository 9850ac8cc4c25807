"""Reviewed FAQ: propose (draft, never answers) -> approve (ingested, answers) -> expire (owner reminded)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
import yaml

from bot.faq import FaqDoc, FaqNotPermitted, FaqService, FaqStateError, faq_id_for
from bot.settings import REPO_ROOT
from identity.principal import Principal
from kb.embed.hashing import HashingEmbedder
from kb.ingest import ingest_paths
from kb.retrieve import RetrievalConfig, Retriever
from kb.store.protocol import SearchFilter
from kb.store.sqlite import SqliteStore
from tests.teams.harness import T0, FakeClock, open_ticket
from tickets import SqliteTicketStore

QUESTION = "tarif PPh 23 jasa angkutan vendor tanpa NPWP"
ANSWER = "Untuk vendor jasa angkutan tanpa NPWP, PPh 23 dipotong 4% yaitu 100% lebih tinggi dari tarif 2%."


def principal(email: str, roles: set[str], groups: set[str] = frozenset({"tax-team"})) -> Principal:  # type: ignore[assignment]
    return Principal(
        "teams",
        "tenant",
        email.split("@")[0],
        email,
        email.split("@")[0],
        frozenset(groups),
        frozenset(roles),
    )


LEAD = principal("tax.lead@sinarnusantara.co.id", {"tax_team", "faq_approver"})
ANALYST = principal("tax.analyst@sinarnusantara.co.id", {"tax_team"})


class Recorder:
    def __init__(self) -> None:
        self.reminders: list[tuple[str, str | None, str]] = []

    def remind_owner(self, doc: FaqDoc, text: str) -> None:
        self.reminders.append((doc.doc_id, doc.owner, text))


@pytest.fixture()
def kb(tmp_path: Path) -> tuple[SqliteStore, HashingEmbedder]:
    store = SqliteStore(tmp_path / "kb.sqlite", embedder_name="hashing-256")
    emb = HashingEmbedder()
    report = ingest_paths(
        [
            REPO_ROOT / "corpus/internal/wht-matrix-2024.md",
            REPO_ROOT / "corpus/internal/faq-npwp-16-digit-nitku.md",
        ],
        store,
        emb,
    )
    assert report.ok, report.to_json()
    return store, emb


def answered_ticket(tmp_path: Path, clock: FakeClock):
    store = SqliteTicketStore(tmp_path / "tickets.sqlite", clock=clock)
    t = open_ticket(store)
    store.claim(t.id, "tax.analyst@sinarnusantara.co.id")
    return store, store.answer(
        t.id,
        "tax.analyst@sinarnusantara.co.id",
        ANSWER,
        [{"ref": "WHT matrix 2024", "doc_id": "wht-matrix-2024", "location": "PPh 23"}],
    )


def search_ids(store: SqliteStore, emb: HashingEmbedder, groups: set[str], as_of: dt.date) -> list[str]:
    r = Retriever(store, emb, config=RetrievalConfig(mode="hybrid"))
    res = r.search(QUESTION, SearchFilter(groups=frozenset(groups | {"everyone"}), as_of=as_of))
    return [h.chunk.doc_id for h in res.results]


def test_propose_writes_a_canonical_draft_that_does_not_answer(tmp_path, kb) -> None:
    store, emb = kb
    clock = FakeClock()
    tickets, ticket = answered_ticket(tmp_path, clock)
    faq = FaqService(tmp_path / "faq", store, emb, review_days=90, clock=clock)
    doc_id = faq.propose_faq(ticket, ANALYST)
    assert doc_id == faq_id_for(ticket.id) == "faq-t-000001"
    raw = (tmp_path / "faq" / "faq-t-000001.md").read_text(encoding="utf-8")
    front = yaml.safe_load(raw.split("---\n")[1])
    assert front == {
        "id": "faq-t-000001",
        "title": "FAQ: Berapa tarif PPh 23 atas jasa angkutan dari vendor <VENDOR_1> tanpa NPWP?",
        "number": "FAQ-T-000001",
        "type": "faq",
        "jurisdiction": "ID",
        "language": "id",
        "status": "draft",
        "effective_from": None,
        "effective_to": None,
        "owner": "tax.analyst@sinarnusantara.co.id",
        "approved_by": "",
        "access": ["ap", "finance", "tax-team"],  # from the restricted cited WHT matrix
        "entities": ["SNL", "SNR"],  # the WHT matrix applies to both entities
        "review_by": "2026-05-31",
        "source_url": "dasar://tickets/T-000001",
        "topics": ["PPh 23 jasa angkutan"],
    }
    doc = faq.get(doc_id)
    assert doc.answer == ANSWER
    assert doc.sources == (
        "WHT matrix 2024 PPh 23",
        'UU 36/2008 Pasal 23 ayat (1): "sebesar 2% (dua persen) dari jumlah bruto" '
        "<https://example.test/uu-36-2008#pasal-23>",
    )
    assert store.get_document(doc_id) is None  # a draft is never ingested
    assert "faq-t-000001" not in search_ids(store, emb, {"finance"}, dt.date(2026, 3, 3))
    # idempotent per ticket; only the tax team may propose; an unanswered ticket cannot become an FAQ
    assert faq.propose_faq(ticket, ANALYST) == doc_id
    with pytest.raises(FaqNotPermitted):
        faq.propose_faq(ticket, principal("ap.clerk@sinarnusantara.co.id", {"requester"}, {"ap"}))
    with pytest.raises(FaqStateError, match="only an answered ticket"):
        faq.propose_faq(open_ticket(tickets, thread=ticket.thread.__class__("slack", "T", "C", "2")), ANALYST)


def test_approved_faq_answers_then_expires_and_reminds_its_owner(tmp_path, kb) -> None:
    store, emb = kb
    clock = FakeClock()
    _, ticket = answered_ticket(tmp_path, clock)
    rec = Recorder()
    faq = FaqService(tmp_path / "faq", store, emb, review_days=90, clock=clock, notifier=rec)
    doc_id = faq.propose_faq(ticket, ANALYST)
    with pytest.raises(FaqNotPermitted):
        faq.approve_faq(doc_id, ANALYST)
    clock.advance(days=1)
    approved = faq.approve_faq(doc_id, LEAD)
    assert (approved.status, approved.approved_by, approved.effective_from) == (
        "in_force",
        "tax.lead@sinarnusantara.co.id",
        dt.date(2026, 3, 3),
    )
    stored = store.get_document(doc_id)
    assert stored is not None and stored.quarantine_reason is None
    assert (stored.meta.type, stored.meta.layer) == ("faq", "policy")
    chunk_text = " ".join(c.text for c in store.chunks_of(doc_id))
    assert ANSWER in chunk_text and "tarif PPh 23 atas jasa angkutan" in chunk_text
    assert doc_id in search_ids(store, emb, {"finance"}, dt.date(2026, 3, 4))  # now it answers
    assert doc_id not in search_ids(store, emb, {"management"}, dt.date(2026, 3, 4))  # access groups hold
    with pytest.raises(FaqStateError, match="not a draft"):
        faq.approve_faq(doc_id, LEAD)

    assert faq.expire_faqs(T0 + dt.timedelta(days=89)) == []  # not yet
    expired = faq.expire_faqs(T0 + dt.timedelta(days=91))
    assert [(d.doc_id, d.status, d.effective_to) for d in expired] == [
        (doc_id, "quarantined", dt.date(2026, 5, 31))
    ]
    assert doc_id not in search_ids(store, emb, {"finance"}, dt.date(2026, 3, 4))  # stops answering at once
    assert rec.reminders == [
        (
            doc_id,
            "tax.analyst@sinarnusantara.co.id",
            f"FAQ {doc_id} ({approved.title}) passed its review date 2026-05-31 and no longer "
            "answers questions. Owner tax.analyst@sinarnusantara.co.id: please review it and "
            "propose an updated FAQ.",
        )
    ]
    assert faq.expire_faqs(T0 + dt.timedelta(days=92)) == []  # reminded once
    assert len(rec.reminders) == 1


def test_faq_from_an_entity_restricted_source_stays_restricted(tmp_path) -> None:
    """Finding: a reviewed FAQ built from an SNL-only procedure was published to SNR users."""
    from kb.scope import ReaderScope

    store = SqliteStore(tmp_path / "kb.sqlite", embedder_name="hashing-256")
    emb = HashingEmbedder()
    report = ingest_paths([REPO_ROOT / "corpus/internal/snl-freight-pph23-procedure.md"], store, emb)
    assert report.ok, report.to_json()
    clock = FakeClock()
    tickets = SqliteTicketStore(tmp_path / "tickets.sqlite", clock=clock)
    t = open_ticket(tickets)
    tickets.claim(t.id, "tax.analyst@sinarnusantara.co.id")
    ticket = tickets.answer(
        t.id,
        "tax.analyst@sinarnusantara.co.id",
        "SNL memotong PPh 23 2% atas sewa forklift tanpa operator.",
        [{"ref": "SNL-PRO-TAX-001", "doc_id": "snl-freight-pph23-procedure", "location": "Sewa forklift"}],
    )
    faq = FaqService(tmp_path / "faq", store, emb, review_days=90, clock=clock)
    doc_id = faq.propose_faq(ticket, ANALYST)
    assert faq.get(doc_id).entities == ("SNL",)
    clock.advance(days=1)
    faq.approve_faq(doc_id, LEAD)
    stored = store.get_document(doc_id)
    assert stored is not None and stored.meta.entities == ("SNL",)
    r = Retriever(store, emb, config=RetrievalConfig(mode="hybrid"))
    question = "PPh 23 sewa forklift tanpa operator"
    as_of = dt.date(2026, 3, 4)

    def found(groups: set[str], entities: set[str]) -> set[str]:
        flt = SearchFilter.of(ReaderScope(frozenset(groups), frozenset(entities)), as_of=as_of)
        return {h.chunk.doc_id for h in r.search(question, flt).results}

    assert doc_id in found({"finance", "ap"}, {"SNL"})  # an SNL accountant reads it
    assert doc_id not in found({"finance", "ap"}, {"SNR"})  # an SNR clerk does not
