"""create_ticket / update_ticket: idempotent per thread, evidence from the ledger, own tickets only."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from identity.principal import Principal
from tickets import Requester, SqliteTicketStore, ThreadRef
from tools import build_tools
from tools.ticketing import NOT_YOURS


@pytest.fixture()
def ticket_store(tmp_path: Path) -> Iterator[SqliteTicketStore]:
    store = SqliteTicketStore(tmp_path / "tickets.sqlite")
    yield store
    store.shutdown()


def _requester(p: Principal) -> Requester:
    return Requester(
        principal_id=p.id,
        platform=p.platform,
        tenant=p.tenant,
        user_id=p.platform_user_id,
        display_name=p.display_name,
    )


def _thread(name: str) -> ThreadRef:
    return ThreadRef(platform="cli", tenant="local", channel="C1", thread_id=name)


def _tools(principal: Principal, make_deps, store, thread: str):
    return build_tools(
        principal,
        make_deps(
            tickets=store,
            thread=_thread(thread),
            requester=_requester(principal),
            question_masked="Berapa tarif PPh 23 untuk jasa <EMAIL_1>?",
        ),
    )


def test_create_ticket_is_idempotent_and_carries_the_ledger_evidence(people, make_deps, ticket_store) -> None:
    tools = _tools(people["clerk"], make_deps, ticket_store, "th-1")
    searched = tools.get("search_kb").invoke({"query": "tarif PPh 23 jasa"})
    assert searched.hits
    first = tools.get("create_ticket").invoke(
        {"summary": "tarif untuk jasa tertentu tidak ditemukan", "reason": "no_source"}
    )
    assert first.ok and first.text.startswith("Ticket T-") and "opened" in first.text
    ticket_id = first.text.split()[1]
    again = tools.get("create_ticket").invoke({"summary": "sama", "reason": "no_source"})
    assert again.ok and again.text.startswith(f"Ticket {ticket_id} is already open")

    ticket = ticket_store.get(ticket_id)
    assert ticket.requester.principal_id == people["clerk"].id
    assert ticket.thread.key == "cli:local:C1:th-1"
    assert ticket.question_masked == "Berapa tarif PPh 23 untuk jasa <EMAIL_1>?"
    assert (ticket.reason, ticket.gap) == ("no_source", "tarif untuk jasa tertentu tidak ditemukan")
    assert [c["chunk_id"] for c in ticket.evidence.candidates] == [h.chunk.id for h in searched.hits]
    assert {c["doc_id"] for c in ticket.evidence.candidates} == {h.doc.id for h in searched.hits}
    assert len(ticket_store.list()) == 1
    assert [(t.ticket_id, t.action) for t in tools.ledger.tickets] == [
        (ticket_id, "opened"),
        (ticket_id, "evidence_added"),
    ]


def test_guest_may_not_open_tickets(people, make_deps, ticket_store) -> None:
    out = (
        _tools(people["guest"], make_deps, ticket_store, "th-g")
        .get("create_ticket")
        .invoke({"summary": "x", "reason": "user_request"})
    )
    assert (out.ok, out.outcome) == (False, "denied")
    assert ticket_store.list() == []


def test_create_ticket_without_ticket_store_is_unavailable(people, make_deps) -> None:
    out = (
        build_tools(people["clerk"], make_deps())
        .get("create_ticket")
        .invoke({"summary": "x", "reason": "user_request"})
    )
    assert (out.ok, out.outcome) == (False, "unavailable")


def test_mismatched_requester_is_refused(people, make_deps, ticket_store) -> None:
    deps = make_deps(tickets=ticket_store, thread=_thread("th-x"), requester=_requester(people["lead"]))
    out = (
        build_tools(people["clerk"], deps)
        .get("create_ticket")
        .invoke({"summary": "x", "reason": "no_source"})
    )
    assert (out.ok, out.outcome) == (False, "denied")
    assert ticket_store.list() == []


def test_update_ticket_only_for_own_thread_or_tax_team(people, make_deps, ticket_store) -> None:
    opened = (
        _tools(people["clerk"], make_deps, ticket_store, "th-2")
        .get("create_ticket")
        .invoke({"summary": "butuh konfirmasi", "reason": "user_request"})
    )
    ticket_id = opened.text.split()[1]

    other = _tools(people["payroll"], make_deps, ticket_store, "th-3").get("update_ticket")
    refused = other.invoke({"ticket_id": ticket_id, "note": "tolong tutup"})
    assert (refused.ok, refused.text) == (False, NOT_YOURS)
    assert other.invoke({"ticket_id": "T-999999", "note": "x"}).text == NOT_YOURS  # same text: no probing
    # same user, but from another thread: also refused
    elsewhere = _tools(people["clerk"], make_deps, ticket_store, "th-9").get("update_ticket")
    assert elsewhere.invoke({"ticket_id": ticket_id, "note": "x"}).text == NOT_YOURS

    own = _tools(people["clerk"], make_deps, ticket_store, "th-2").get("update_ticket")
    assert (
        own.invoke({"ticket_id": ticket_id, "note": "vendor memakai NPWP 16 digit"}).text
        == f"note added to {ticket_id}"
    )
    lead = _tools(people["lead"], make_deps, ticket_store, "th-4").get("update_ticket")
    assert lead.invoke({"ticket_id": ticket_id, "note": "sedang dicek"}).ok
    notes = [e.data.get("note") for e in ticket_store.events(ticket_id) if e.kind == "note_added"]
    assert notes == ["vendor memakai NPWP 16 digit", "sedang dicek"]
