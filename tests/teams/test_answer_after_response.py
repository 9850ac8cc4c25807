"""Teams answers after the HTTP response: typing first, the answer proactively, retries that never duplicate.

The real aiohttp app on a loopback port, a stand-in Bot Connector (``MockBotConnector``) and a stand-in turn
whose answer is held until the test releases it, so "the response came before the answer" is an observed
order of events, not a timing guess.
"""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from bot.messages import InboundMessage, Reply
from bot.teams import cards
from bot.teams import strings as S
from bot.teams.answering import RetryPolicy
from tests.teams.harness import (
    FakeClock,
    data,
    execute_activity,
    make_deps,
    make_settings,
    open_ticket,
    run,
    running,
    text_activity,
)
from tests.teams.mock_services import MockBotConnector
from tickets import ThreadRef

CHAT = "a:1personal-ap-clerk"
FAST = RetryPolicy(attempts=4, base_delay_s=0.01)


class HeldTurn:
    """A turn that answers ``Jawaban untuk: <question>`` once ``release`` is set; records every call."""

    def __init__(self, held: bool = True) -> None:
        self.release = threading.Event()
        if not held:
            self.release.set()
        self.started = threading.Event()
        self.calls: list[InboundMessage] = []

    def handle(self, message: InboundMessage) -> Reply:
        self.calls.append(message)
        self.started.set()
        assert self.release.wait(60), "the test never released the turn"
        text = f"Jawaban untuk: {message.text}"
        return Reply(answer={"status": "clarify", "answer": text}, text=text, status="clarify")


@pytest.fixture()
def connector():
    with MockBotConnector() as mock:
        yield mock


def _answers(connector: MockBotConnector, conversation: str = CHAT) -> list[str]:
    return [p.body.get("text") or "" for p in connector.posts() if p.conversation_id == conversation]


def test_the_http_response_returns_before_the_answer_which_follows_the_typing_indicator(
    tmp_path: Path, connector: MockBotConnector
) -> None:
    turn = HeldTurn()
    deps = make_deps(tmp_path, connector.url, FakeClock(), turn=turn, retry=FAST)
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        async with running(make_settings(tmp_path, connector.url), deps) as bot:
            started = time.monotonic()
            status, _ = await bot.post(
                text_activity("ap.clerk", "Berapa tarif PPN?", connector.url, CHAT), settle=False
            )
            seen["status"], seen["response_s"] = status, time.monotonic() - started
            seen["answers_at_response"] = _answers(connector)
            await asyncio.to_thread(turn.started.wait, 30)  # the turn runs in the worker pool ...
            seen["answers_while_computing"] = _answers(connector)
            turn.release.set()  # ... and only now produces its answer
            await bot.settle()
            seen["answered_s"] = time.monotonic() - started

    run(scenario)
    assert seen["status"] == 201
    assert seen["answers_at_response"] == [] and seen["answers_while_computing"] == []
    assert _answers(connector) == ["Jawaban untuk: Berapa tarif PPN?"]
    typing, answer = [c for c in connector.calls if c.conversation_id == CHAT]
    assert typing.body["type"] == "typing" and answer.body["type"] == "message"  # typing first
    assert answer.body["replyToId"] == typing.body["replyToId"]  # both address the question
    assert [m.text for m in turn.calls] == ["Berapa tarif PPN?"]
    assert seen["response_s"] < seen["answered_s"]


@pytest.mark.parametrize("status", [500, 429, 503])
def test_a_refused_answer_is_retried_and_posted_exactly_once(
    tmp_path: Path, connector: MockBotConnector, status: int
) -> None:
    connector.state.fail_posts = [status]
    turn = HeldTurn(held=False)
    deps = make_deps(tmp_path, connector.url, FakeClock(), turn=turn, retry=FAST)

    async def scenario() -> None:
        async with running(make_settings(tmp_path, connector.url), deps) as bot:
            assert (await bot.post(text_activity("ap.clerk", "Tarif PPh 23?", connector.url, CHAT)))[0] == 201

    run(scenario)
    assert [r.method for r in connector.refused()] == [f"REFUSED {status}"]
    assert _answers(connector) == ["Jawaban untuk: Tarif PPh 23?"]  # once, not lost, not twice
    assert len(turn.calls) == 1  # the same answer was sent again, never recomputed


def test_an_answer_whose_response_was_lost_is_not_sent_twice(
    tmp_path: Path, connector: MockBotConnector, caplog: pytest.LogCaptureFixture
) -> None:
    """The connector posted the answer but the connection dropped before its response: sending again
    would show the answer twice, so it is not resent (and the operator sees an ERROR)."""
    connector.state.drop_post_responses = 1
    turn = HeldTurn(held=False)
    deps = make_deps(tmp_path, connector.url, FakeClock(), turn=turn, retry=FAST)

    async def scenario() -> None:
        async with running(make_settings(tmp_path, connector.url), deps) as bot:
            await bot.post(text_activity("ap.clerk", "Tarif PPN?", connector.url, CHAT))
            await bot.post(text_activity("ap.clerk", "Tarif PPh 21?", connector.url, CHAT))

    with caplog.at_level("ERROR", logger="bot.teams.answering"):
        run(scenario)
    assert connector.state.drop_post_responses == 0  # the fault was used, on the first answer
    assert _answers(connector) == ["Jawaban untuk: Tarif PPN?", "Jawaban untuk: Tarif PPh 21?"]
    (lost,) = [r for r in caplog.records if "response lost" in r.getMessage()]
    assert lost.levelname == "ERROR" and "Tarif" not in lost.getMessage()  # no message body in logs


def test_an_answer_refused_for_good_is_not_retried(tmp_path: Path, connector: MockBotConnector) -> None:
    """403/404 (bot removed, conversation gone) are final: one attempt, logged, no loop."""
    connector.state.fail_posts = [403, 403]
    deps = make_deps(tmp_path, connector.url, FakeClock(), turn=HeldTurn(held=False), retry=FAST)

    async def scenario() -> None:
        async with running(make_settings(tmp_path, connector.url), deps) as bot:
            await bot.post(text_activity("ap.clerk", "Tarif PPN?", connector.url, CHAT))

    run(scenario)
    assert [r.method for r in connector.refused()] == ["REFUSED 403"]
    assert connector.state.fail_posts == [403]
    assert _answers(connector) == []


def test_a_redelivered_activity_is_answered_once(tmp_path: Path, connector: MockBotConnector) -> None:
    turn = HeldTurn(held=False)
    deps = make_deps(tmp_path, connector.url, FakeClock(), turn=turn, retry=FAST)
    activity = text_activity("ap.clerk", "Tarif PPN?", connector.url, CHAT)

    async def scenario() -> list[int]:
        async with running(make_settings(tmp_path, connector.url), deps) as bot:
            return [(await bot.post(activity))[0] for _ in range(3)]

    assert run(scenario) == [201, 201, 201]
    assert _answers(connector) == ["Jawaban untuk: Tarif PPN?"]
    assert len(turn.calls) == 1


def test_a_failing_turn_still_gets_an_apology_after_the_response(
    tmp_path: Path, connector: MockBotConnector
) -> None:
    class Broken:
        def handle(self, message: InboundMessage) -> Reply:
            raise RuntimeError("vector index vanished")

    connector.state.fail_posts = [500]  # and the first apology attempt is refused too
    deps = make_deps(tmp_path, connector.url, FakeClock(), turn=Broken(), retry=FAST)

    async def scenario() -> None:
        async with running(make_settings(tmp_path, connector.url), deps) as bot:
            await bot.post(text_activity("ap.clerk", "Tarif PPN?", connector.url, CHAT))

    run(scenario)
    (apology,) = _answers(connector)
    assert apology.startswith("Maaf") and "ref " in apology and "vanished" not in apology


def test_card_clicks_do_not_wait_for_busy_answer_workers_or_the_outbox(
    tmp_path: Path, connector: MockBotConnector
) -> None:
    """Both answer workers hold a question, and the relay to the asker is stuck: a claim click still
    returns its refreshed card at once; the card update and relay follow in the background."""
    relay_gate = threading.Event()
    relayed: list[str] = []

    class StuckRelay:
        def relay_answer(self, thread: ThreadRef, text: str, responder: str, at: Any) -> str:
            relay_gate.wait(60)
            relayed.append(text)
            return "1700000000.000001"

        def relay_notice(self, thread: ThreadRef, text: str) -> str:
            relay_gate.wait(60)
            relayed.append(text)
            return "1700000000.000002"

    turn = HeldTurn()
    deps = make_deps(
        tmp_path,
        connector.url,
        FakeClock(),
        turn=turn,
        retry=FAST,
        answer_workers=2,
        relays={"slack": StuckRelay()},
    )
    ticket = open_ticket(deps.tickets)
    url = connector.url
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        async with running(make_settings(tmp_path, url), deps) as bot:
            await bot.flush()  # the ticket card
            card_id = connector.posts()[0].activity_id
            for n in range(3):  # two workers busy, one question queued
                await bot.post(text_activity("ap.clerk", f"q{n}", url, f"a:chat-{n}"), settle=False)
            await asyncio.to_thread(turn.started.wait, 30)
            claim = execute_activity("tax.analyst", "claim", data("claim", ticket.id), url, card_id)
            await bot.post(claim, settle=False)
            await bot.runtime.worker.idle()  # the claim's card update (answers are still held)
            status, body = await bot.post(
                execute_activity(
                    "tax.analyst",
                    "answer",
                    data("answer", ticket.id, answer_text="Tarifnya 4%."),
                    url,
                    card_id,
                ),
                settle=False,
            )
            seen["click"] = (status, body)
            seen["relayed_at_click"] = list(relayed)
            seen["answers_at_click"] = [
                p for p in connector.posts() if p.conversation_id.startswith("a:chat-")
            ]
            relay_gate.set()
            turn.release.set()
            await bot.settle()

    run(scenario)
    status, body = seen["click"]
    assert status == 200 and body["type"] == cards.CARD_CONTENT_TYPE
    assert cards.texts_of(body["value"])[0] == f"Ticket {ticket.id}: Answered"
    assert seen["relayed_at_click"] == [] and seen["answers_at_click"] == []
    assert relayed == [f"Tarifnya 4%.\n(ticket {ticket.id})"]
    assert sorted(
        p.conversation_id for p in connector.posts() if p.conversation_id.startswith("a:chat-")
    ) == [
        "a:chat-0",
        "a:chat-1",
        "a:chat-2",
    ]
    assert cards.texts_of(connector.current(connector.posts()[0].activity_id)["attachments"][0]["content"])[
        0
    ] == (f"Ticket {ticket.id}: Answered")
    assert S.TURN_FAILED not in " ".join(p.body.get("text") or "" for p in connector.posts())


def test_a_refused_answer_card_is_sent_again_as_text(tmp_path: Path, connector: MockBotConnector) -> None:
    """Teams refuses a card it cannot take (413 too large, 400 bad card): the asker still gets the answer,
    with its quote and source, as text -- once."""
    from tests.slack.fake_turn import vat_answer

    class CardTurn:
        def handle(self, message: InboundMessage) -> Reply:
            answer = vat_answer()
            return Reply(answer=answer, text=answer["answer"], status="answered", reference_id="R1")

    connector.state.fail_posts = [413]
    deps = make_deps(tmp_path, connector.url, FakeClock(), turn=CardTurn(), retry=FAST)

    async def scenario() -> None:
        async with running(make_settings(tmp_path, connector.url), deps) as bot:
            await bot.post(text_activity("ap.clerk", "Tarif PPN?", connector.url, CHAT))

    run(scenario)
    (refused,) = connector.refused()
    assert refused.body["attachments"][0]["contentType"] == cards.CARD_CONTENT_TYPE
    (text,) = [p.body for p in connector.posts() if p.conversation_id == CHAT]
    assert "attachments" not in text or not text["attachments"]
    claim = vat_answer()["claims"][0]
    assert claim["quote"] in text["text"]
