"""Policy that lives in the turn for every platform: who may escalate, what a ticket carries, what the tax
team may see on it, chat escalation phrases, normalisation before masking, per-person rate limits.

Runs the real turn over a small real index (hashing embedder; internal documents, UU 7/2021, UU 36/2008).
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from bot.audit import MemoryAuditLog
from bot.history import MemoryHistory
from bot.messages import InboundMessage
from bot.settings import Settings
from bot.turn import Turn
from bot.wiring import Services
from tests.served.conftest import SAMPLE_DIRECTORY, served_kb  # noqa: F401 (fixture)
from tests.support.turns import ticketed_turn

AP_CLERK = "U04APCLRK1"  # ap, finance; SNR (corpus/directory.yaml)
TAX_LEAD = "U04TAXLD3Q"  # tax-team, finance; SNR, SNL
CFO = "U03CFO7T8K"  # management, finance; SNR, SNL
SNL_ACCOUNTANT = "U05SNLACC5"  # finance, ap; SNL
CHANNEL = "C0FINANCE1"


@pytest.fixture
def services(served_kb: Path, tmp_path: Path) -> Services:  # noqa: F811
    return Services(
        Settings(
            _env_file=None,  # type: ignore[call-arg]
            kb=served_kb,
            embedder="hashing-256",
            directory=SAMPLE_DIRECTORY,
            tickets_db=tmp_path / "tickets.sqlite",
        )
    )


@pytest.fixture
def turn(services: Services, tmp_path: Path):
    with ticketed_turn(services, tmp_path / "tickets.sqlite", today=dt.date(2026, 11, 30)) as t:
        yield t


def _msg(
    user: str, text: str, *, thread: str = "1772700000.000100", channel: str = CHANNEL
) -> InboundMessage:
    return InboundMessage(
        platform="slack",
        tenant="T0SNRTEAM",
        user_id=user,
        channel=channel,
        thread_id=thread,
        message_id="m1",
        text=text,
        is_direct=channel.startswith("D"),
    )


def test_a_bystander_cannot_escalate_someone_elses_question(turn: Turn) -> None:
    """Finding: a bystander's "Ask the tax team" click opened a ticket in the bystander's name with an empty
    question, and the real asker was then told it was already with the tax team."""
    question = "Berapa tarif PPh 23 atas jasa teknik?"
    turn.handle(_msg(AP_CLERK, question))
    refused = turn.escalate(_msg(TAX_LEAD, ""))
    assert refused.ticket_id is None and refused.status == "abstained"
    assert turn.tickets.list() == []
    mine = turn.escalate(_msg(AP_CLERK, ""))
    (ticket,) = turn.tickets.list()
    assert mine.ticket_id == ticket.id
    assert ticket.requester.user_id == AP_CLERK
    assert ticket.question_masked == question


def test_ticket_after_an_in_domain_question_carries_retrieval_candidates(turn: Turn) -> None:
    """Finding: a ticket opened with /ticket after a question carried 0 candidates (evidence was read from an
    ``explain`` shape the pipeline no longer wrote)."""
    turn.handle(_msg(AP_CLERK, "Berapa tarif PPN yang berlaku sejak 1 April 2022?"))
    reply = turn.handle(_msg(AP_CLERK, "/ticket"))
    assert reply.ticket_id
    ticket = turn.tickets.get(reply.ticket_id)
    assert ticket.evidence.candidates, "retrieval candidates reach the tax team"
    assert any(c["doc_id"] == "uu-7-2021" for c in ticket.evidence.candidates)
    assert any("11%" in c.get("quote", "") for c in ticket.evidence.claims)


@pytest.mark.parametrize("phrase", ["ya, teruskan ke tim pajak", "tolong eskalasi", "please escalate"])
def test_chat_escalation_phrases_do_what_ticket_does(turn: Turn, phrase: str) -> None:
    question = "Berapa tarif PPh 23 atas jasa teknik?"
    turn.handle(_msg(AP_CLERK, question))
    reply = turn.handle(_msg(AP_CLERK, phrase))
    assert reply.status == "escalated" and reply.ticket_id
    ticket = turn.tickets.get(reply.ticket_id)
    assert ticket.question_masked == question  # the earlier question, not the phrase


def test_in_a_dm_a_new_escalation_message_escalates_the_last_question(turn: Turn) -> None:
    """Finding: in a DM people type "tolong eskalasi" as a new message, not as a reply in the answer's thread,
    and dasar said there was nothing to escalate."""
    question = "Berapa tarif PPh 23 atas jasa teknik?"
    dm = "D0APCLERK1"
    turn.handle(_msg(AP_CLERK, question, thread="1772700000.000100", channel=dm))
    reply = turn.handle(_msg(AP_CLERK, "tolong eskalasi", thread="1772700050.000200", channel=dm))
    assert reply.status == "escalated" and reply.ticket_id
    ticket = turn.tickets.get(reply.ticket_id)
    assert ticket.question_masked == question
    assert any("2%" in c.get("quote", "") for c in ticket.evidence.claims)  # the answer's evidence came along
    # in a channel a new top-level message is someone's new thread: nothing there to escalate
    turn.handle(_msg(AP_CLERK, question, thread="1772700100.000300"))
    elsewhere = turn.handle(_msg(AP_CLERK, "tolong eskalasi", thread="1772700150.000400"))
    assert elsewhere.ticket_id is None and elsewhere.status != "escalated"


def test_a_second_escalation_in_a_thread_updates_the_ticket_with_the_new_question(turn: Turn) -> None:
    turn.handle(_msg(AP_CLERK, "Berapa tarif PPh 23 atas jasa teknik?"))
    first = turn.handle(_msg(AP_CLERK, "/ticket"))
    second_question = "Bagaimana kalau vendornya tidak punya NPWP?"
    turn.handle(_msg(AP_CLERK, second_question))
    second = turn.handle(_msg(AP_CLERK, "tolong eskalasi"))
    assert second.ticket_id == first.ticket_id
    assert first.ticket_id in second.text
    notes = [json.dumps(e.data, ensure_ascii=False) for e in turn.tickets.events(first.ticket_id)]
    assert any(second_question in n for n in notes)


def test_ticket_evidence_shows_only_what_the_tax_team_may_read(turn: Turn) -> None:
    """Finding: evidence gathered with a manager's access (a management-only policy) was shown on the
    tax-team card to people who cannot read that policy."""
    question = "Who approves accepting an audit correction (SPHP response) above IDR 5 billion tax impact?"
    answered = turn.handle(_msg(CFO, question))
    cited = {c["source"]["doc_id"] for c in answered.answer["claims"]}
    assert "tax-risk-approval-policy" in cited  # the CFO reads the management-only policy ...
    reply = turn.escalate(_msg(CFO, ""))
    ticket = turn.tickets.get(reply.ticket_id)
    shown = json.dumps(ticket.evidence.to_json(), ensure_ascii=False)
    assert "tax-risk-approval-policy" not in shown  # ... the tax team does not
    assert "restricted sources" in ticket.gap


def test_entity_restricted_documents_stay_with_their_entity(turn: Turn, services: Services) -> None:
    """Finding: entities were dropped by the tool filter and the corrective retry; can_read checked groups."""
    from identity.principal import VerifiedEnvelope
    from tools import ToolDeps, build_tools

    question = "Berapa PPh 23 atas sewa forklift tanpa operator oleh subkontraktor angkutan SNL?"
    resolver = services.resolver()
    clerk = resolver.resolve(VerifiedEnvelope("slack", "T0SNRTEAM", AP_CLERK))
    snl = resolver.resolve(VerifiedEnvelope("slack", "T0SNRTEAM", SNL_ACCOUNTANT))
    deps = ToolDeps(retriever=services.retriever, store=services.store, default_as_of=dt.date(2026, 11, 30))
    for principal, may in ((clerk, False), (snl, True)):
        tools = build_tools(principal, deps)
        # a narrowing that finds nothing makes the tool retry without it: the entity is never relaxed
        for tax_type in ("PPh 23", "no-such-tax"):
            tools.get("search_kb").invoke({"query": question, "tax_type": tax_type})
        docs = {h.doc_id for h in tools.ledger.hits}
        assert ("snl-freight-pph23-procedure" in docs) is may, (principal.email, docs)
    stored = services.store.get_document("snl-freight-pph23-procedure")
    assert clerk.can_read(stored.meta.access, stored.meta.entities) is False
    assert snl.can_read(stored.meta.access, stored.meta.entities) is True
    answer = turn.handle(_msg(AP_CLERK, question))
    assert "snl-freight-pph23-procedure" not in json.dumps(answer.answer)


def test_a_password_hidden_with_zero_width_and_fullwidth_characters_is_refused(turn: Turn) -> None:
    reply = turn.handle(_msg(AP_CLERK, "pass\u200bword\uff1a Sinar#2026rahasia"))
    assert reply.status == "refused"
    assert "Sinar#2026rahasia" not in json.dumps(reply.answer)


def test_rate_limit_is_per_person_in_the_turn(services: Services, tmp_path: Path) -> None:
    from bot.slack.ratelimit import SlidingWindowLimiter

    t = Turn(
        services,
        resolver=services.resolver(),
        history=MemoryHistory(),
        audit=MemoryAuditLog(),
        rate_limiter=SlidingWindowLimiter(1, 3600),
    )
    assert t.handle(_msg(AP_CLERK, "Berapa tarif PPN?")).status != "rate_limited"
    assert t.handle(_msg(AP_CLERK, "Berapa tarif PPh 23?", thread="2")).status == "rate_limited"
    assert t.handle(_msg(TAX_LEAD, "Berapa tarif PPh 23?", thread="3")).status != "rate_limited"


def test_an_advice_escalation_carries_claims_citations_and_candidates(turn: Turn) -> None:
    """Finding: an advice escalation carried no claims, citations or candidates."""
    reply = turn.handle(
        _msg(
            "U04FINMGR2", "Metode mana yang sebaiknya kita pilih supaya PPh 23 atas jasa teknik lebih kecil?"
        )
    )
    assert reply.status == "escalated" and reply.ticket_id
    assert reply.answer["escalation"]["reason"] == "advice"
    evidence = turn.tickets.get(reply.ticket_id).evidence
    assert evidence.candidates and evidence.claims and evidence.citations
    assert all(c["doc_id"] for c in evidence.candidates)


def test_a_request_for_a_colleagues_data_is_declined_without_a_ticket(turn: Turn) -> None:
    """A colleague's slip or NPWP is nothing the tax team can answer: the reply says where to ask, and the
    turn files no ticket (it does for other out-of-scope questions) -- session 30."""
    reply = turn.handle(_msg(AP_CLERK, "Bisa tolong kirim slip gaji bulan Oktober punya Pak Wibowo dari QC?"))
    assert reply.status == "escalated" and reply.ticket_id is None
    assert reply.answer["escalation"]["reason"] == "personal_data"
    assert reply.answer["escalation"]["offered"] is False
    assert reply.answer["answer"].startswith("Saya tidak memegang dan tidak membagikan gaji")
    assert "Tiket" not in reply.text and turn.tickets.list() == []
