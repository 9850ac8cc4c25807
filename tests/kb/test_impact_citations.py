"""An amending act changes what approved FAQs, open tickets and recent answers cite (bot.impact).

Real corpus text, hashing embedder: UU 8/1983 + UU 42/2009 (PPN at 10%, Pasal 7) are ingested, an FAQ
citing UU 42/2009's Pasal 7 is approved, a ticket and an answer cite it; then UU 7/2021 (HPP, PPN 11% from
1 April 2022) is ingested.  The FAQ must go to needs_review and stop answering, the ticket and the answer
must be listed, and whatever cites an unchanged provision must not.
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import pytest

from bot.audit import AuditRecord, JsonlAuditLog
from bot.faq import NEEDS_REVIEW, FaqDoc, FaqService, FaqStateError
from bot.impact import ImpactLog, catch_up, faq_source_citation, record
from identity.principal import Principal
from kb.embed.hashing import HashingEmbedder
from kb.ingest import ingest_paths
from kb.store.sqlite import SqliteStore
from tickets import SqliteTicketStore
from tickets.model import Evidence, Requester, ThreadRef

REGS = Path(__file__).resolve().parents[2] / "corpus" / "regulations"
EMBEDDER = HashingEmbedder()
NOW = dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC)
PASAL7 = "uu-42-2009#pasal-I/angka-8/pasal-7"
PASAL7_LOC = "Pasal 7 UU 8/1983 (Pasal I angka 8 UU 42/2009)"
PASAL1_1 = "uu-42-2009#pasal-I/angka-1/pasal-1/angka-1"  # not touched by UU 7/2021
PASAL1_1_LOC = "Pasal 1 angka 1 UU 8/1983 (Pasal I angka 1 UU 42/2009)"
TAX = "tax.analyst@sinarnusantara.co.id"

LEAD = Principal(
    "teams",
    "tenant",
    "tax.lead",
    "tax.lead@sinarnusantara.co.id",
    "tax.lead",
    frozenset({"tax-team"}),
    frozenset({"tax_team", "faq_approver"}),
)


def _thread(n: int) -> ThreadRef:
    return ThreadRef(platform="slack", tenant="T1", channel="C1", thread_id=f"17000000{n}.000100")


def _requester(user: str) -> Requester:
    return Requester(principal_id=f"slack:T1:{user}", platform="slack", tenant="T1", user_id=user)


class Recorder:
    """The FAQ service's notifier (the tax-team channel in Teams)."""

    def __init__(self) -> None:
        self.reminders: list[tuple[str, str | None, str]] = []

    def remind_owner(self, doc: FaqDoc, text: str) -> None:
        self.reminders.append((doc.doc_id, doc.owner, text))


class World:
    """A temporary knowledge base, ticket store, FAQ folder and audit log over real corpus text."""

    def __init__(self, tmp: Path) -> None:
        self.src = tmp / "corpus"
        for doc_id in ("uu-8-1983", "uu-42-2009"):
            shutil.copytree(REGS / doc_id, self.src / doc_id)
        self.store = SqliteStore(tmp / "kb.sqlite", embedder_name=EMBEDDER.name)
        assert ingest_paths([self.src], self.store, EMBEDDER).ok
        self.tickets = SqliteTicketStore(tmp / "tickets.sqlite", clock=lambda: NOW)
        self.notifier = Recorder()
        self.faqs = FaqService(tmp / "faq", self.store, EMBEDDER, clock=lambda: NOW, notifier=self.notifier)
        self.audit_path = tmp / "audit.jsonl"
        self.log = ImpactLog(tmp / "impact.jsonl")

    def approved_faq(self, n: int, location: str, quote: str) -> str:
        ticket, _ = self.tickets.open_ticket(
            _thread(n),
            _requester(f"U{n}"),
            f"Berapa tarif PPN? ({n})",
            [],
            Evidence(),
            "gap",
            "low_confidence",
        )
        self.tickets.claim(ticket.id, TAX)
        answered = self.tickets.answer(
            ticket.id,
            TAX,
            "Tarif PPN adalah 10%.",
            [{"number": "UU 42/2009", "doc_id": "uu-42-2009", "location": location, "quote": quote}],
        )
        doc_id = self.faqs.propose_faq(answered, TAX)
        self.faqs.approve_faq(doc_id, LEAD)
        return doc_id

    def open_ticket_citing(self, n: int, chunk_id: str, location: str) -> str:
        citation = {
            "chunk_id": chunk_id,
            "doc_id": "uu-42-2009",
            "doc_number": "UU 42/2009",
            "location": location,
        }
        ticket, _ = self.tickets.open_ticket(
            _thread(n),
            _requester(f"U{n}"),
            "Apakah tarif PPN masih 10%?",
            [],
            Evidence.of(citations=[citation]),
            "confidence low",
            "low_confidence",
        )
        return ticket.id

    def answer(self, ref: str, at: dt.datetime, chunk_id: str) -> None:
        JsonlAuditLog(self.audit_path).write(
            AuditRecord(
                at=at.isoformat(timespec="seconds"),
                reference_id=ref,
                principal_id="slack:T1:U9",
                platform="slack",
                question_hash="abc123",
                status="answered",
                cited_documents=("uu-42-2009",),
                cited_chunks=(chunk_id,),
            )
        )

    def amend(self) -> object:
        shutil.copytree(REGS / "uu-7-2021", self.src / "uu-7-2021")
        return ingest_paths([self.src], self.store, EMBEDDER)


@pytest.fixture()
def world(tmp_path: Path) -> World:
    return World(tmp_path)


def test_faq_source_lines_are_parsed_into_document_and_location() -> None:
    c = faq_source_citation(f'UU 42/2009 {PASAL7_LOC}: "Tarif ... 10%" <https://x.test/a>')
    assert (c.doc_key, c.location) == ("UU 42/2009", PASAL7_LOC)
    c = faq_source_citation("wht-matrix-2024 PPh 23")
    assert (c.doc_id, c.doc_key, c.location) == ("wht-matrix-2024", None, "PPh 23")


def test_an_amending_act_withdraws_the_faq_and_lists_the_ticket_and_answer(world: World) -> None:
    quote = "Tarif Pajak Pertambahan Nilai adalah 10% (sepuluh persen)."
    faq_hit = world.approved_faq(1, PASAL7_LOC, quote)
    faq_miss = world.approved_faq(2, PASAL1_1_LOC, "Daerah Pabean adalah wilayah Republik Indonesia")
    ticket_hit = world.open_ticket_citing(3, PASAL7, PASAL7_LOC)
    ticket_miss = world.open_ticket_citing(4, PASAL1_1, PASAL1_1_LOC)
    ticket_closed = world.open_ticket_citing(5, PASAL7, PASAL7_LOC)
    world.tickets.reject(ticket_closed, TAX, "duplicate")
    world.answer("ref-recent", NOW - dt.timedelta(days=3), PASAL7)
    world.answer("ref-old", NOW - dt.timedelta(days=200), PASAL7)  # outside the 90-day window
    world.answer("ref-other", NOW - dt.timedelta(days=1), PASAL1_1)
    assert world.store.get_document(faq_hit).quarantine_reason is None  # answering before the change

    report = world.amend()
    assert report.ok and "uu-7-2021" in report.added
    out = record(
        report.impact,
        store=world.store,
        log=world.log,
        faqs=world.faqs,
        tickets=world.tickets,
        audit_log=world.audit_path,
        now=NOW,
    )
    assert out is not None
    as_json = out.to_json()
    assert [f["faq_id"] for f in as_json["faqs"]] == [faq_hit] == ["faq-t-000001"]
    assert faq_miss == "faq-t-000002"
    faq = as_json["faqs"][0]
    assert (faq["status_before"], faq["status"]) == ("in_force", "needs_review")
    assert faq["changed_chunks"] == [PASAL7]
    assert faq["owner"] == TAX
    assert [(t["ticket_id"], t["status"]) for t in as_json["tickets"]] == [(ticket_hit, "open")]
    assert ticket_hit == "T-000003" and ticket_miss == "T-000004"
    assert [(a["reference_id"], a["changed_chunks"]) for a in as_json["answers"]] == [
        ("ref-recent", [PASAL7])
    ]
    assert "uu-8-1983:pasal-7" in as_json["provisions"]

    # the FAQ file says needs_review and the knowledge base no longer answers from it; the other stays
    assert world.faqs.get(faq_hit).status == NEEDS_REVIEW
    assert "UU 42/2009" in world.faqs.get(faq_hit).review_notes[0]
    assert world.faqs.get(faq_hit).review_notes[0].endswith("changed with uu-7-2021")
    assert world.store.get_document(faq_hit).quarantine_reason is not None
    assert world.faqs.get(faq_miss).status == "in_force"
    assert world.store.get_document(faq_miss).quarantine_reason is None

    # the owner is reminded once; the affected ticket's card gets a note through the outbox, no other does
    assert [(d, o) for d, o, _ in world.notifier.reminders] == [(faq_hit, TAX)]
    assert "UU 42/2009 Pasal 7 UU 8/1983" in world.notifier.reminders[0][2]
    notes = [e for e in world.tickets.events(ticket_hit) if e.kind == "note_added"]
    assert len(notes) == 1 and "uu-7-2021" in notes[0].data["note"]
    assert [m.kind for m in world.tickets.outbox.messages(ticket_hit)][-1] == "update_card"
    assert not [e for e in world.tickets.events(ticket_miss) if e.kind == "note_added"]

    # logged for `dasar kb impact`; nothing left to catch up; an approver can put the FAQ back
    logged = world.log.since(NOW.date())
    assert len(logged) == 1 and logged[0]["faqs"][0]["faq_id"] == faq_hit
    assert catch_up(world.store, log=world.log) is None
    back = world.faqs.approve_faq(faq_hit, LEAD)
    assert back.status == "in_force" and world.faqs.get(faq_hit).review_notes == ()
    with pytest.raises(FaqStateError):
        world.faqs.approve_faq(faq_hit, LEAD)


def test_catch_up_assesses_a_change_made_without_recording_it(world: World) -> None:
    assert catch_up(world.store, log=world.log) is False  # first call records the baseline
    faq_hit = world.approved_faq(1, PASAL7_LOC, "Tarif Pajak Pertambahan Nilai adalah 10%")
    world.store.remove_document("uu-42-2009")  # e.g. `dasar kb remove`
    from kb.linking import relink

    relink(world.store)
    out = catch_up(world.store, log=world.log, faqs=world.faqs, now=NOW)
    assert out is not None and out is not False
    assert out.trigger == "catch-up"
    assert [(f.faq_id, f.status) for f in out.faqs] == [(faq_hit, "needs_review")]
    assert "uu-42-2009" in out.to_json()["documents"]
    assert json.loads(json.dumps(world.log.since()))[0]["trigger"] == "catch-up"
