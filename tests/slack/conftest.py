"""Fixtures: a mock Slack Web API, the real bolt app over HTTP on loopback, and a request helper."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from bot.settings import Settings
from tests.conftest import DIRECTORY
from tests.slack.fake_turn import FakeTurn
from tests.slack.mock_slack import SIGNING_SECRET, MockSlackApi, action_form, event_body, signed_headers

# Channel members: AP clerk + tax lead (intersection: finance, everyone) -- see corpus/directory.yaml.
AP_CLERK = "U04APCLRK1"
TAX_LEAD = "U04TAXLD3Q"
TAX_ANALYST = "U04TAXAN4R"
CHANNEL = "C0FINANCE1"
TAX_CHANNEL = "C0TAXTEAM1"
DM = "D0DMCHAN01"


def slack_settings(**overrides: Any) -> Settings:
    """Settings with test tokens and the sample directory."""
    values: dict[str, Any] = {
        "slack_bot_token": "xoxb-test-token",
        "slack_signing_secret": SIGNING_SECRET,
        "slack_app_token": "xapp-1-test",
        "directory": DIRECTORY,
        "slack_workers": 4,
    }
    values.update(overrides)
    return Settings(**values)


@dataclass
class Harness:
    """The running app and everything a test talks to."""

    api: MockSlackApi
    turn: FakeTurn
    frontend: Any
    url: str

    def post(self, body: str, headers: dict[str, str]) -> tuple[int, str]:
        request = urllib.request.Request(self.url, data=body.encode(), headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as err:
            return err.code, err.read().decode()

    def settle(self) -> None:
        """Wait until every turn and button the app accepted has finished (its executor drained).

        Deliveries are acked only after their work was queued, so once this returns nothing more can be
        posted: an assertion that something did NOT happen needs no sleep.  Call it last in a test.
        """
        self.frontend.executor.shutdown(wait=True)

    def send_event(self, event: dict[str, Any], event_id: str, *, retry: int | None = None) -> int:
        body = json.dumps(event_body(event, event_id))
        status, _ = self.post(body, signed_headers(body, retry=retry))
        return status

    def click(self, payload: dict[str, Any]) -> int:
        body = action_form(payload)
        status, _ = self.post(body, signed_headers(body, content_type="application/x-www-form-urlencoded"))
        return status


def build_harness(api: MockSlackApi, turn: FakeTurn, **kwargs: Any) -> Iterator[Harness]:
    """Start the app on a free port against ``api``; stop everything afterwards."""
    from slack_sdk import WebClient

    from bot.slack.app import build_slack_app

    base_url = api.start()
    settings = kwargs.pop("settings", None) or slack_settings()
    client = WebClient(token="xoxb-test-token", base_url=base_url)
    frontend = build_slack_app(settings, turn, web_client=client, **kwargs)
    server = frontend.start_http("127.0.0.1", 0)
    try:
        yield Harness(api=api, turn=turn, frontend=frontend, url=server.url)
    finally:
        frontend.close()
        api.stop()


@pytest.fixture
def api() -> MockSlackApi:
    return MockSlackApi(
        members={CHANNEL: [AP_CLERK, TAX_LEAD, "U0DASARBOT"], TAX_CHANNEL: [TAX_LEAD, TAX_ANALYST]}
    )


@pytest.fixture
def harness(api: MockSlackApi) -> Iterator[Harness]:
    yield from build_harness(api, FakeTurn())
