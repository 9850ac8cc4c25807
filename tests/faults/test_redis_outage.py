"""Redis dies under ``dasar serve slack``: questions still get a reply, ``/healthz`` says degraded, and
everything returns to Redis (``ok``) when a redis-server is back on the same port.

A real redis-server is started here on a fixed loopback port, killed (SIGKILL) mid-run and restarted on
that port; the served process, the stand-in Slack Web API and the signed Events API requests are the
same as in ``tests/served``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.served.conftest import post_slack, served, slack_env
from tests.served.test_teams_served import PPN_QUOTE
from tests.slack.mock_slack import MockSlackApi, event_body
from tests.support.ports import free_port
from tests.support.redis_server import _ping

AP_CLERK = "U04APCLRK1"  # corpus/directory.yaml
DM = "D0APCLERK1"
QUESTION = "Berapa tarif PPN yang berlaku sejak 1 April 2022?"


@contextmanager
def redis_on(port: int, workdir: Path) -> Iterator[subprocess.Popen[bytes]]:
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server not installed")
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        cwd=workdir,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while not _ping(port):
            assert proc.poll() is None and time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)


def _send(port: int, text: str, ts: str, event_id: str) -> int:
    event = {"type": "message", "channel_type": "im", "channel": DM, "user": AP_CLERK, "text": text, "ts": ts}
    return post_slack(port, json.dumps(event_body(event, event_id)))


def _health(port: int) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as resp:
        assert resp.status == 200
        return str(resp.read().decode())


def _redis_up(port: int) -> float:
    """``dasar_redis_up`` from ``GET /metrics`` (the scrape probes Redis)."""
    from prometheus_client.parser import text_string_to_metric_families

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as resp:
        text = resp.read().decode()
    (sample,) = [
        s for f in text_string_to_metric_families(text) for s in f.samples if s.name == "dasar_redis_up"
    ]
    return float(sample.value)


def _wait_health(port: int, prefix: str, timeout: float = 30.0) -> str:
    deadline = time.monotonic() + timeout
    while True:
        body = _health(port)
        if body.startswith(prefix) or time.monotonic() > deadline:
            return body
        time.sleep(0.2)


def _reply_to(api: MockSlackApi, ts: str) -> str:
    (post,) = api.wait_for(
        "chat.postMessage", 1, timeout=120, where=lambda c: c.params.get("thread_ts") == ts
    )
    return json.dumps(post.params, ensure_ascii=False)


def test_redis_killed_mid_run_degrades_answers_and_recovers(served_kb: Path, tmp_path: Path) -> None:
    import redis

    api = MockSlackApi(members={})
    slack_url = api.start()
    port, redis_port = free_port(), free_port()
    redis_url = f"redis://127.0.0.1:{redis_port}/0"
    log = tmp_path / "slack.log"
    env = slack_env(
        tmp_path,
        served_kb,
        slack_url,
        DASAR_REDIS_URL=redis_url,
    )
    try:
        with (
            redis_on(redis_port, tmp_path) as first_redis,
            served(["serve", "slack", "--port", str(port)], env, port, log),
        ):
            assert _health(port) == "ok"
            assert _redis_up(port) == 1.0
            assert _send(port, QUESTION, "1772700000.000100", "EvRedis1") == 200
            assert PPN_QUOTE in _reply_to(api, "1772700000.000100")

            first_redis.kill()  # SIGKILL: no goodbye to the clients
            first_redis.wait(timeout=10)
            assert _send(port, QUESTION, "1772700001.000100", "EvRedis2") == 200
            during = _reply_to(api, "1772700001.000100")
            assert PPN_QUOTE in during, during  # answered from the in-process fallbacks
            degraded = _wait_health(port, "degraded")
            assert degraded.startswith("degraded: redis unavailable"), degraded
            assert _redis_up(port) == 0.0  # operators see the outage in the metrics too
            # a second question in the same outage: answered, and no second outage warning
            assert _send(port, QUESTION, "1772700002.000100", "EvRedis3") == 200
            assert PPN_QUOTE in _reply_to(api, "1772700002.000100")

            with redis_on(redis_port, tmp_path):
                assert _wait_health(port, "ok") == "ok"
                assert _redis_up(port) == 1.0
                assert _send(port, QUESTION, "1772700003.000100", "EvRedis4") == 200
                assert PPN_QUOTE in _reply_to(api, "1772700003.000100")
                keys = [k.decode() for k in redis.Redis.from_url(redis_url).keys("*")]
    finally:
        api.stop()
    text = log.read_text(errors="replace")
    assert "Traceback" not in text, text[-3000:]
    assert text.count("redis unavailable: in-process fallback") == 1, text[-3000:]
    assert text.count("redis is back") == 1, text[-3000:]
    assert any(k.startswith("dasar:slack:") for k in keys), keys  # state is shared in Redis again
    assert len(api.calls_of("chat.postMessage")) == 4  # one reply per question, none twice
