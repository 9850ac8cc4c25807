"""The real bolt app over HTTP on loopback, signed requests, a recording mock Slack Web API."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from typing import Any

import pytest

from bot.slack.errors import SlackConfigError
from tests.slack.conftest import (
    AP_CLERK,
    CHANNEL,
    DM,
    TAX_ANALYST,
    TAX_LEAD,
    Harness,
    build_harness,
    slack_settings,
)
from tests.slack.fake_turn import FakeTurn, vat_answer
from tests.slack.mock_slack import BOT_USER, TEAM, MockSlackApi, event_body, sign, signed_headers


def dm(text: str, ts: str, user: str = AP_CLERK, **extra: Any) -> dict[str, Any]:
    return {
        "type": "message",
        "channel_type": "im",
        "channel": DM,
        "user": user,
        "text": text,
        "ts": ts,
        **extra,
    }


def mention(text: str, ts: str, user: str = AP_CLERK, channel: str = CHANNEL, **extra: Any) -> dict[str, Any]:
    return {
        "type": "app_mention",
        "channel": channel,
        "user": user,
        "text": f"<@{BOT_USER}> {text}",
        "ts": ts,
        **extra,
    }


def channel_msg(text: str, ts: str, thread_ts: str | None, user: str = AP_CLERK) -> dict[str, Any]:
    event = {
        "type": "message",
        "channel_type": "channel",
        "channel": CHANNEL,
        "user": user,
        "text": text,
        "ts": ts,
    }
    if thread_ts:
        event["thread_ts"] = thread_ts
    return event


def click_payload(
    action_id: str,
    value: str,
    *,
    user: str,
    channel: str = DM,
    message_ts: str = "1700000000.000001",
    action_ts: str = "1700000100.000001",
    thread_ts: str | None = None,
) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "message", "ts": message_ts, "text": "answer"}
    if thread_ts:
        message["thread_ts"] = thread_ts
    return {
        "type": "block_actions",
        "team": {"id": TEAM, "domain": "snr"},
        "user": {"id": user, "team_id": TEAM},
        "api_app_id": "A0DASAR",
        "token": "legacy",
        "container": {
            "type": "message",
            "message_ts": message_ts,
            "channel_id": channel,
            "is_ephemeral": False,
        },
        "trigger_id": "1.2.3",
        "channel": {"id": channel, "name": "x"},
        "message": message,
        "actions": [
            {
                "action_id": action_id,
                "block_id": "dasar_feedback",
                "value": value,
                "type": "button",
                "action_ts": action_ts,
                "text": {"type": "plain_text", "text": "x"},
            }
        ],
    }


def posted_text(call: Any) -> str:
    return json.dumps(call.params.get("blocks", []), ensure_ascii=False) + call.params.get("text", "")


def buttons_of(call: Any) -> dict[str, str]:
    """action_id -> value of every button in a posted message (feedback: ``<action_id>:up``/``:down``)."""
    out = {}
    for block in call.params.get("blocks", []):
        kinds = ("actions", "context_actions")
        for element in block.get("elements", []) if block.get("type") in kinds else []:
            if element.get("type") == "feedback_buttons":
                out[element["action_id"] + ":up"] = element["positive_button"]["value"]
                out[element["action_id"] + ":down"] = element["negative_button"]["value"]
            else:
                out[element["action_id"]] = element["value"]
    return out


# -- request verification -----------------------------------------------------------------------


def test_bad_signature_and_stale_timestamp_are_rejected(harness: Harness) -> None:
    body = json.dumps(event_body(dm("Berapa tarif PPN?", "1700000001.000100"), "EvBAD"))
    forged = signed_headers(body)
    forged["X-Slack-Signature"] = sign(body, int(forged["X-Slack-Request-Timestamp"]), "not-the-secret")
    assert harness.post(body, forged)[0] == 401

    stale_ts = int(time.time()) - 10 * 60  # Slack's window is 5 minutes
    assert harness.post(body, signed_headers(body, timestamp=stale_ts))[0] == 401

    tampered = signed_headers(body)
    assert harness.post(body.replace("PPN", "PPh"), tampered)[0] == 401

    harness.settle()
    assert harness.turn.handled == []
    assert harness.api.calls_of("chat.postMessage") == []


def test_url_verification_challenge_is_answered(harness: Harness) -> None:
    body = json.dumps({"token": "legacy", "challenge": "c-123", "type": "url_verification"})
    status, text = harness.post(body, signed_headers(body))
    assert status == 200
    assert json.loads(text) == {"challenge": "c-123"}


# -- triggers -----------------------------------------------------------------------------------


def test_direct_message_is_answered_in_thread_with_blocks_and_working_indicator(harness: Harness) -> None:
    assert harness.send_event(dm("Berapa tarif PPN sekarang?", "1700000001.000100"), "Ev001") == 200
    post = harness.api.wait_for("chat.postMessage")[0]
    assert post.params["channel"] == DM
    assert post.params["thread_ts"] == "1700000001.000100"
    text = posted_text(post)
    assert "> a. sebesar 11% (sebelas persen) yang mulai berlaku pada tanggal 1 April 2022;" in text
    assert "*UU 7/2021*" in text and "Pasal 7 ayat (1)" in text
    assert "<https://peraturan.go.id/id/uu-no-7-tahun-2021|UU 7/2021 Pasal 7 ayat (1)>" in text
    assert "Berdasarkan sumber per 2024-06-01" in text
    assert set(buttons_of(post)) == {"dasar_feedback:up", "dasar_feedback:down", "dasar_escalate"}

    harness.api.wait_for("reactions.remove")
    methods = [c.method for c in harness.api.calls if c.method != "auth.test"]
    assert methods == ["reactions.add", "chat.postMessage", "reactions.remove"]
    assert harness.api.calls_of("reactions.add")[0].params["timestamp"] == "1700000001.000100"

    (message,) = harness.turn.handled
    assert (message.platform, message.tenant, message.user_id) == ("slack", TEAM, AP_CLERK)
    assert (message.channel, message.thread_id, message.message_id) == (
        DM,
        "1700000001.000100",
        "1700000001.000100",
    )
    assert message.is_direct is True and message.audience_groups is None
    assert message.text == "Berapa tarif PPN sekarang?"


def test_mention_in_channel_uses_member_intersection_and_strips_the_mention(harness: Harness) -> None:
    assert harness.send_event(mention("Berapa tarif PPN?", "1700000002.000100"), "Ev002") == 200
    post = harness.api.wait_for("chat.postMessage")[0]
    assert (post.params["channel"], post.params["thread_ts"]) == (CHANNEL, "1700000002.000100")
    (message,) = harness.turn.handled
    assert message.text == "Berapa tarif PPN?"
    assert message.is_direct is False
    # AP clerk {ap, finance} & tax lead {tax-team, finance}; the bot itself is not a reader.
    assert message.audience_groups == frozenset({"finance", "everyone"})
    assert harness.api.calls_of("conversations.members")[0].params["channel"] == CHANNEL


def test_thread_follow_up_is_answered_only_in_threads_the_bot_is_part_of(harness: Harness) -> None:
    root = "1700000003.000100"
    harness.send_event(mention("Berapa tarif PPN?", root), "Ev003")
    harness.api.wait_for("chat.postMessage")
    # Plain reply in that thread: a follow-up, no mention needed.
    harness.send_event(
        channel_msg("Kalau untuk Maret 2022?", "1700000003.000200", root, user=TAX_LEAD), "Ev004"
    )
    # Plain reply in another thread, and a top-level channel message: not for the bot.
    harness.send_event(channel_msg("makan siang?", "1700000004.000200", "1700000004.000100"), "Ev005")
    harness.send_event(channel_msg("halo semua", "1700000005.000100", None), "Ev006")
    posts = harness.api.wait_for("chat.postMessage", 2)
    harness.settle()
    assert len(harness.api.calls_of("chat.postMessage")) == 2
    assert [p.params["thread_ts"] for p in posts] == [root, root]
    first, follow_up = harness.turn.handled
    assert (follow_up.channel, follow_up.thread_id) == (first.channel, first.thread_id) == (CHANNEL, root)
    assert follow_up.user_id == TAX_LEAD and follow_up.text == "Kalau untuk Maret 2022?"


def test_shared_channel_answer_is_restricted_and_full_answer_goes_only_to_the_asker(harness: Harness) -> None:
    harness.send_event(mention("Apa isi memo PPh 26 software?", "1700000006.000100", user=TAX_LEAD), "Ev007")
    public = harness.api.wait_for("chat.postMessage")[0]
    private = harness.api.wait_for("chat.postEphemeral")[0]
    assert "MEMO-TAX-2024-07" not in posted_text(public)
    assert "20%" not in posted_text(public)
    assert "Anda bisa melihat lebih banyak" in posted_text(public)
    assert private.params["user"] == TAX_LEAD
    assert (private.params["channel"], private.params["thread_ts"]) == (CHANNEL, "1700000006.000100")
    assert "MEMO-TAX-2024-07" in posted_text(private) and "hanya terlihat oleh Anda" in posted_text(private)
    (message,) = harness.turn.handled
    assert message.audience_groups == frozenset({"finance", "everyone"})


# -- exactly once -------------------------------------------------------------------------------


def test_retries_and_double_delivery_are_answered_once(harness: Harness) -> None:
    ts = "1700000007.000100"
    event = mention("Berapa tarif PPN?", ts)
    assert harness.send_event(event, "Ev008") == 200
    assert harness.send_event(event, "Ev008", retry=1) == 200
    assert harness.send_event(event, "Ev008", retry=2) == 200
    # The same user message also arrives as a message.channels event under another event id.
    assert harness.send_event(channel_msg(f"<@{BOT_USER}> Berapa tarif PPN?", ts, None), "Ev009") == 200
    harness.api.wait_for("chat.postMessage")
    harness.settle()
    assert len(harness.api.calls_of("chat.postMessage")) == 1
    assert len(harness.turn.handled) == 1
    assert harness.frontend.listeners.stats["duplicates_dropped"] == 2


@pytest.mark.redis
def test_retries_to_two_app_processes_are_deduplicated_by_redis(api: MockSlackApi) -> None:
    from bot.slack.redis_backends import RedisDeduper, RedisThreadState, redis_client
    from tests.support.redis_server import running_redis

    with running_redis() as url:
        client = redis_client(url)
        api2 = MockSlackApi(members=api.members)
        gens: list[Iterator[Harness]] = [
            build_harness(a, FakeTurn(), dedupe=RedisDeduper(client, 600), history=RedisThreadState(client))
            for a in (api, api2)
        ]
        first, second = (next(g) for g in gens)
        try:
            event = dm("Berapa tarif PPN?", "1700000008.000100")
            assert first.send_event(event, "Ev010") == 200
            assert second.send_event(event, "Ev010", retry=1) == 200  # the retry lands on another process
            assert second.send_event(event, "Ev010", retry=2) == 200
            first.api.wait_for("chat.postMessage")
            # dedupe runs in the request, before the ack: both retries were dropped when their POSTs returned
            assert second.frontend.listeners.stats["duplicates_dropped"] == 2
            assert (
                len(first.api.calls_of("chat.postMessage")) + len(second.api.calls_of("chat.postMessage"))
                == 1
            )
            assert second.turn.handled == []
            keys = sorted(client.keys("dasar:slack:seen:*"))
            assert f"dasar:slack:seen:event:{TEAM}:Ev010" in keys
            assert 0 < client.ttl(f"dasar:slack:seen:event:{TEAM}:Ev010") <= 600
            # A follow-up in the thread answered by process 1 is recognised by process 2 (shared state).
            second.send_event(mention("lanjut", "1700000009.000100", channel=CHANNEL), "Ev011")
            second.api.wait_for("chat.postMessage")
            second.send_event(channel_msg("dan PPh?", "1700000009.000200", "1700000009.000100"), "Ev012")
            first.send_event(
                channel_msg("dan PPh?", "1700000009.000200", "1700000009.000100"), "Ev012", retry=1
            )
            second.api.wait_for("chat.postMessage", 2)
            first.settle()
            second.settle()
            assert [m.text for m in second.turn.handled] == ["lanjut", "dan PPh?"]
            assert len(first.turn.handled) == 1
        finally:
            for g in gens:
                for _ in g:
                    pass


def test_ack_is_sent_before_a_slow_turn_finishes(api: MockSlackApi) -> None:
    for harness in build_harness(api, FakeTurn(delay=1.5)):
        started = time.monotonic()
        assert harness.send_event(dm("Berapa tarif PPN?", "1700000010.000100"), "Ev013") == 200
        ack_seconds = time.monotonic() - started
        assert ack_seconds < 0.5
        assert harness.api.calls_of("chat.postMessage") == []
        post = harness.api.wait_for("chat.postMessage", timeout=10)[0]
        assert post.at - started >= 1.4


# -- buttons ------------------------------------------------------------------------------------


def test_feedback_button_records_the_clicking_user_once(harness: Harness) -> None:
    harness.send_event(dm("Berapa tarif PPN?", "1700000011.000100"), "Ev014")
    value = buttons_of(harness.api.wait_for("chat.postMessage")[0])["dasar_feedback:up"]
    payload = click_payload("dasar_feedback", value, user=TAX_ANALYST, action_ts="1700000111.000001")
    assert harness.click(payload) == 200
    assert harness.click(payload) == 200  # redelivery of the same click
    assert (
        harness.click(click_payload("dasar_feedback", value, user=TAX_ANALYST, action_ts="1700000112.000001"))
        == 200
    )  # second click
    harness.api.wait_for("chat.postEphemeral")
    harness.settle()
    assert harness.turn.feedback_calls == [(TAX_ANALYST, "1700000011.000100", True)]
    (thanks,) = harness.api.calls_of("chat.postEphemeral")
    assert thanks.params["user"] == TAX_ANALYST and "Terima kasih" in posted_text(thanks)


def test_ask_the_tax_team_opens_one_ticket_and_confirms_in_thread(harness: Harness) -> None:
    root = "1700000012.000100"
    harness.send_event(mention("Berapa tarif PPN?", root), "Ev015")
    post = harness.api.wait_for("chat.postMessage")[0]
    value = buttons_of(post)["dasar_escalate"]
    harness.click(
        click_payload(
            "dasar_escalate",
            value,
            user=AP_CLERK,
            channel=CHANNEL,
            message_ts=post.params.get("ts", "1700000012.000900"),
            thread_ts=root,
            action_ts="1700000120.000001",
        )
    )
    confirm = harness.api.wait_for("chat.postMessage", 2)[1]
    assert confirm.params["thread_ts"] == root and confirm.params["channel"] == CHANNEL
    assert "TKT-0001" in posted_text(confirm) and "tim pajak" in posted_text(confirm)
    # Another user presses it again: same ticket, told privately, no second public confirmation.
    harness.click(
        click_payload(
            "dasar_escalate",
            value,
            user=TAX_LEAD,
            channel=CHANNEL,
            thread_ts=root,
            action_ts="1700000121.000001",
        )
    )
    already = harness.api.wait_for("chat.postEphemeral")[0]
    assert already.params["user"] == TAX_LEAD and "TKT-0001" in posted_text(already)
    assert len(harness.api.calls_of("chat.postMessage")) == 2
    assert [(m.user_id, m.thread_id) for m in harness.turn.escalations] == [
        (AP_CLERK, root),
        (TAX_LEAD, root),
    ]


def test_clarifying_question_quick_reply_runs_a_turn_for_the_clicker(harness: Harness) -> None:
    root = "1700000013.000100"
    harness.send_event(dm("clarify: tarif PPN?", root), "Ev016")
    post = harness.api.wait_for("chat.postMessage")[0]
    assert "Periode pajak yang mana?" in posted_text(post)
    buttons = buttons_of(post)
    assert json.loads(buttons["dasar_clarify:0:1"])["option"] == "April 2022"
    harness.click(
        click_payload(
            "dasar_clarify:0:1",
            buttons["dasar_clarify:0:1"],
            user=AP_CLERK,
            thread_ts=root,
            action_ts="1700000130.000001",
        )
    )
    answer = harness.api.wait_for("chat.postMessage", 2)[1]
    assert answer.params["thread_ts"] == root
    follow_up = harness.turn.handled[1]
    assert (follow_up.text, follow_up.user_id, follow_up.thread_id) == ("April 2022", AP_CLERK, root)


def test_show_more_posts_the_rest_of_a_long_answer(api: MockSlackApi) -> None:
    class LongTurn(FakeTurn):
        def handle(self, message: Any) -> Any:
            reply = super().handle(message)
            claims = [dict(reply.answer["claims"][0], text=f"Klaim nomor {i}") for i in range(60)]
            return type(reply)(
                answer=vat_answer(claims=claims), text="x", status="answered", reference_id=reply.reference_id
            )

    for harness in build_harness(api, LongTurn()):
        harness.send_event(dm("Berapa tarif PPN?", "1700000014.000100"), "Ev017")
        first = harness.api.wait_for("chat.postMessage")[0]
        assert len(first.params["blocks"]) <= 50
        more = buttons_of(first)["dasar_show_more"]
        assert "Klaim nomor 59" not in posted_text(first)
        harness.click(click_payload("dasar_show_more", more, user=AP_CLERK, action_ts="1700000140.000001"))
        page = harness.api.wait_for("chat.postMessage", 2)[1]
        pages = harness.api.calls_of("chat.postMessage")[1:]
        assert "Klaim nomor 59" in "".join(posted_text(c) for c in pages)
        assert page.params["thread_ts"] == "1700000014.000100"


# -- limits and failures --------------------------------------------------------------------------


def test_rate_limit_replies_politely(api: MockSlackApi) -> None:
    for harness in build_harness(api, FakeTurn(), settings=slack_settings(slack_rate_limit=2)):
        for i in range(3):
            harness.send_event(dm("Berapa tarif PPN?", f"1700000015.00010{i}"), f"Ev02{i}")
        posts = harness.api.wait_for("chat.postMessage", 3)
        texts = [posted_text(p) for p in posts]
        assert sum("terlalu banyak" in x for x in texts) == 1
        assert len(harness.turn.handled) == 2
        assert harness.frontend.listeners.stats["rate_limited"] == 1


def test_turn_error_posts_an_apology_with_reference_and_logs_without_text(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.slack")
    harness.send_event(dm("boom rahasia-npwp-123", "1700000016.000100"), "Ev030")
    apology = harness.api.wait_for("chat.postMessage")[0]
    assert apology.params["thread_ts"] == "1700000016.000100"
    text = posted_text(apology)
    assert "Maaf, terjadi kesalahan" in text
    ref = text.split("`")[1]
    assert ref.startswith("SLK-") and len(ref) == 14
    harness.api.wait_for("reactions.remove")
    failures = [r for r in caplog.records if "turn failed" in r.getMessage()]
    assert len(failures) == 1 and ref in failures[0].getMessage() and failures[0].exc_info is not None
    assert all("rahasia" not in r.getMessage() for r in caplog.records)


def test_missing_secrets_are_named_at_start_up() -> None:
    from bot.slack.app import build_slack_app

    with pytest.raises(SlackConfigError, match="DASAR_SLACK_SIGNING_SECRET"):
        build_slack_app(slack_settings(slack_signing_secret=None), FakeTurn())
    with pytest.raises(SlackConfigError, match="DASAR_SLACK_BOT_TOKEN, DASAR_SLACK_APP_TOKEN"):
        build_slack_app(slack_settings(slack_bot_token=None, slack_app_token=None), FakeTurn(), socket=True)
    with pytest.raises(SlackConfigError, match="xapp-"):
        build_slack_app(slack_settings(slack_app_token="xoxb-wrong"), FakeTurn(), socket=True)


def test_serve_fails_fast_naming_the_variable() -> None:
    from bot.slack.app import serve

    with pytest.raises(SlackConfigError, match="DASAR_SLACK_BOT_TOKEN is not set"):
        serve(slack_settings(slack_bot_token=None), FakeTurn(), socket=False, port=0)
