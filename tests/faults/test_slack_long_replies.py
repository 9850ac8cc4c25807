"""Long replies: an answer of about 16k characters never meets Slack's ``msg_blocks_too_long``.

The real bolt app over HTTP on loopback posts through a real ``slack_sdk.WebClient`` to the stand-in Web
API, which refuses (``msg_blocks_too_long``) any message whose blocks serialize to more than 12,000
characters, as Slack does.  The reply is paged by characters as well as blocks: the first message carries
a "show more" button, each click posts the next page, and the user reads every claim, in order, exactly
once.  In a shared channel the asker's private full answer goes as several ephemeral messages in order.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.messages import Reply
from bot.slack import render
from tests.slack.conftest import AP_CLERK, CHANNEL, DM, TAX_LEAD, build_harness
from tests.slack.fake_turn import VAT_ANSWER, FakeTurn, vat_answer
from tests.slack.mock_slack import MockSlackApi
from tests.slack.test_http import buttons_of, click_payload, dm, mention

SLACK_BLOCKS_BUDGET = 12_000
CLAIMS = 24
_CLAIM_NO = re.compile(r"Klaim panjang nomor (\d+)\b")


def _long_answer() -> dict[str, Any]:
    base = VAT_ANSWER["claims"][0]
    filler = "Pengusaha Kena Pajak wajib memungut PPN atas penyerahan yang terutang pajak. " * 7
    claims = [
        dict(base, text=f"Klaim panjang nomor {i:02d}: {filler}", quote=f"{base['quote']} {filler}")
        for i in range(CLAIMS)
    ]
    return vat_answer(claims=claims, answer="Tarif PPN sejak 1 April 2022 adalah 11%. " * 40)


class LongTurn(FakeTurn):
    """Answers every question with a reply of about 16k characters (the longest eval answers)."""

    def handle(self, message: Any) -> Reply:
        reply = super().handle(message)
        answer = _long_answer()
        private = _long_answer() if not message.is_direct else None
        return Reply(
            answer=answer,
            text=answer["answer"],
            status="answered",
            reference_id=reply.reference_id,
            private_answer=private,
        )


def _size(call: Any) -> int:
    return render.block_chars(call.params.get("blocks") or [])


def _claim_numbers(calls: list[Any]) -> list[int]:
    return [
        int(n)
        for c in calls
        for n in _CLAIM_NO.findall(json.dumps(c.params.get("blocks"), ensure_ascii=False))
    ]


def test_the_stand_in_refuses_blocks_over_slacks_budget() -> None:
    """The limit is live: one unpaged 16k message is refused, as Slack would."""
    api = MockSlackApi(max_blocks_chars=SLACK_BLOCKS_BUDGET)
    client = WebClient(token="xoxb-test-token", base_url=api.start())
    blocks = render.body_blocks(_long_answer(), "id", "1.2", "R")
    assert render.block_chars(blocks) > 16_000
    try:
        with pytest.raises(SlackApiError, match="msg_blocks_too_long"):
            client.chat_postMessage(channel=DM, text="x", blocks=blocks[:50])
    finally:
        api.stop()
    assert len(api.refused) == 1 and api.calls_of("chat.postMessage") == []


def test_a_16k_answer_is_paged_and_every_page_arrives_in_order() -> None:
    api = MockSlackApi(max_blocks_chars=SLACK_BLOCKS_BUDGET)
    for harness in build_harness(api, LongTurn()):
        root = "1700000301.000100"
        assert harness.send_event(dm("Berapa tarif PPN?", root), "EvLong1") == 200
        posts = harness.api.wait_for("chat.postMessage", timeout=20)
        clicks = 0
        while "dasar_show_more" in buttons_of(posts[-1]):
            clicks += 1
            more = buttons_of(posts[-1])["dasar_show_more"]
            action_ts = f"1700000400.{clicks:06d}"
            assert (
                harness.click(click_payload("dasar_show_more", more, user=AP_CLERK, action_ts=action_ts))
                == 200
            )
            posts = harness.api.wait_for("chat.postMessage", clicks + 1, timeout=20)
        harness.settle()
        posts = harness.api.calls_of("chat.postMessage")
        assert harness.api.refused == []  # Slack never said msg_blocks_too_long
        assert harness.frontend.listeners.stats["errors"] == 0
        assert clicks >= 1 and len(posts) == clicks + 1
        assert all(_size(p) <= render.MAX_MESSAGE_CHARS for p in posts)
        assert sum(_size(p) for p in posts) > 16_000  # the whole answer went out, not a clipped one
        assert all(p.params["channel"] == DM and p.params["thread_ts"] == root for p in posts)
        assert _claim_numbers(posts) == list(range(CLAIMS))  # every claim once, in order
        assert "dasar_feedback" in json.dumps(posts[0].params["blocks"])  # the actions stay on the first


def test_a_16k_private_answer_goes_as_several_ephemerals_in_order() -> None:
    api = MockSlackApi(members={CHANNEL: [AP_CLERK, TAX_LEAD]}, max_blocks_chars=SLACK_BLOCKS_BUDGET)
    for harness in build_harness(api, LongTurn()):
        assert (
            harness.send_event(mention("<@U0DASARBOT> Berapa tarif PPN?", "1700000302.000100"), "EvLong2")
            == 200
        )
        harness.api.wait_for("chat.postMessage", timeout=20)
        harness.settle()
        private = harness.api.calls_of("chat.postEphemeral")
        assert harness.api.refused == []
        assert len(private) >= 2 and all(p.params["user"] == AP_CLERK for p in private)
        assert all(_size(p) <= render.MAX_MESSAGE_CHARS for p in private)
        assert _claim_numbers(private) == list(range(CLAIMS))
