"""Acks never wait: not behind busy answer workers, not behind a slow or rate-limited Slack call made
before the ack (the assistant-thread status), so Slack always gets its 200 within 3 s.

The real bolt app over HTTP on loopback, a real ``WebClient`` and the stand-in Web API.  ``Harness.post``
gives up after 5 s, so an ack held by a ``Retry-After: 30`` fails the test instead of passing late.
"""

from __future__ import annotations

from typing import Any

from tests.slack.conftest import AP_CLERK, DM, build_harness
from tests.slack.fake_turn import FakeTurn
from tests.slack.mock_slack import MockSlackApi
from tests.slack.test_http import buttons_of, click_payload, dm, posted_text


def _assistant_question(text: str, ts: str, thread_ts: str) -> dict[str, Any]:
    return dict(dm(text, ts), thread_ts=thread_ts)


def test_a_rate_limited_status_call_does_not_hold_the_ack() -> None:
    api = MockSlackApi(http_faults={"assistant.threads.setStatus": [429]})
    api.retry_after = 30  # the SDK's retry handler would sleep 30 s before the ack went out
    for harness in build_harness(api, FakeTurn()):
        event = _assistant_question("Berapa tarif PPN?", "1700000501.000200", "1700000501.000100")
        assert harness.send_event(event, "EvAck1") == 200
        (answer,) = harness.api.wait_for("chat.postMessage", timeout=20)
        harness.settle()
        assert [status for _, status in harness.api.faulted] == [429]  # tried once, not retried
        assert "sebesar 11% (sebelas persen)" in posted_text(answer)


def test_a_hanging_status_call_does_not_hold_the_ack() -> None:
    api = MockSlackApi()
    for harness in build_harness(api, FakeTurn()):
        api.hold("assistant.threads.setStatus")
        try:
            event = _assistant_question("Berapa tarif PPN?", "1700000502.000200", "1700000502.000100")
            assert harness.send_event(event, "EvAck2") == 200  # the status call timed out after 1 s
            assert api.held["assistant.threads.setStatus"] == 1
        finally:
            api.release("assistant.threads.setStatus")
        harness.api.wait_for("chat.postMessage", timeout=20)
        harness.settle()


def test_clicks_are_acked_while_every_worker_is_busy() -> None:
    """In-process twin of the served test: 4 workers held on the working reaction, a click still acks."""
    api = MockSlackApi()
    for harness in build_harness(api, FakeTurn()):  # slack_workers=4
        assert harness.send_event(dm("Berapa tarif PPN?", "1700000503.000100"), "EvAck3") == 200
        value = buttons_of(harness.api.wait_for("chat.postMessage")[0])["dasar_feedback:up"]
        api.hold("reactions.add")
        try:
            for i in range(6):
                assert (
                    harness.send_event(dm("Berapa tarif PPN?", f"1700000504.00010{i}"), f"EvAck4{i}") == 200
                )
            api.wait_held("reactions.add", 4)
            click = click_payload("dasar_feedback", value, user=AP_CLERK, action_ts="1700000505.000001")
            assert harness.click(click) == 200
            assert api.held["reactions.add"] == 4 and len(harness.api.calls_of("chat.postMessage")) == 1
        finally:
            api.release("reactions.add")
        harness.api.wait_for("chat.postMessage", 7, timeout=30)
        (thanks,) = harness.api.wait_for("chat.postEphemeral", timeout=20)
        harness.settle()
        assert thanks.params["user"] == AP_CLERK and thanks.params["channel"] == DM
