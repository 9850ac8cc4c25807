"""Slack AI-app handlers against the local stand-in Web API (real slack_sdk client, real bolt dispatch):
suggested prompts, status and title of assistant threads, and feedback_buttons clicks stored in the
ticket store."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from slack_sdk import WebClient

from bot.slack import assistant, render
from bot.slack.strings import SUGGESTED_PROMPTS
from tests.slack.fake_turn import vat_answer
from tests.slack.mock_slack import TEAM, MockSlackApi, action_form, event_body, signed_headers
from tickets import SqliteTicketStore

USER = "U04TAXAN4R"
DM = "D0DMCHAN01"


@pytest.fixture
def api() -> Iterator[MockSlackApi]:
    server = MockSlackApi()
    server.url = server.start()  # type: ignore[attr-defined]
    yield server
    server.stop()


@pytest.fixture
def client(api: MockSlackApi) -> WebClient:
    return WebClient(token="xoxb-test-token", base_url=api.url)  # type: ignore[attr-defined]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteTicketStore]:
    with SqliteTicketStore(tmp_path / "t.db") as s:
        yield s


def feedback_click(verdict: str, *, user: str = USER, action_ts: str = "1700000300.000001") -> dict[str, Any]:
    rendered = render.render_answer(
        vat_answer(), language="id", thread_ts="1700000200.000100", reference="SLK-1"
    )
    element = next(b for b in rendered.blocks if b["type"] == "context_actions")["elements"][0]
    button = element["positive_button" if verdict == "up" else "negative_button"]
    return {
        "type": "block_actions",
        "team": {"id": TEAM},
        "user": {"id": user, "team_id": TEAM},
        "api_app_id": "A0DASAR",
        "container": {"type": "message", "message_ts": "1700000200.000900", "channel_id": DM},
        "channel": {"id": DM},
        "message": {"ts": "1700000200.000900", "thread_ts": "1700000200.000100"},
        "actions": [
            {
                "type": "feedback_buttons",
                "action_id": element["action_id"],
                "block_id": "dasar_feedback",
                "value": button["value"],
                "action_ts": action_ts,
            }
        ],
    }


def test_thread_started_sets_bilingual_suggested_prompts(api: MockSlackApi, client: WebClient) -> None:
    event = {
        "type": "assistant_thread_started",
        "assistant_thread": {
            "user_id": USER,
            "context": {},
            "channel_id": DM,
            "thread_ts": "1729999327.187299",
        },
    }
    assert assistant.handle_thread_started(event, client) is True
    (call,) = api.calls_of("assistant.threads.setSuggestedPrompts")
    assert (call.params["channel_id"], call.params["thread_ts"]) == (DM, "1729999327.187299")
    prompts = call.params["prompts"]
    prompts = json.loads(prompts) if isinstance(prompts, str) else prompts
    assert [p["message"] for p in prompts] == [m for _, m in SUGGESTED_PROMPTS]
    assert any("Berapa" in p["message"] for p in prompts) and any("What" in p["message"] for p in prompts)
    assert len(prompts) <= 4


def test_status_failures_outside_assistant_threads_are_not_fatal() -> None:
    api = MockSlackApi(fail={"assistant.threads.setStatus": "not_allowed_token_type"})
    api.url = api.start()  # type: ignore[attr-defined]
    try:
        failing = WebClient(token="xoxb-test-token", base_url=api.url)  # type: ignore[attr-defined]
        assert assistant.searching(failing, channel=DM, thread_ts="1.1", question="x", language="id") is False
    finally:
        api.stop()


def test_status_while_searching_and_thread_title(api: MockSlackApi, client: WebClient) -> None:
    question = "Berapa tarif PPN untuk penyerahan barang kena pajak sejak April 2022 menurut UU HPP?"
    ok = assistant.searching(client, channel=DM, thread_ts="1.1", question=question, language="id")
    assert ok is True
    (status,) = api.calls_of("assistant.threads.setStatus")
    assert status.params["status"] == "Mencari di peraturan\u2026"
    (title,) = api.calls_of("assistant.threads.setTitle")
    assert title.params["title"].startswith("Berapa tarif PPN") and len(title.params["title"]) <= 60
    assistant.clear_status(client, channel=DM, thread_ts="1.1")
    assert api.calls_of("assistant.threads.setStatus")[-1].params["status"] == ""


def test_feedback_click_is_stored_with_answer_reference_and_thanked(
    api: MockSlackApi, client: WebClient, store: SqliteTicketStore
) -> None:
    deps = assistant.AssistantDeps(feedback_store=store)
    stored = assistant.handle_feedback(feedback_click("down"), client, deps, team=TEAM, user=USER)
    assert stored is not None
    (row,) = store.list_feedback()
    assert (row.answer_ref, row.user_id, row.platform, row.tenant) == ("SLK-1", USER, "slack", TEAM)
    assert (row.verdict, row.answer_status, row.confidence_band, row.corpus_version) == (
        "not_helpful",
        "answered",
        "high",
        "c0ffee12",
    )
    (thanks,) = api.calls_of("chat.postEphemeral")
    assert thanks.params["user"] == USER and thanks.params["text"] == "Terima kasih atas masukannya."
    # The user changes their mind: still one row, latest verdict.
    assistant.handle_feedback(feedback_click("up"), client, deps, team=TEAM, user=USER)
    assert [(f.answer_ref, f.verdict) for f in store.list_feedback()] == [("SLK-1", "helpful")]


def test_feedback_comment_is_masked_before_storage(client: WebClient, store: SqliteTicketStore) -> None:
    # The default masker is the inbound guardrail (tested with the guardrails); here: it is applied.
    assert assistant.AssistantDeps().mask is assistant.mask_comment
    deps = assistant.AssistantDeps(
        feedback_store=store, mask=lambda text: text.replace("budi@contoh.co.id", "<EMAIL_1>")
    )
    assistant.handle_feedback(
        feedback_click("down"),
        client,
        deps,
        team=TEAM,
        user=USER,
        comment="salah, email saya budi@contoh.co.id",
    )
    (row,) = store.list_feedback()
    assert row.comment_masked == "salah, email saya <EMAIL_1>"


def test_feedback_with_forged_or_foreign_value_is_ignored(
    client: WebClient, store: SqliteTicketStore
) -> None:
    deps = assistant.AssistantDeps(feedback_store=store)
    body = feedback_click("down")
    body["actions"][0]["value"] = json.dumps({"r": "SLK-1", "v": "maybe"})
    assert assistant.handle_feedback(body, client, deps, team=TEAM, user=USER) is None
    body["actions"][0]["action_id"] = "someone_else"
    assert assistant.handle_feedback(body, client, deps, team=TEAM, user=USER) is None
    assert store.list_feedback() == []


def test_register_assistant_through_bolt_dispatch(
    api: MockSlackApi, client: WebClient, store: SqliteTicketStore
) -> None:
    from slack_bolt import App
    from slack_bolt.request import BoltRequest

    from tests.slack.mock_slack import SIGNING_SECRET

    app = App(signing_secret=SIGNING_SECRET, client=client, process_before_response=False)
    assistant.register_assistant(app, assistant.AssistantDeps(feedback_store=store))
    body = action_form(feedback_click("up"))
    response = app.dispatch(
        BoltRequest(body=body, headers=signed_headers(body, content_type="application/x-www-form-urlencoded"))
    )
    assert response.status == 200
    api.wait_for("chat.postEphemeral")
    assert [(f.answer_ref, f.verdict, f.user_id) for f in store.list_feedback()] == [
        ("SLK-1", "helpful", USER)
    ]
    started = json.dumps(
        event_body(
            {
                "type": "assistant_thread_started",
                "assistant_thread": {"user_id": USER, "channel_id": DM, "thread_ts": "1.2", "context": {}},
                "event_ts": "1.3",
            },
            "Ev-assistant-1",
        )
    )
    assert app.dispatch(BoltRequest(body=started, headers=signed_headers(started))).status == 200
    api.wait_for("assistant.threads.setSuggestedPrompts")


def test_questions_in_assistant_threads_get_status_and_a_first_question_title(
    api: MockSlackApi, client: WebClient
) -> None:
    from slack_bolt import App
    from slack_bolt.request import BoltRequest

    from tests.slack.mock_slack import SIGNING_SECRET

    app = App(signing_secret=SIGNING_SECRET, client=client, process_before_response=False)
    assistant.register_assistant(app, assistant.AssistantDeps())

    def question(text: str, ts: str, thread_ts: str | None, event_id: str) -> None:
        event = {"type": "message", "channel_type": "im", "channel": DM, "user": USER, "text": text, "ts": ts}
        if thread_ts:
            event["thread_ts"] = thread_ts
        body = json.dumps(event_body(event, event_id))
        app.dispatch(BoltRequest(body=body, headers=signed_headers(body)))

    question("What is the VAT rate for services?", "1.11", "1.10", "Ev-q1")
    question("Dan untuk barang?", "1.12", "1.10", "Ev-q2")
    question("Halo", "2.1", None, "Ev-q3")  # a DM outside a thread: no assistant calls
    statuses = api.calls_of("assistant.threads.setStatus")
    assert [c.params["status"] for c in statuses] == [
        "Searching the regulations\u2026",
        "Mencari di peraturan\u2026",
    ]
    (title,) = api.calls_of("assistant.threads.setTitle")
    assert (title.params["thread_ts"], title.params["title"]) == (
        "1.10",
        "What is the VAT rate for services?",
    )


def test_repeated_click_is_stored_idempotently_but_audited_and_thanked_once(
    api: MockSlackApi, client: WebClient, store: SqliteTicketStore
) -> None:
    from tests.slack.fake_turn import FakeTurn

    turn = FakeTurn()
    deps = assistant.AssistantDeps(feedback_store=store, turn=turn)
    for action_ts in ("1700000300.000001", "1700000301.000001"):
        assistant.handle_feedback(
            feedback_click("up", action_ts=action_ts), client, deps, team=TEAM, user=USER
        )
    assert turn.feedback_calls == [(USER, "1700000200.000100", True)]
    assert len(api.calls_of("chat.postEphemeral")) == 1
    assert [(f.answer_ref, f.verdict) for f in store.list_feedback()] == [("SLK-1", "helpful")]
