"""``dasar serve slack`` as a process: signed Events API requests in, replies to a stand-in Slack Web API,
with a real redis-server for dedupe, rate limits and thread state."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.served.conftest import post_slack, served, served_slack, slack_env
from tests.served.test_teams_served import PPN_QUOTE
from tests.slack.mock_slack import MockSlackApi, event_body
from tests.support.ports import free_port
from tests.support.redis_server import running_redis

AP_CLERK = "U04APCLRK1"  # corpus/directory.yaml
DM = "D0APCLERK1"


def _dm(text: str, ts: str) -> dict[str, Any]:
    return {"type": "message", "channel_type": "im", "channel": DM, "user": AP_CLERK, "text": text, "ts": ts}


def _send(port: int, event: dict[str, Any], event_id: str, *, retry: int | None = None) -> int:
    return post_slack(port, json.dumps(event_body(event, event_id)), retry=retry)


def test_served_slack_answers_a_dm_with_a_quote_and_dedupes_through_redis(
    served_kb: Path, tmp_path: Path
) -> None:
    import redis

    with served_slack(tmp_path, served_kb) as (port, api, redis_url):
        first = _dm("Berapa tarif PPN yang berlaku sejak 1 April 2022?", "1772600000.000100")
        assert _send(port, first, "EvServed1") == 200
        (reply,) = api.wait_for("chat.postMessage", 1, timeout=120)
        # Slack retries the same delivery: the process must not answer twice
        assert _send(port, first, "EvServed1", retry=1) == 200
        second = _dm("Berapa tarif PPh 23 atas jasa?", "1772600001.000100")
        assert _send(port, second, "EvServed2") == 200
        posts = api.wait_for("chat.postMessage", 2, timeout=120)
        keys = [
            k.decode() if isinstance(k, bytes) else str(k) for k in redis.Redis.from_url(redis_url).keys("*")
        ]
    assert reply.params["channel"] == DM
    assert PPN_QUOTE in json.dumps(reply.params, ensure_ascii=False)
    first_replies = [p for p in posts if PPN_QUOTE in json.dumps(p.params, ensure_ascii=False)]
    assert len(first_replies) == 1
    assert keys, "the served process kept its state in the real Redis"
    # ready means ready: the analyzer, model, stores and a search were loaded before /healthz said ok
    log = (tmp_path / "slack.log").read_text()
    assert "ready: warmed up before serving" in log
    assert all(
        f"{part} " in log.split("ready: warmed up before serving", 1)[1]
        for part in ("guardrails", "store", "retrieval")
    )


# -- one shared process for the metrics and busy-pool tests -------------------------------------------

WORKERS = 2  # DASAR_SLACK_WORKERS: small, so a few held answers fill the pool


@pytest.fixture(scope="module")
def slack_process(
    served_kb: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[int, MockSlackApi]]:
    """``dasar serve slack`` with Redis and a 2-thread answer pool against a stand-in Slack API."""
    tmp_path = tmp_path_factory.mktemp("served-slack-shared")
    api = MockSlackApi(members={})
    slack_url = api.start()
    port = free_port()
    try:
        with running_redis() as redis_url:
            env = slack_env(
                tmp_path,
                served_kb,
                slack_url,
                DASAR_SLACK_WORKERS=str(WORKERS),
                DASAR_SLACK_RATE_LIMIT="100",
                DASAR_REDIS_URL=redis_url,
            )
            with served(["serve", "slack", "--port", str(port)], env, port, tmp_path / "slack.log"):
                yield port, api
    finally:
        api.release("reactions.add")
        api.stop()


def _metrics(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``GET /metrics``: (name, sorted labels) -> value."""
    from prometheus_client.parser import text_string_to_metric_families

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30) as resp:
        assert resp.status == 200
        assert resp.headers["Content-Type"].startswith("text/plain")
        text = resp.read().decode()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def _metrics_once_changed(
    port: int, key: tuple[str, tuple[tuple[str, str], ...]], before: float = 0.0, timeout: float = 10.0
) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """:func:`_metrics` once sample ``key`` differs from ``before`` (bounded by ``timeout``): the served
    process counts a turn right after its reply is posted, so a read as the post arrives may come before the
    count."""
    deadline = time.monotonic() + timeout
    samples = _metrics(port)
    while samples.get(key, 0.0) == before and time.monotonic() < deadline:
        time.sleep(0.05)
        samples = _metrics(port)
    return samples


def _slack_turns(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float]) -> dict[str, float]:
    return {
        dict(labels)["status"]: value
        for (name, labels), value in samples.items()
        if name == "dasar_turns_total" and dict(labels).get("platform") == "slack"
    }


def test_served_slack_exposes_metrics_with_the_turn_counted(slack_process: tuple[int, MockSlackApi]) -> None:
    port, api = slack_process
    before = _metrics(port)
    already = len(api.calls_of("chat.postMessage"))
    assert (
        _send(port, _dm("Berapa tarif PPN yang berlaku sejak 1 April 2022?", "1772700000.000100"), "EvM1")
        == 200
    )
    (reply,) = api.wait_for("chat.postMessage", already + 1, timeout=120)[already:]
    assert PPN_QUOTE in json.dumps(reply.params, ensure_ascii=False)
    count = ("dasar_answer_seconds_count", (("platform", "slack"),))
    after = _metrics_once_changed(port, count, before.get(count, 0.0))
    gained = {
        status: n - _slack_turns(before).get(status, 0.0)
        for status, n in _slack_turns(after).items()
        if n != _slack_turns(before).get(status, 0.0)
    }
    assert list(gained.values()) == [1.0], gained  # exactly one turn, one status
    assert "error" not in gained and "rate_limited" not in gained
    assert after[count] - before.get(count, 0.0) == 1.0
    assert after[("dasar_answer_seconds_sum", (("platform", "slack"),))] > 0
    assert after[("dasar_redis_up", ())] == 1.0
    assert after[("dasar_database_up", (("database", "tickets"),))] == 1.0
    assert after[("dasar_outbox_depth", ())] == 0.0
    assert after[("dasar_outbox_dead_letters", ())] == 0.0


def test_a_click_is_acked_while_every_answer_worker_is_busy(slack_process: tuple[int, MockSlackApi]) -> None:
    """Issue 13: with the answer pool full, a button's ack must not wait in it (Slack gives up after 3 s)."""
    port, api = slack_process
    # a real answer, to click its feedback button later
    already = len(api.calls_of("chat.postMessage"))
    assert _send(port, _dm("Berapa tarif PPh 23 atas jasa?", "1772800000.000100"), "EvBusy0") == 200
    (answer,) = api.wait_for("chat.postMessage", already + 1, timeout=120)[already:]
    feedback = _feedback_value(answer.params)

    api.hold("reactions.add")  # every turn starts with the working reaction: each worker now blocks
    try:
        questions = [f"17728000{i:02d}.000200" for i in range(1, 2 * WORKERS + 2)]
        for i, ts in enumerate(questions):
            assert _send(port, _dm("Berapa tarif PPN?", ts), f"EvBusy{i + 1}") == 200  # events ack at once
        api.wait_held("reactions.add", WORKERS)  # both workers are stuck, the rest of the questions queued
        posted_before_click = len(api.calls_of("chat.postMessage"))

        status = _click(port, feedback, action_ts="1772800100.000001")

        assert status == 200  # bolt answers 404 when the ack did not run within 3 s
        assert api.held["reactions.add"] == WORKERS  # the pool was still full when the ack came back
        assert len(api.calls_of("chat.postMessage")) == posted_before_click
    finally:
        api.release("reactions.add")
    # nothing was lost behind the held workers: every question is answered, the click is thanked
    api.wait_for(
        "chat.postMessage",
        len(questions),
        timeout=180,
        where=lambda c: c.params.get("thread_ts") in questions,
    )
    (thanks,) = api.wait_for(
        "chat.postEphemeral", 1, timeout=60, where=lambda c: c.params["user"] == AP_CLERK
    )
    assert thanks.params["channel"] == DM


def _feedback_value(params: dict[str, Any]) -> str:
    for block in params.get("blocks", []):
        for element in block.get("elements", []) if isinstance(block.get("elements"), list) else []:
            if element.get("type") == "feedback_buttons":
                return str(element["positive_button"]["value"])
    raise AssertionError(f"no feedback buttons in {json.dumps(params)[:2000]}")


def _click(port: int, value: str, *, action_ts: str) -> int:
    from tests.slack.mock_slack import action_form
    from tests.slack.test_http import click_payload

    payload = click_payload("dasar_feedback", value, user=AP_CLERK, channel=DM, action_ts=action_ts)
    return post_slack(port, action_form(payload), content_type="application/x-www-form-urlencoded")
