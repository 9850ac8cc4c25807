"""Served path: a multi-part message sent to the Slack front end (real bolt app over HTTP, mock Web API)
and answered by the real turn over the sample index comes back with one section per part."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from bot.audit import MemoryAuditLog
from bot.history import MemoryHistory
from bot.turn import Turn
from tests.answer.test_message_parts import NO_NPWP, RATE
from tests.slack.conftest import AP_CLERK, DM, Harness, build_harness
from tests.slack.mock_slack import MockSlackApi
from tests.slack.test_render import texts


@pytest.fixture
def served(api: MockSlackApi, services: Any) -> Iterator[Harness]:
    turn = Turn(
        services,
        resolver=services.resolver(),
        history=MemoryHistory(),
        audit=MemoryAuditLog(),
        today=lambda: dt.date(2026, 6, 1),
    )
    yield from build_harness(api, turn)  # type: ignore[arg-type]


def test_a_multi_part_dm_is_answered_part_by_part(served: Harness) -> None:
    event = {
        "type": "message",
        "channel_type": "im",
        "channel": DM,
        "user": AP_CLERK,
        "text": f"{RATE} {NO_NPWP}",
        "ts": "1700000001.000100",
    }
    assert served.send_event(event, "EvParts1") == 200
    post = served.api.wait_for("chat.postMessage", timeout=120)[0]
    served.settle()
    shown = texts(post.params["blocks"])
    heads = [i for i, x in enumerate(shown) if x.startswith(("*1. ", "*2. "))]
    assert [shown[i].split("\n")[0] for i in heads] == [f"*1. {RATE}*", f"*2. {NO_NPWP}*"]
    first, second = heads
    assert "tarifnya 2% dari jumlah bruto" in shown[first]
    assert any("Pasal 23 ayat (1) UU 7/1983" in x for x in shown[first + 1 : second])
    # part 2 has its own line citing its own passage, printed in its own section
    marker = re.search(r"\[(\d+)\]", shown[second])
    assert marker is not None
    assert any(x.startswith(f"*{marker.group(1)}.*\n> ") for x in shown[second + 1 :])
    assert "1. " in post.params["text"] and "2. " in post.params["text"]  # the notification text too
    assert "dasar_feedback" in json.dumps(post.params["blocks"])
