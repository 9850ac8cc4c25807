"""``dasar serve slack`` as a process, escalating to the tax team, against BOTH ticket stores.

One process per store (SQLite file; PostgreSQL 16 from the pgserver wheel through ``DASAR_TICKETS_URL``),
a real redis-server, signed Events API and interactivity requests, the stand-in Slack Web API.  The tests
read the ticket store the process wrote, and what the process sent to Slack.

Findings guarded (issue 11):
- in a channel, a bystander's "Ask the tax team" click opened a ticket in the bystander's name with an
  empty question, and the real asker was then told it was already with the tax team;
- a ``/ticket``-style escalation after an in-domain question carried 0 retrieval candidates.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.served.conftest import fresh_pg_schema, post_slack, served, slack_env
from tests.served.test_slack_served import _send
from tests.slack.mock_slack import (
    BOT_USER,
    TEAM,
    Call,
    MockSlackApi,
    action_form,
)
from tests.slack.test_http import buttons_of, click_payload, mention, posted_text
from tests.support.ports import free_port
from tests.support.redis_server import running_redis

AP_CLERK = (
    "U04APCLRK1"  # ap.clerk: groups [ap, finance], entities [SNR], role requester (corpus/directory.yaml)
)
FIN_MANAGER = "U04FINMGR2"  # finance.manager: a bystander in the channel, also a requester
CHANNEL = "C0FINSERVE"
DM = "D0APSERVE1"
PPH23_QUESTION = "Berapa tarif PPh 23 atas jasa teknik?"
#: UU 36/2008 amends Pasal 23 UU PPh (the 2% rate for services): the sample KB's source for this question.
PPH_LAW = "uu-36-2008"


@dataclass
class SlackServed:
    """One running ``dasar serve slack`` and how to reach what it wrote."""

    backend: str
    port: int
    api: MockSlackApi
    open_store: Callable[[], Any]
    log: Path


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def slack_with_tickets(
    request: pytest.FixtureRequest, served_kb: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[SlackServed]:
    """``dasar serve slack`` with Redis and the ticket store of ``request.param`` (one process per store)."""
    from tickets.factory import open_ticket_store

    backend = str(request.param)
    tmp_path = tmp_path_factory.mktemp(f"served-slack-tickets-{backend}")
    url = fresh_pg_schema(request.getfixturevalue("pg_uri")) if backend == "postgres" else None
    api = MockSlackApi(members={CHANNEL: [AP_CLERK, FIN_MANAGER, BOT_USER]})
    slack_url = api.start()
    port = free_port()
    log = tmp_path / "slack.log"
    try:
        with running_redis() as redis_url:
            env = slack_env(
                tmp_path,
                served_kb,
                slack_url,
                DASAR_SLACK_RATE_LIMIT="100",
                DASAR_REDIS_URL=redis_url,
            )
            if url:
                env["DASAR_TICKETS_URL"] = url
            with served(["serve", "slack", "--port", str(port)], env, port, log):
                yield SlackServed(
                    backend=backend,
                    port=port,
                    api=api,
                    open_store=lambda: open_ticket_store(tmp_path / "tickets.sqlite", url),
                    log=log,
                )
    finally:
        api.stop()


@pytest.fixture
def store(slack_with_tickets: SlackServed) -> Iterator[Any]:
    """The ticket store the served process writes to, opened by the test (same file / same schema)."""
    opened = slack_with_tickets.open_store()
    try:
        yield opened
    finally:
        opened.shutdown()


def _click(served: SlackServed, payload: dict[str, Any]) -> int:
    return post_slack(served.port, action_form(payload), content_type="application/x-www-form-urlencoded")


def _in_thread(method: str, served: SlackServed, channel: str, root: str) -> list[Call]:
    return [
        c
        for c in served.api.calls_of(method)
        if c.params.get("channel") == channel and c.params.get("thread_ts") == root
    ]


def _wait_in_thread(
    served: SlackServed, method: str, channel: str, root: str, count: int, **match: str
) -> list[Call]:
    found = served.api.wait_for(
        method,
        count,
        timeout=180,
        where=lambda c: (
            c.params.get("channel") == channel
            and c.params.get("thread_ts") == root
            and all(c.params.get(k) == v for k, v in match.items())
        ),
    )
    return found


def _tickets_in(store: Any, channel: str, root: str) -> list[Any]:
    """Every ticket of one Slack thread (the store the process wrote, read now)."""
    return [t for t in store.list() if (t.thread.channel, t.thread.thread_id) == (channel, root)]


def _assert_evidence(ticket: Any, kb: Path) -> None:
    """The ticket carries the turn's evidence: retrieval candidates (real chunks of the served KB, UU 36/2008
    among them), the citation and the verified claim the answer stood on."""
    from kb.store.sqlite import SqliteStore

    evidence = ticket.evidence
    assert evidence.candidates, f"no retrieval candidates in the ticket's evidence: {evidence}"
    ids = {str(c["chunk_id"]) for c in (*evidence.candidates, *evidence.citations)}
    kb_store = SqliteStore(kb)
    try:
        chunks = kb_store.get_chunks(sorted(ids))
    finally:
        kb_store.close()
    assert set(chunks) == ids, f"evidence chunks not in the KB: {sorted(ids - set(chunks))}"
    assert all(
        chunks[c["chunk_id"]].doc_id == c["doc_id"] for c in (*evidence.candidates, *evidence.citations)
    )
    assert PPH_LAW in {c["doc_id"] for c in evidence.candidates}, [c["doc_id"] for c in evidence.candidates]
    assert all(isinstance(c.get("score"), int | float) for c in evidence.candidates)
    # what the answer stood on: the Pasal 23 citation of UU 36/2008 and its verified 2% quote for jasa teknik
    assert any(c["doc_id"] == PPH_LAW and "Pasal 23" in str(c["location"]) for c in evidence.citations), (
        evidence.citations
    )
    assert any(
        c["doc_id"] == PPH_LAW
        and c["passed"]
        and "2% (dua persen)" in c["quote"]
        and "jasa teknik" in c["quote"]
        for c in evidence.claims
    ), evidence.claims


def test_served_slack_only_the_asker_can_escalate_a_channel_question(
    slack_with_tickets: SlackServed, store: Any, served_kb: Path
) -> None:
    """Finding: a bystander's click opened a ticket in the bystander's name with an empty question, and
    the real asker was then told it was already with the tax team."""
    served = slack_with_tickets
    root = "1772900000.000100"
    assert _send(served.port, mention(PPH23_QUESTION, root, channel=CHANNEL), "EvEsc1") == 200
    (answer,) = _wait_in_thread(served, "chat.postMessage", CHANNEL, root, 1)
    buttons = buttons_of(answer)
    assert "dasar_escalate" in buttons, (posted_text(answer)[:2000], served.log.read_text()[-2000:])
    assert _tickets_in(store, CHANNEL, root) == []  # an in-domain answer: no ticket of its own

    # a bystander in the channel clicks "Ask the tax team" under the clerk's answer
    message_ts = "1700000000.000001"

    def escalate_click(user: str, action_ts: str) -> dict[str, Any]:
        return click_payload(
            "dasar_escalate",
            buttons["dasar_escalate"],
            user=user,
            channel=CHANNEL,
            message_ts=message_ts,
            thread_ts=root,
            action_ts=action_ts,
        )

    bystander = escalate_click(FIN_MANAGER, "1772900010.000001")
    assert _click(served, bystander) == 200
    (refusal,) = _wait_in_thread(served, "chat.postEphemeral", CHANNEL, root, 1, user=FIN_MANAGER)
    assert "Hanya orang yang mengajukan pertanyaan ini" in posted_text(refusal)
    # the turn decided (it told the bystander): no ticket in anyone's name
    assert _tickets_in(store, CHANNEL, root) == []
    assert [t.id for t in store.list() if t.requester.user_id == FIN_MANAGER] == []
    assert len(_in_thread("chat.postMessage", served, CHANNEL, root)) == 1  # nothing public either

    # the asker clicks it: one ticket, theirs, with their question and what retrieval found
    asker = escalate_click(AP_CLERK, "1772900020.000001")
    assert _click(served, asker) == 200
    posts = _wait_in_thread(served, "chat.postMessage", CHANNEL, root, 2)
    (ticket,) = _tickets_in(store, CHANNEL, root)
    confirmation = posted_text(posts[1])
    assert ticket.id in confirmation and "tim pajak" in confirmation
    assert ticket.requester.user_id == AP_CLERK
    assert ticket.requester.platform == "slack" and ticket.requester.tenant == TEAM
    assert ticket.requester.email == "ap.clerk@sinarnusantara.co.id"
    assert ticket.question_masked == PPH23_QUESTION
    assert (ticket.thread.channel, ticket.thread.thread_id) == (CHANNEL, root)
    assert ticket.reason == "user_request"
    _assert_evidence(ticket, served_kb)
    # the asker got no "already with the tax team" notice: only the bystander was told anything privately
    ephemerals = _in_thread("chat.postEphemeral", served, CHANNEL, root)
    assert [c.params["user"] for c in ephemerals] == [FIN_MANAGER]

    # the asker clicks again: the same ticket, told privately, nothing new in public
    again = escalate_click(AP_CLERK, "1772900030.000001")
    assert _click(served, again) == 200
    (already,) = _wait_in_thread(served, "chat.postEphemeral", CHANNEL, root, 1, user=AP_CLERK)
    assert ticket.id in posted_text(already)
    # the bystander types the escalation phrase in the thread instead: refused, the ticket stays the asker's
    typed = {
        "type": "message",
        "channel_type": "channel",
        "channel": CHANNEL,
        "user": FIN_MANAGER,
        "text": "tolong eskalasi ke tim pajak",
        "ts": "1772900040.000100",
        "thread_ts": root,
    }
    assert _send(served.port, typed, "EvEsc2") == 200
    posts = _wait_in_thread(served, "chat.postMessage", CHANNEL, root, 3)
    assert "Hanya orang yang mengajukan pertanyaan ini" in posted_text(posts[2])
    (still,) = _tickets_in(store, CHANNEL, root)
    assert (still.id, still.requester.user_id, still.question_masked) == (ticket.id, AP_CLERK, PPH23_QUESTION)
    events = store.events(ticket.id)
    assert [e.kind for e in events] == ["opened"], [(e.kind, e.actor) for e in events]
    assert len(_in_thread("chat.postMessage", served, CHANNEL, root)) == 3


def test_served_slack_escalation_phrase_in_a_dm_carries_retrieval_candidates(
    slack_with_tickets: SlackServed, store: Any, served_kb: Path
) -> None:
    """Finding: a ``/ticket`` escalation after an in-domain question carried 0 retrieval candidates.

    Slack has no ``/ticket`` slash command here; the chat phrase does what ``/ticket`` does (``bot.turn``),
    typed as a reply in the thread of the answer."""
    from tickets import ThreadRef

    served = slack_with_tickets
    root = "1772900100.000100"
    question = {"type": "message", "channel_type": "im", "channel": DM, "user": AP_CLERK, "ts": root}
    assert _send(served.port, {**question, "text": PPH23_QUESTION}, "EvEscDm1") == 200
    (answer,) = _wait_in_thread(served, "chat.postMessage", DM, root, 1)
    assert "dasar_escalate" in buttons_of(answer)
    assert store.find_by_thread(ThreadRef("slack", TEAM, DM, root)) is None

    follow = {
        **question,
        "text": "tolong eskalasi ke tim pajak",
        "ts": "1772900100.000200",
        "thread_ts": root,
    }
    assert _send(served.port, follow, "EvEscDm2") == 200
    posts = _wait_in_thread(served, "chat.postMessage", DM, root, 2)
    ticket = store.find_by_thread(ThreadRef("slack", TEAM, DM, root))
    assert ticket is not None, json.dumps([c.params for c in posts], ensure_ascii=False)[:2000]
    assert ticket.id in posted_text(posts[1])
    assert ticket.requester.user_id == AP_CLERK
    assert ticket.question_masked == PPH23_QUESTION  # the question, not the escalation phrase
    assert ticket.reason == "user_request"
    _assert_evidence(ticket, served_kb)


def test_served_slack_new_dm_message_escalates_the_last_question(
    slack_with_tickets: SlackServed, store: Any, served_kb: Path
) -> None:
    """Finding: in a DM, "tolong eskalasi" typed as a new message (not a reply in the answer's thread) found
    nothing to escalate."""
    served = slack_with_tickets
    root = "1772900150.000100"
    question = {"type": "message", "channel_type": "im", "channel": DM, "user": AP_CLERK, "ts": root}
    assert _send(served.port, {**question, "text": PPH23_QUESTION}, "EvEscDmTop1") == 200
    _wait_in_thread(served, "chat.postMessage", DM, root, 1)
    before = {t.id for t in store.list()}

    later = "1772900150.000900"
    escalation = {**question, "text": "tolong eskalasi ke tim pajak", "ts": later}
    assert _send(served.port, escalation, "EvEscDmTop2") == 200
    (confirmation,) = _wait_in_thread(served, "chat.postMessage", DM, later, 1)
    (ticket,) = [t for t in store.list() if t.id not in before]
    assert ticket.id in posted_text(confirmation)
    assert ticket.requester.user_id == AP_CLERK
    assert ticket.question_masked == PPH23_QUESTION  # the earlier question, not the phrase
    _assert_evidence(ticket, served_kb)


def test_served_slack_asker_can_escalate_after_someone_else_asked_in_the_thread(
    slack_with_tickets: SlackServed, store: Any, served_kb: Path
) -> None:
    """The clerk's "Ask the tax team" under the clerk's own answer escalates the clerk's question, also after
    a colleague asked a follow-up of their own in the same thread."""
    served = slack_with_tickets
    root = "1772900200.000100"
    assert _send(served.port, mention(PPH23_QUESTION, root, channel=CHANNEL), "EvEscFu1") == 200
    (answer,) = _wait_in_thread(served, "chat.postMessage", CHANNEL, root, 1)
    value = buttons_of(answer)["dasar_escalate"]
    follow_up = {
        "type": "message",
        "channel_type": "channel",
        "channel": CHANNEL,
        "user": FIN_MANAGER,
        "text": "Kalau atas sewa kendaraan berapa tarif PPh 23?",
        "ts": "1772900200.000200",
        "thread_ts": root,
    }
    assert _send(served.port, follow_up, "EvEscFu2") == 200
    _wait_in_thread(served, "chat.postMessage", CHANNEL, root, 2)  # the colleague's answer
    click = click_payload(
        "dasar_escalate",
        value,
        user=AP_CLERK,
        channel=CHANNEL,
        message_ts="1700000000.000002",
        thread_ts=root,
        action_ts="1772900210.000001",
    )
    assert _click(served, click) == 200
    notice = _private_notice_or_none(served, root, AP_CLERK, public_count=3)
    assert notice is None, f"the asker was told privately: {posted_text(notice)[:400]}"
    posts = _in_thread("chat.postMessage", served, CHANNEL, root)
    (ticket,) = _tickets_in(store, CHANNEL, root)
    assert ticket.id in posted_text(posts[2])
    assert (ticket.requester.user_id, ticket.question_masked) == (AP_CLERK, PPH23_QUESTION)
    _assert_evidence(ticket, served_kb)


def _private_notice_or_none(served: SlackServed, root: str, user: str, *, public_count: int) -> Call | None:
    """Wait for the turn's answer to ``user``'s click in the channel thread ``root``: None when the thread
    reached ``public_count`` posts (a public confirmation), else the private notice ``user`` got instead."""
    import time

    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if len(_in_thread("chat.postMessage", served, CHANNEL, root)) >= public_count:
            return None
        private = [
            c for c in _in_thread("chat.postEphemeral", served, CHANNEL, root) if c.params["user"] == user
        ]
        if private:
            return private[0]
        time.sleep(0.05)
    raise AssertionError(f"no reply to {user}'s click in thread {root} within 180 s")
