"""A local stand-in for Slack: a Web API server that records calls, signed request helpers, and a
Socket Mode WebSocket server.

WHY local servers instead of mocking ``WebClient``: the app under test then uses the real
slack_sdk client (``base_url``), the real bolt request verification and the real Socket Mode
client, exactly as bolt's own tests do (``tests/mock_web_api_server`` in slackapi/bolt-python).
Loopback only.  Also used by ``bench/bench_slack.py``.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import itertools
import json
import threading
import time
import urllib.parse
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

TEAM = "T0SNRTEAM"
BOT_USER = "U0DASARBOT"
BOT_ID = "B0DASARBOT"
SIGNING_SECRET = "8f742231b10e8888abcd99yyyzzz85a5"  # a test secret, same shape as Slack's


@dataclass(frozen=True)
class Call:
    """One recorded Web API call."""

    method: str
    params: dict[str, Any]
    at: float


class MockSlackApi:
    """Records every Web API call and answers like Slack would (``ok: true`` + plausible fields).

    Args:
        members: ``conversations.members`` per channel id.
        emails: ``users.info`` email per user id (the identity email fallback).
        fail: Method -> Slack error code to return (``ok: false``), e.g. ``{"chat.postMessage": "..."}``.
        http_faults: Method -> HTTP statuses for its next calls, consumed in order (``[429, 500]``: the
            first call gets 429 with ``Retry-After: 1``, the second 500, later ones succeed).  A faulted call
            is recorded in :attr:`faulted`, not in :attr:`calls` (Slack did not act on it).
        max_blocks_chars: Slack's budget for one message's ``blocks`` (about 12k characters): a post whose
            blocks serialize longer is refused with ``msg_blocks_too_long`` and recorded in
            :attr:`refused`, not in :attr:`calls`.  None: no limit.
    """

    def __init__(
        self,
        members: Mapping[str, list[str]] | None = None,
        emails: Mapping[str, str] | None = None,
        fail: Mapping[str, str] | None = None,
        http_faults: Mapping[str, list[int]] | None = None,
        max_blocks_chars: int | None = None,
    ):
        self.members = dict(members or {})
        self.emails = dict(emails or {})
        self.fail = dict(fail or {})
        self.socket_url: str | None = None
        self.calls: list[Call] = []
        self.http_faults = {k: list(v) for k, v in (http_faults or {}).items()}
        self.faulted: list[tuple[Call, int]] = []
        self.retry_after = 1
        self.max_blocks_chars = max_blocks_chars
        self.refused: list[Call] = []
        self.gates: dict[str, threading.Event] = {}
        self.held: dict[str, int] = {}
        self._lock = threading.Lock()
        self._ts = itertools.count(1)
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------------------

    def start(self) -> str:
        """Start on a free loopback port; returns the ``base_url`` for ``WebClient``."""
        api = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length).decode() if length else ""
                ctype = self.headers.get("Content-Type") or ""
                params: dict[str, Any] = {}
                query = urllib.parse.urlsplit(self.path).query
                params.update({k: v[0] for k, v in urllib.parse.parse_qs(query).items()})
                if "json" in ctype and raw:
                    params.update(json.loads(raw))
                elif raw:
                    params.update({k: v[0] for k, v in urllib.parse.parse_qs(raw).items()})
                for key in ("blocks", "attachments"):
                    if isinstance(params.get(key), str):
                        params[key] = json.loads(params[key])
                method = urllib.parse.urlsplit(self.path).path.rsplit("/", 1)[-1]
                api.pass_gate(method)
                fault = api.take_fault(method, params)
                if fault is not None:
                    body = json.dumps(
                        {"ok": False, "error": "ratelimited" if fault == 429 else "fatal_error"}
                    )
                    self.send_response(fault)
                    if fault == 429:
                        self.send_header("Retry-After", str(api.retry_after))
                    self.send_header("Content-Type", "application/json; charset=utf-8")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body.encode())
                    return
                body = json.dumps(api.respond(method, params)).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST

            def log_message(self, format: str, *args: Any) -> None:
                return

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True
        )
        self._thread.start()
        return f"http://127.0.0.1:{self._server.server_address[1]}/api/"

    def stop(self) -> None:
        """Stop the server."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    # -- gates: hold a method's calls until released (a slow Slack, a busy worker pool) -------------

    def hold(self, method: str) -> None:
        """Hold every later call of ``method`` (unanswered) until :meth:`release`."""
        with self._lock:
            self.gates[method] = threading.Event()
            self.held[method] = 0

    def release(self, method: str) -> None:
        """Answer the held calls of ``method`` and stop holding new ones."""
        with self._lock:
            gate = self.gates.pop(method, None)
        if gate is not None:
            gate.set()

    def pass_gate(self, method: str, limit: float = 60.0) -> None:
        """Wait while ``method`` is held (at most ``limit`` seconds)."""
        with self._lock:
            gate = self.gates.get(method)
            if gate is not None:
                self.held[method] += 1
        if gate is not None:
            gate.wait(limit)

    def wait_held(self, method: str, count: int, timeout: float = 30.0) -> None:
        """Poll until ``count`` calls of ``method`` are being held; AssertionError after ``timeout``."""
        deadline = time.monotonic() + timeout
        while self.held.get(method, 0) < count:
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"expected {count} held {method} call(s), got {self.held.get(method, 0)}"
                )
            time.sleep(0.01)

    # -- responses ---------------------------------------------------------------------------------

    def take_fault(self, method: str, params: dict[str, Any]) -> int | None:
        """The HTTP status this call is answered with instead of a result, if a fault is queued."""
        with self._lock:
            queue = self.http_faults.get(method)
            if not queue:
                return None
            status = queue.pop(0)
            self.faulted.append((Call(method, params, time.monotonic()), status))
            return status

    def respond(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Record the call and build Slack's answer."""
        blocks = params.get("blocks")
        if (
            self.max_blocks_chars is not None
            and method in ("chat.postMessage", "chat.postEphemeral", "chat.update")
            and blocks
            and len(json.dumps(blocks, ensure_ascii=False, separators=(",", ":"))) > self.max_blocks_chars
        ):
            with self._lock:
                self.refused.append(Call(method, params, time.monotonic()))
            return {"ok": False, "error": "msg_blocks_too_long"}
        with self._lock:
            self.calls.append(Call(method, params, time.monotonic()))
            ts = f"1700000000.{next(self._ts):06d}"
        if method in self.fail:
            return {"ok": False, "error": self.fail[method]}
        if method == "auth.test":
            return {
                "ok": True,
                "url": "https://snr.slack.com/",
                "team": "SNR",
                "user": "dasar",
                "team_id": TEAM,
                "user_id": BOT_USER,
                "bot_id": BOT_ID,
                "is_enterprise_install": False,
            }
        if method == "chat.postMessage":
            return {
                "ok": True,
                "channel": params.get("channel"),
                "ts": ts,
                "message": {"text": params.get("text"), "ts": ts},
            }
        if method == "chat.postEphemeral":
            return {"ok": True, "message_ts": ts}
        if method == "conversations.members":
            return {
                "ok": True,
                "members": self.members.get(str(params.get("channel")), []),
                "response_metadata": {"next_cursor": ""},
            }
        if method == "users.info":
            user = str(params.get("user"))
            if user not in self.emails:
                return {"ok": False, "error": "user_not_found"}
            return {"ok": True, "user": {"id": user, "profile": {"email": self.emails[user]}}}
        if method == "apps.connections.open":
            return {"ok": True, "url": self.socket_url}
        return {"ok": True}

    # -- assertions helpers ------------------------------------------------------------------------

    def calls_of(self, method: str) -> list[Call]:
        """Recorded calls of one method, in order."""
        with self._lock:
            return [c for c in self.calls if c.method == method]

    def wait_for(
        self, method: str, count: int = 1, timeout: float = 10.0, where: Callable[[Call], bool] | None = None
    ) -> list[Call]:
        """Poll until ``count`` matching calls were recorded; AssertionError after ``timeout``."""
        deadline = time.monotonic() + timeout
        while True:
            found = [c for c in self.calls_of(method) if where is None or where(c)]
            if len(found) >= count:
                return found
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"expected {count} {method} call(s), got {len(found)}: {[c.method for c in self.calls]}"
                )
            time.sleep(0.01)


# -- signed HTTP requests ---------------------------------------------------------------------------


def sign(body: str, timestamp: int, secret: str = SIGNING_SECRET) -> str:
    """Slack's ``X-Slack-Signature`` (``v0=`` HMAC-SHA256 of ``v0:<ts>:<body>``)."""
    base = f"v0:{timestamp}:{body}".encode()
    return "v0=" + hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()


def signed_headers(
    body: str,
    *,
    timestamp: int | None = None,
    secret: str = SIGNING_SECRET,
    content_type: str = "application/json",
    retry: int | None = None,
) -> dict[str, str]:
    """Headers of a genuine Slack delivery (optionally a retry)."""
    ts = int(time.time()) if timestamp is None else timestamp
    headers = {
        "Content-Type": content_type,
        "X-Slack-Request-Timestamp": str(ts),
        "X-Slack-Signature": sign(body, ts, secret),
    }
    if retry is not None:
        headers["X-Slack-Retry-Num"] = str(retry)
        headers["X-Slack-Retry-Reason"] = "http_timeout"
    return headers


def event_body(event: dict[str, Any], event_id: str, team: str = TEAM) -> dict[str, Any]:
    """An Events API ``event_callback`` envelope."""
    return {
        "token": "legacy",
        "team_id": team,
        "api_app_id": "A0DASAR",
        "event": event,
        "type": "event_callback",
        "event_id": event_id,
        "event_time": int(time.time()),
        "authorizations": [{"team_id": team, "user_id": BOT_USER, "is_bot": True}],
    }


def action_form(payload: dict[str, Any]) -> str:
    """Interactivity requests are form-encoded ``payload=<json>``."""
    return urllib.parse.urlencode({"payload": json.dumps(payload)})


# -- Socket Mode ------------------------------------------------------------------------------------


class MockSocketModeServer:
    """A Socket Mode WebSocket endpoint (aiohttp) that pushes envelopes and records the client's acks."""

    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []
        self.url = ""
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._ws: Any = None
        self._connected = threading.Event()
        self._runner: Any = None

    def start(self) -> str:
        """Start on a free loopback port; returns the ``ws://`` URL for ``apps.connections.open``."""
        self._thread.start()
        port = asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(10)
        self.url = f"ws://127.0.0.1:{port}/link/?ticket=test"
        return self.url

    async def _start(self) -> int:
        from aiohttp import web

        app = web.Application()
        app.router.add_get("/link/", self._handle)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        return int(self._runner.addresses[0][1])

    async def _handle(self, request: Any) -> Any:
        from aiohttp import WSMsgType, web

        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        self._ws = ws
        await ws.send_str(
            json.dumps(
                {
                    "type": "hello",
                    "num_connections": 1,
                    "debug_info": {"host": "local"},
                    "connection_info": {"app_id": "A0DASAR"},
                }
            )
        )
        self._connected.set()
        async for msg in ws:
            if msg.type == WSMsgType.TEXT:
                self.received.append(json.loads(msg.data))
        return ws

    def wait_connected(self, timeout: float = 10.0) -> None:
        """Block until the app's Socket Mode client connected."""
        if not self._connected.wait(timeout):
            raise AssertionError("socket mode client did not connect")

    def send(self, envelope: dict[str, Any]) -> None:
        """Push one envelope (``events_api``, ``interactive``...) to the connected client."""
        asyncio.run_coroutine_threadsafe(self._ws.send_str(json.dumps(envelope)), self._loop).result(5)

    def wait_ack(self, envelope_id: str, timeout: float = 10.0) -> dict[str, Any]:
        """The client's acknowledgement of ``envelope_id``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for message in list(self.received):
                if message.get("envelope_id") == envelope_id:
                    return message
            time.sleep(0.01)
        raise AssertionError(f"no ack for envelope {envelope_id}; received {self.received}")

    def stop(self) -> None:
        """Close the connection and the loop."""

        async def _stop() -> None:
            if self._ws is not None:
                await self._ws.close()
            if self._runner is not None:
                await self._runner.cleanup()

        if self._thread.is_alive():
            asyncio.run_coroutine_threadsafe(_stop(), self._loop).result(10)
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=5)
        self._loop.close()
