"""Slack Web API faults: a 429 with Retry-After or a 500 from ``chat.postMessage`` never drops an answer.

The real bolt app over HTTP on loopback posts through a real ``slack_sdk.WebClient`` to the stand-in
Web API, which answers the first calls of ``chat.postMessage`` with HTTP 429 (``Retry-After: 1``) or 500.
The SDK's retry handlers attached by :mod:`bot.slack.client` post the answer again; Slack records it once.
"""

from __future__ import annotations

import json
import time
from typing import Any

from slack_sdk import WebClient
from slack_sdk.http_retry.builtin_handlers import (
    ConnectionErrorRetryHandler,
    RateLimitErrorRetryHandler,
    ServerErrorRetryHandler,
)

from bot.runtime import build_runtime
from bot.slack.client import MAX_RETRIES, ErrorObserver, make_web_client, with_retries
from tests.slack.conftest import AP_CLERK, DM, build_harness, slack_settings
from tests.slack.fake_turn import FakeTurn
from tests.slack.mock_slack import MockSlackApi


def _dm(text: str, ts: str) -> dict[str, Any]:
    return {"type": "message", "channel_type": "im", "channel": DM, "user": AP_CLERK, "text": text, "ts": ts}


def _text(call: Any) -> str:
    return json.dumps(call.params.get("blocks", []), ensure_ascii=False) + call.params.get("text", "")


def _retries() -> dict[str, float]:
    """``dasar_platform_api_retries_total`` of chat.postMessage by kind (the process's metrics)."""
    from prometheus_client.parser import text_string_to_metric_families

    from bot import metrics

    body, _ = metrics.render()
    return {
        s.labels["kind"]: s.value
        for f in text_string_to_metric_families(body.decode())
        for s in f.samples
        if s.name == "dasar_platform_api_retries_total" and s.labels.get("method") == "chat.postMessage"
    }


def _answer_once_after(faults: list[int]) -> tuple[MockSlackApi, float]:
    api = MockSlackApi(http_faults={"chat.postMessage": faults})
    before = _retries()
    for harness in build_harness(api, FakeTurn()):
        t0 = time.monotonic()
        assert harness.send_event(_dm("Berapa tarif PPN sekarang?", "1700000101.000100"), "EvF01") == 200
        harness.api.wait_for("chat.postMessage", timeout=20)
        elapsed = time.monotonic() - t0
        harness.settle()  # every accepted turn finished: no second post can come later
        posts = harness.api.calls_of("chat.postMessage")
        assert len(posts) == 1, [_text(p) for p in posts]
        assert posts[0].params["channel"] == DM and posts[0].params["thread_ts"] == "1700000101.000100"
        assert "sebesar 11% (sebelas persen)" in _text(posts[0])
        assert "Maaf, terjadi kesalahan" not in _text(posts[0])
        assert [status for _, status in harness.api.faulted] == faults
        assert harness.frontend.listeners.stats["errors"] == 0
        after = _retries()
        kinds = {429: "rate_limited", 500: "server_error"}
        for kind in set(kinds.values()):  # operators see each retry on /metrics
            expected = sum(1 for status in faults if kinds[status] == kind)
            assert after.get(kind, 0.0) - before.get(kind, 0.0) == expected, (kind, before, after)
        return api, elapsed
    raise AssertionError("harness did not start")


def test_429_with_retry_after_is_retried_and_the_answer_posted_once() -> None:
    _, elapsed = _answer_once_after([429])
    assert elapsed >= 1.0  # Retry-After: 1 was honoured


def test_500_twice_is_retried_and_the_answer_posted_once() -> None:
    _answer_once_after([500, 500])


def test_mixed_rate_limit_and_server_error_still_posts_once() -> None:
    _answer_once_after([500, 429])


def test_a_lasting_outage_ends_after_bounded_retries() -> None:
    api = MockSlackApi(http_faults={"chat.postMessage": [500] * 50})
    base_url = api.start()
    try:
        client = make_web_client("xoxb-test-token", base_url)
        try:
            client.chat_postMessage(channel=DM, text="x")
        except Exception as exc:
            assert "500" in str(exc) or "fatal_error" in str(exc)
        else:
            raise AssertionError("a lasting 500 must surface")
        assert len(api.faulted) == MAX_RETRIES + 1
        assert api.calls_of("chat.postMessage") == []
    finally:
        api.stop()


def _kinds(client: WebClient) -> set[type]:
    """The built-in retry handler kinds the client carries (ours subclass them to count retries)."""
    bases = (RateLimitErrorRetryHandler, ServerErrorRetryHandler, ConnectionErrorRetryHandler)
    return {base for h in client.retry_handlers for base in bases if isinstance(h, base)}


def test_every_client_the_bot_builds_carries_the_retry_handlers() -> None:
    kinds = {RateLimitErrorRetryHandler, ServerErrorRetryHandler, ConnectionErrorRetryHandler}
    built = make_web_client("xoxb-t", "http://127.0.0.1:9/api/")
    assert _kinds(built) == kinds
    assert all(h.max_retry_count == MAX_RETRIES for h in built.retry_handlers[:-1])
    assert isinstance(built.retry_handlers[-1], ErrorObserver)  # counts final failures, never retries
    given = with_retries(with_retries(WebClient(token="xoxb-t")))  # idempotent, replaces the SDK default
    assert sorted(type(h).__name__ for h in given.retry_handlers) == sorted(
        type(h).__name__ for h in built.retry_handlers
    )
    runtime = build_runtime(slack_settings(slack_api_base_url="http://127.0.0.1:9/api/"))
    assert _kinds(runtime.slack) == kinds
    shared = build_runtime(slack_settings(), slack_client=WebClient(token="xoxb-t")).slack
    assert _kinds(shared) == kinds
