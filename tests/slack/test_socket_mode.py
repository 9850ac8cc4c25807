"""Socket Mode round trip: the app's real slack_sdk Socket Mode client against a local WebSocket server."""

from __future__ import annotations

import json

from tests.slack.conftest import AP_CLERK, DM, TAX_ANALYST, slack_settings
from tests.slack.fake_turn import FakeTurn
from tests.slack.mock_slack import TEAM, MockSlackApi, MockSocketModeServer, event_body


def test_socket_mode_round_trip_acks_answers_and_dedupes_retries() -> None:
    from slack_sdk import WebClient

    from bot.slack.app import build_slack_app

    api = MockSlackApi()
    socket_server = MockSocketModeServer()
    api.socket_url = socket_server.start()
    base_url = api.start()
    turn = FakeTurn()
    frontend = build_slack_app(
        slack_settings(slack_signing_secret=None),
        turn,
        socket=True,
        web_client=WebClient(token="xoxb-test-token", base_url=base_url),
    )
    try:
        handler = frontend.socket_mode_handler("xapp-1-test", ping_interval=30)
        handler.connect()
        socket_server.wait_connected()
        assert api.calls_of("apps.connections.open")[0].params == {}  # token travels in the header

        event = {
            "type": "message",
            "channel_type": "im",
            "channel": DM,
            "user": AP_CLERK,
            "text": "Berapa tarif PPN?",
            "ts": "1700000200.000100",
        }
        envelope = {
            "envelope_id": "env-1",
            "type": "events_api",
            "accepts_response_payload": False,
            "payload": event_body(event, "EvS1"),
            "retry_attempt": 0,
            "retry_reason": "",
        }
        socket_server.send(envelope)
        assert socket_server.wait_ack("env-1") == {"envelope_id": "env-1"}
        post = api.wait_for("chat.postMessage")[0]
        assert (post.params["channel"], post.params["thread_ts"]) == (DM, "1700000200.000100")
        assert "> a. sebesar 11%" in json.dumps(post.params["blocks"], ensure_ascii=False)

        # Slack re-sends the event under a new envelope id (retry_attempt 1): acked, not answered again.
        socket_server.send(dict(envelope, envelope_id="env-2", retry_attempt=1, retry_reason="timeout"))
        assert socket_server.wait_ack("env-2") == {"envelope_id": "env-2"}

        # A button click over the socket: the clicking user's feedback is stored.
        value = next(
            e["negative_button"]["value"]
            for b in post.params["blocks"]
            if b["type"] == "context_actions"
            for e in b["elements"]
            if e["action_id"] == "dasar_feedback"
        )
        click = {
            "type": "block_actions",
            "team": {"id": TEAM},
            "user": {"id": TAX_ANALYST, "team_id": TEAM},
            "api_app_id": "A0DASAR",
            "container": {"type": "message", "message_ts": post.params.get("ts", "1.1"), "channel_id": DM},
            "channel": {"id": DM},
            "message": {"ts": "1700000000.000001"},
            "actions": [
                {
                    "action_id": "dasar_feedback",
                    "value": value,
                    "type": "feedback_buttons",
                    "action_ts": "1700000300.000001",
                    "block_id": "dasar_feedback",
                }
            ],
        }
        socket_server.send(
            {
                "envelope_id": "env-3",
                "type": "interactive",
                "accepts_response_payload": False,
                "payload": click,
            }
        )
        assert socket_server.wait_ack("env-3") == {"envelope_id": "env-3"}
        api.wait_for("chat.postEphemeral")
        frontend.executor.shutdown(wait=True)  # every acked envelope's work has finished: no sleep needed
        assert len(api.calls_of("chat.postMessage")) == 1
        assert len(turn.handled) == 1
        assert turn.feedback_calls == [(TAX_ANALYST, "1700000200.000100", False)]
        assert frontend.listeners.stats["duplicates_dropped"] == 1
    finally:
        frontend.close()
        socket_server.stop()
        api.stop()
