"""``bot.metrics``: what the Slack client and the gauges record, read back from the exposition text."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot import metrics
from bot.slack.client import make_web_client
from tests.slack.mock_slack import MockSlackApi


def _samples(m: metrics.Metrics | None = None) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    body, content_type = (m or metrics.METRICS).render()
    assert content_type.startswith("text/plain; version=")
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(body.decode())
        for s in family.samples
    }


def _get(samples: dict, name: str, **labels: str) -> float:
    return float(samples.get((name, tuple(sorted(labels.items()))), 0.0))


def test_slack_client_counts_retries_and_final_errors_by_method_and_kind() -> None:
    api = MockSlackApi(http_faults={"chat.postMessage": [429, 500]}, fail={"chat.update": "msg_too_long"})
    api.retry_after = 0
    client = make_web_client("xoxb-test-token", api.start())
    before = _samples()
    try:
        client.chat_postMessage(channel="D1", text="x")  # 429, 500, then posted
        try:
            client.chat_update(channel="D1", ts="1.2", text="x")
        except Exception as exc:
            assert "msg_too_long" in str(exc)
        else:
            raise AssertionError("ok: false must raise")
    finally:
        api.stop()
    after = _samples()

    def delta(name: str, **labels: str) -> float:
        return _get(after, name, **labels) - _get(before, name, **labels)

    retries = "dasar_platform_api_retries_total"
    errors = "dasar_platform_api_errors_total"
    assert delta(retries, platform="slack", method="chat.postMessage", kind="rate_limited") == 1
    assert delta(retries, platform="slack", method="chat.postMessage", kind="server_error") == 1
    assert delta(errors, platform="slack", method="chat.update", kind="msg_too_long") == 1
    assert delta(errors, platform="slack", method="chat.postMessage", kind="ratelimited") == 0  # it succeeded
    assert len(api.calls_of("chat.postMessage")) == 1


def test_turns_latency_and_gauges_from_a_runtime(tmp_path: Path) -> None:
    from tickets.factory import open_ticket_store

    m = metrics.Metrics()
    m.record_turn("slack", "answered", 1.2)
    m.record_turn("teams", "refused", 0.3)
    m.record_api_error("teams", "send_activity", "http_502")
    store = open_ticket_store(tmp_path / "tickets.sqlite")

    class _Health:
        def status(self) -> tuple[bool, str | None]:
            return False, "redis unavailable (PING: ConnectionError)"

    runtime = SimpleNamespace(settings=SimpleNamespace(redis_url="redis://x"), redis_health=_Health())
    runtime.tickets = store  # an opened store: pinged and its outbox counted
    m.refresh_from(runtime)
    samples = _samples(m)
    assert _get(samples, "dasar_turns_total", platform="slack", status="answered") == 1
    assert _get(samples, "dasar_turns_total", platform="teams", status="refused") == 1
    assert _get(samples, "dasar_answer_seconds_count", platform="slack") == 1
    assert _get(samples, "dasar_answer_seconds_bucket", platform="slack", le="2.0") == 1
    assert _get(samples, "dasar_answer_seconds_bucket", platform="slack", le="1.0") == 0
    assert _get(
        samples, "dasar_platform_api_errors_total", platform="teams", method="send_activity", kind="http_502"
    )
    assert _get(samples, "dasar_redis_up") == 0
    assert _get(samples, "dasar_database_up", database="tickets") == 1
    assert _get(samples, "dasar_outbox_depth") == 0

    store.shutdown()  # the database is gone: the scrape still renders, with the database down
    m.refresh_from(runtime)
    assert _get(_samples(m), "dasar_database_up", database="tickets") == 0


def test_outbox_gauges_follow_the_stats() -> None:
    from tickets.outbox import OutboxStats

    m = metrics.Metrics()
    m.set_outbox(OutboxStats(pending=3, uncertain=1, dead=2, oldest_pending_age_seconds=42.5))
    samples = _samples(m)
    assert _get(samples, "dasar_outbox_depth") == 4
    assert _get(samples, "dasar_outbox_oldest_pending_age_seconds") == 42.5
    assert _get(samples, "dasar_outbox_dead_letters") == 2
    assert _get(samples, "dasar_outbox_uncertain") == 1


def test_socket_mode_health_port_serves_only_health_and_metrics() -> None:
    import urllib.error
    import urllib.request

    from slack_sdk import WebClient

    from bot.slack.app import build_slack_app
    from tests.slack.conftest import slack_settings
    from tests.slack.fake_turn import FakeTurn

    api = MockSlackApi()
    frontend = build_slack_app(
        slack_settings(),
        FakeTurn(),
        web_client=WebClient(token="xoxb-test-token", base_url=api.start()),
        socket=True,
    )
    server = frontend.start_http("127.0.0.1", 0, health_only=True)
    base = f"http://127.0.0.1:{server.port}"
    try:
        with urllib.request.urlopen(base + "/healthz", timeout=5) as resp:
            assert resp.read() == b"ok"
        with urllib.request.urlopen(base + "/metrics", timeout=5) as resp:
            assert b"# TYPE dasar_turns_total counter" in resp.read()
        request = urllib.request.Request(base + "/slack/events", data=b"{}", method="POST")
        try:
            urllib.request.urlopen(request, timeout=5)
        except urllib.error.HTTPError as err:
            assert err.code == 404  # Slack requests come over the socket, never this port
        else:
            raise AssertionError("the health port must not take Slack requests")
    finally:
        frontend.close()
        api.stop()


def test_debug_logs_of_the_slack_libraries_carry_no_message_text(caplog: pytest.LogCaptureFixture) -> None:
    import logging

    from bot.slack.client import BODY_LOGGERS, silence_body_logging

    secret_text = "NPWP saya 01.234.567.8-901.000, tolong cek"
    api = MockSlackApi()
    client = make_web_client("xoxb-test-token", api.start())
    levels = {name: logging.getLogger(name).level for name in BODY_LOGGERS}
    caplog.set_level(logging.DEBUG)  # what `dasar -v serve slack` sets on the root logger
    try:
        client.chat_postMessage(channel="D1", text=secret_text)
        assert any(secret_text in r.getMessage() for r in caplog.records)  # the SDK does log bodies
        caplog.clear()
        silence_body_logging()
        client.chat_postMessage(channel="D1", text=secret_text)
        assert not any(secret_text in r.getMessage() for r in caplog.records)
    finally:
        api.stop()
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)


def test_a_reply_the_model_failed_to_compose_is_counted_apart() -> None:
    """A model failure escalates like low confidence does; operators must see it apart (session 44)."""
    from bot.messages import Reply

    def reply(reason: str | None) -> Reply:
        escalation = {"reason": reason, "ticket_id": "T-000001", "offered": False} if reason else None
        return Reply(answer={"status": "escalated", "escalation": escalation}, text="x", status="escalated")

    before = _samples()
    metrics.record_reply("teams", reply("answer_failed"), 2.0)
    metrics.record_reply("teams", reply("low_confidence"), 1.0)
    metrics.record_reply("teams", reply(None), 1.0)
    after = _samples()

    def delta(name: str, **labels: str) -> float:
        return _get(after, name, **labels) - _get(before, name, **labels)

    assert delta("dasar_answer_failures_total", platform="teams") == 1
    assert delta("dasar_turns_total", platform="teams", status="escalated") == 3
    assert delta("dasar_answer_seconds_count", platform="teams") == 3
