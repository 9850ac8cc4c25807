"""SlackWebClientUserInfo with a fake WebClient: profile email, not-found, and failures."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs

import pytest

from identity.errors import DirectoryUnavailable
from identity.slack_user_info import SlackUserInfo, SlackWebClientUserInfo


class FakeSlackApiError(Exception):
    """Shape of slack_sdk.errors.SlackApiError: carries the response with an 'error' code."""

    def __init__(self, error: str):
        super().__init__(error)
        self.response = {"ok": False, "error": error}


class FakeWebClient:
    def __init__(self, users: dict[str, dict[str, Any]], fail: Exception | None = None):
        self.users = users
        self.fail = fail
        self.calls: list[str] = []

    def users_info(self, *, user: str) -> dict[str, Any]:
        self.calls.append(user)
        if self.fail is not None:
            raise self.fail
        if user not in self.users:
            raise FakeSlackApiError("user_not_found")
        return {"ok": True, "user": self.users[user]}


def test_reads_profile_email_lowercased() -> None:
    client = FakeWebClient({"U1": {"id": "U1", "profile": {"email": "Siti.Rahma@Example.co.id"}}})
    info = SlackWebClientUserInfo(client)
    assert isinstance(info, SlackUserInfo)
    assert info.email_for("U1") == "siti.rahma@example.co.id"
    assert client.calls == ["U1"]


@pytest.mark.parametrize(
    "user",
    [
        {"id": "U2", "deleted": True, "profile": {"email": "x@example.com"}},
        {"id": "U2", "is_bot": True, "profile": {"email": "x@example.com"}},
        {"id": "U2", "profile": {}},  # no users:read.email scope
    ],
    ids=["deleted", "bot", "no-email"],
)
def test_unusable_users_give_none(user: dict[str, Any]) -> None:
    assert SlackWebClientUserInfo(FakeWebClient({"U2": user})).email_for("U2") is None


def test_user_not_found_gives_none() -> None:
    assert SlackWebClientUserInfo(FakeWebClient({})).email_for("U404") is None


@pytest.mark.parametrize("fail", [FakeSlackApiError("ratelimited"), ConnectionError("down")])
def test_other_failures_are_unavailable(fail: Exception) -> None:
    with pytest.raises(DirectoryUnavailable, match=r"Slack users\.info failed"):
        SlackWebClientUserInfo(FakeWebClient({}, fail=fail)).email_for("U1")


def test_real_slack_sdk_webclient_against_local_fake_api() -> None:
    """The adapter works with a real slack_sdk WebClient (success and real SlackApiError codes)."""
    slack_sdk = pytest.importorskip("slack_sdk")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()
            user = parse_qs(body).get("user", [""])[0]
            if user == "U1":
                payload = {"ok": True, "user": {"id": "U1", "profile": {"email": "Budi@Example.co.id"}}}
            elif user == "URATE":
                payload = {"ok": False, "error": "internal_error"}
            else:
                payload = {"ok": False, "error": "user_not_found"}
            data = json.dumps(payload).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        client = slack_sdk.WebClient(
            token="xoxb-test", base_url=f"http://127.0.0.1:{server.server_port}/api/"
        )
        info = SlackWebClientUserInfo(client)
        assert info.email_for("U1") == "budi@example.co.id"
        assert info.email_for("U404") is None
        with pytest.raises(DirectoryUnavailable, match="internal_error"):
            info.email_for("URATE")
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
