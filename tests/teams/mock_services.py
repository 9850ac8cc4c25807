"""Local stand-ins for the two remote services the Teams front end talks to (stdlib HTTP servers).

``MockBotConnector`` plays the Bot Connector REST API at a ``serviceUrl``: it records every posted and
updated activity (``POST /v3/conversations/{id}/activities[/{replyTo}]`` and
``PUT /v3/conversations/{id}/activities/{activityId}``) and, like the real service, does NOT
de-duplicate -- so a test that sees one card proves that *our* side is idempotent.

It also creates personal conversations (``POST /v3/conversations``, recorded as ``CREATE``) and answers
the member lookup ``GET /v3/conversations/{id}/members`` from the ``members`` it was given
(conversation id -> list of ``{"id", "name", "aadObjectId"}``), counting every lookup in ``calls``.

Faults: ``state.drop_post_responses`` (record a post, then drop the connection: a lost response),
``state.fail_posts`` (refuse the next message posts with 429/500, nothing posted) and
``state.typing_gate`` (hold the response to a typing indicator until the test releases it).

``MockSlackWebApi`` plays ``https://slack.com/api/`` for ``slack_sdk.WebClient(base_url=...)``
(``chat.postMessage`` only), the same technique slack-bolt's own tests use.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote


@dataclass
class Recorded:
    """One request the mock received."""

    method: str
    conversation_id: str
    activity_id: str | None
    body: dict[str, Any]


@dataclass
class _State:
    lock: threading.Lock = field(default_factory=threading.Lock)
    calls: list[Recorded] = field(default_factory=list)
    activities: dict[str, dict[str, Any]] = field(default_factory=dict)
    counter: int = 0
    members: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    #: how many next message posts (typing excluded) are recorded and then answered by closing the
    #: connection (a lost response: the post happened, the caller never learns it)
    drop_post_responses: int = 0
    #: HTTP statuses for the next message posts (typing excluded), e.g. ``[500]`` or ``[429]``: such a
    #: post is refused (recorded in ``refused``, not in ``calls``); 429 carries ``Retry-After: 0``
    fail_posts: list[int] = field(default_factory=list)
    refused: list[Recorded] = field(default_factory=list)
    #: when given, a typing activity is recorded at once but its response waits until the event is set
    typing_gate: threading.Event | None = None


class _Server:
    """Base: a ThreadingHTTPServer on a loopback port, run in a daemon thread."""

    handler: type[BaseHTTPRequestHandler]

    def __init__(self, members: dict[str, list[dict[str, Any]]] | None = None) -> None:
        self.state = _State(members=dict(members or {}))
        handler = type("H", (self.handler,), {"state": self.state})
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class _ConnectorHandler(BaseHTTPRequestHandler):
    state: _State

    def log_message(self, *args: object) -> None:  # keep test output clean
        return

    def _body(self) -> dict[str, Any]:
        n = int(self.headers.get("Content-Length") or 0)
        return json.loads(self.rfile.read(n) or b"{}")

    def _reply(self, status: int, data: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        raw = json.dumps(data).encode()
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def _parts(self) -> list[str]:
        return [unquote(p) for p in self.path.split("?")[0].strip("/").split("/")]

    def do_POST(self) -> None:
        parts = self._parts()
        if parts == ["v3", "conversations"]:  # create a personal conversation (proactive 1:1 message)
            body = self._body()
            with self.state.lock:
                self.state.counter += 1
                conv_id = f"a:personal-{self.state.counter}"
                self.state.calls.append(Recorded("CREATE", conv_id, None, body))
            self._reply(201, {"id": conv_id})
            return
        if len(parts) < 4 or parts[:2] != ["v3", "conversations"] or parts[3] != "activities":
            self._reply(404, {"error": {"code": "NotFound", "message": self.path}})
            return
        body = self._body()
        typing = body.get("type") == "typing"
        with self.state.lock:
            refuse = self.state.fail_posts.pop(0) if self.state.fail_posts and not typing else None
            if refuse is not None:
                self.state.refused.append(Recorded(f"REFUSED {refuse}", parts[2], None, body))
        if refuse is not None:
            self._reply(
                refuse,
                {"error": {"code": "ServiceError", "message": f"stand-in {refuse}"}},
                {"Retry-After": "0"} if refuse == 429 else None,
            )
            return
        with self.state.lock:
            self.state.counter += 1
            act_id = f"act-{self.state.counter}"
            self.state.calls.append(Recorded("POST", parts[2], act_id, body))
            self.state.activities[act_id] = body
            drop = self.state.drop_post_responses > 0 and not typing
            if drop:
                self.state.drop_post_responses -= 1
        if drop:
            self.close_connection = True  # no status line at all: the client sees a dropped connection
            return
        gate = self.state.typing_gate
        if typing and gate is not None:
            gate.wait(240)  # the typing response waits until the test opens the gate
        self._reply(201, {"id": act_id})

    def do_GET(self) -> None:
        parts = self._parts()
        if len(parts) != 4 or parts[:2] != ["v3", "conversations"] or parts[3] != "members":
            self._reply(404, {"error": {"code": "NotFound", "message": self.path}})
            return
        with self.state.lock:
            self.state.calls.append(Recorded("GET", parts[2], None, {}))
            members = self.state.members.get(parts[2])
        if members is None:
            self._reply(404, {"error": {"code": "ConversationNotFound", "message": parts[2]}})
            return
        raw = json.dumps(members).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def do_PUT(self) -> None:
        parts = self._parts()
        if len(parts) != 5 or parts[3] != "activities":
            self._reply(404, {"error": {"code": "NotFound", "message": self.path}})
            return
        body = self._body()
        with self.state.lock:
            if parts[4] not in self.state.activities:
                self._reply(404, {"error": {"code": "ActivityNotFound", "message": parts[4]}})
                return
            self.state.calls.append(Recorded("PUT", parts[2], parts[4], body))
            self.state.activities[parts[4]] = body
        self._reply(200, {"id": parts[4]})


class MockBotConnector(_Server):
    """Records activities the bot posts/updates; ``url`` is the ``serviceUrl`` to put in activities."""

    handler = _ConnectorHandler

    @property
    def calls(self) -> list[Recorded]:
        with self.state.lock:
            return list(self.state.calls)

    def posts(self) -> list[Recorded]:
        """Posted messages (typing indicators are not messages: see :meth:`typings`)."""
        return [c for c in self.calls if c.method == "POST" and c.body.get("type") != "typing"]

    def typings(self) -> list[Recorded]:
        return [c for c in self.calls if c.method == "POST" and c.body.get("type") == "typing"]

    def refused(self) -> list[Recorded]:
        """Posts answered with an error status from ``fail_posts`` (nothing was posted)."""
        with self.state.lock:
            return list(self.state.refused)

    def puts(self) -> list[Recorded]:
        return [c for c in self.calls if c.method == "PUT"]

    def created_conversations(self) -> list[Recorded]:
        return [c for c in self.calls if c.method == "CREATE"]

    def member_lookups(self) -> list[Recorded]:
        return [c for c in self.calls if c.method == "GET"]

    def wait_for_posts(self, conversation_id: str, count: int = 1, timeout: float = 240.0) -> list[Recorded]:
        """Block until ``count`` activities were posted to ``conversation_id`` (events, not sleeps)."""
        import time

        deadline = time.monotonic() + timeout
        while True:
            found = [c for c in self.posts() if c.conversation_id == conversation_id]
            if len(found) >= count:
                return found
            if time.monotonic() > deadline:
                raise AssertionError(f"{len(found)}/{count} posts to {conversation_id} within {timeout}s")
            time.sleep(0.05)

    def wait_until(self, ready: Any, what: str, timeout: float = 240.0) -> None:
        """Block until ``ready()`` is true (an event the test waits for, not a sleep)."""
        import time

        deadline = time.monotonic() + timeout
        while not ready():
            if time.monotonic() > deadline:
                raise AssertionError(f"not within {timeout}s: {what}")
            time.sleep(0.05)

    def current(self, activity_id: str) -> dict[str, Any]:
        """The latest version of a posted activity (after any updates)."""
        with self.state.lock:
            return self.state.activities[activity_id]


class _SlackHandler(BaseHTTPRequestHandler):
    state: _State

    def log_message(self, *args: object) -> None:
        return

    def do_POST(self) -> None:
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n).decode()
        if "json" in (self.headers.get("Content-Type") or ""):
            body = json.loads(raw or "{}")
        else:
            body = {k: v[0] for k, v in parse_qs(raw).items()}
        method = self.path.strip("/").split("/")[-1]
        with self.state.lock:
            self.state.counter += 1
            ts = f"1700000000.{self.state.counter:06d}"
            self.state.calls.append(Recorded(method, str(body.get("channel")), ts, body))
        data = (
            {"ok": True, "channel": body.get("channel"), "ts": ts}
            if method == "chat.postMessage"
            else {"ok": False, "error": "unknown_method"}
        )
        raw_out = json.dumps(data).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw_out)))
        self.end_headers()
        self.wfile.write(raw_out)


class MockSlackWebApi(_Server):
    """Records Web API calls; ``url`` is the ``base_url`` for ``slack_sdk.WebClient``."""

    handler = _SlackHandler

    @property
    def calls(self) -> list[Recorded]:
        with self.state.lock:
            return list(self.state.calls)
