"""``dasar serve slack`` as a process: signed Events API requests in, replies to a stand-in Slack Web API,
with a real redis-server for dedupe, rate limits and thread state."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

from tests.served.conftest import base_env, free_port, served
from tests.served.test_teams_served import PPN_QUOTE
from tests.slack.mock_slack import SIGNING_SECRET, MockSlackApi, event_body, signed_headers
from tests.support.redis_server import running_redis

AP_CLERK = "U04APCLRK1"  # corpus/directory.yaml
DM = "D0APCLERK1"


def _dm(text: str, ts: str) -> dict:
    return {"type": "message", "channel_type": "im", "channel": DM, "user": AP_CLERK, "text": text, "ts": ts}


def _send(port: int, event: dict, event_id: str, *, retry: int | None = None) -> int:
    body = json.dumps(event_body(event, event_id))
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}/slack/events",
        data=body.encode(),
        headers=signed_headers(body, retry=retry),
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=30) as resp:
        return resp.status


def test_served_slack_answers_a_dm_with_a_quote_and_dedupes_through_redis(
    served_kb: Path, tmp_path: Path
) -> None:
    import redis

    api = MockSlackApi(members={})
    slack_url = api.start()
    port = free_port()
    try:
        with running_redis() as redis_url:
            env = base_env(
                tmp_path,
                served_kb,
                DASAR_SLACK_BOT_TOKEN="xoxb-test-token",
                DASAR_SLACK_SIGNING_SECRET=SIGNING_SECRET,
                DASAR_SLACK_API_BASE_URL=slack_url,
                DASAR_SLACK_HTTP_HOST="127.0.0.1",
                DASAR_REDIS_URL=redis_url,
            )
            with served(["serve", "slack", "--port", str(port)], env, port, tmp_path / "slack.log"):
                first = _dm("Berapa tarif PPN yang berlaku sejak 1 April 2022?", "1772600000.000100")
                assert _send(port, first, "EvServed1") == 200
                (reply,) = api.wait_for("chat.postMessage", 1, timeout=120)
                # Slack retries the same delivery: the process must not answer twice
                assert _send(port, first, "EvServed1", retry=1) == 200
                second = _dm("Berapa tarif PPh 23 atas jasa?", "1772600001.000100")
                assert _send(port, second, "EvServed2") == 200
                posts = api.wait_for("chat.postMessage", 2, timeout=120)
                keys = [k.decode() for k in redis.Redis.from_url(redis_url).keys("*")]
    finally:
        api.stop()
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
