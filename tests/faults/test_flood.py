"""Flood control: one user sending 40 DMs within a rate window gets exactly one rate-limit notice.

Two paths: the Slack front end's own limiter (bolt app over HTTP, a recording Slack stand-in) and the
turn's per-person limiter of every platform (``dasar serve slack`` as a process over a real index).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.served.conftest import post_slack, served, slack_env
from tests.slack.conftest import AP_CLERK, DM, build_harness, slack_settings
from tests.slack.fake_turn import FakeTurn
from tests.slack.mock_slack import MockSlackApi, event_body
from tests.support.ports import free_port

FLOOD = 40


def _dm(text: str, ts: str, channel: str = DM, user: str = AP_CLERK) -> dict[str, Any]:
    return {"type": "message", "channel_type": "im", "channel": channel, "user": user, "text": text, "ts": ts}


def _text(call: Any) -> str:
    return json.dumps(call.params.get("blocks", []), ensure_ascii=False) + str(call.params.get("text", ""))


def test_forty_dms_get_one_notice_from_the_front_end_limiter() -> None:
    api = MockSlackApi()
    for harness in build_harness(api, FakeTurn(), settings=slack_settings(slack_rate_limit=3)):
        for i in range(FLOOD):
            assert harness.send_event(_dm("Berapa tarif PPN?", f"1700001000.{i:06d}"), f"EvFlood{i}") == 200
        harness.settle()  # every accepted delivery finished: nothing more can be posted
        texts = [_text(p) for p in harness.api.calls_of("chat.postMessage")]
        notices = [x for x in texts if "terlalu banyak" in x]
        answers = [x for x in texts if "sebesar 11% (sebelas persen)" in x]
        assert len(notices) == 1, texts
        assert len(answers) == 3 and len(texts) == 4
        assert len(harness.turn.handled) == 3
        stats = harness.frontend.listeners.stats
        assert stats["rate_limited"] == FLOOD - 3 and stats["notices_suppressed"] == FLOOD - 4


def test_forty_dms_get_one_notice_from_the_turn_limiter_of_the_served_process(
    served_kb: Path, tmp_path: Path
) -> None:

    api = MockSlackApi(members={})
    slack_url = api.start()
    port = free_port()
    channel = "D0APCLERK1"
    env = slack_env(
        tmp_path,
        served_kb,
        slack_url,
        DASAR_SLACK_RATE_LIMIT="2",
        DASAR_SLACK_RATE_WINDOW_SECONDS="600",
    )
    try:
        with served(["serve", "slack", "--port", str(port)], env, port, tmp_path / "slack.log"):
            for i in range(FLOOD):
                body = json.dumps(
                    event_body(_dm("Berapa tarif PPN sekarang?", f"1772800000.{i:06d}", channel), f"EvF{i}")
                )
                assert post_slack(port, body) == 200
            # every message is either answered, noticed or dropped silently; each ends its working reaction
            api.wait_for("reactions.remove", FLOOD, timeout=180)
            texts = [_text(p) for p in api.calls_of("chat.postMessage")]
    finally:
        api.stop()
    audit = [json.loads(line) for line in (tmp_path / "audit.jsonl").read_text().splitlines() if line.strip()]
    notices = [x for x in texts if "terlalu banyak" in x.lower() or "too many" in x.lower()]
    assert len(notices) == 1, texts
    assert len(texts) == 3, texts  # two answers and one notice; 37 messages dropped without a post
    # every message reached the turn: two answered, 38 rate limited (and audited), of which one was told
    assert sorted(r["status"] for r in audit).count("rate_limited") == FLOOD - 2, audit[:3]
    assert len(audit) == FLOOD
