"""Slack Web API clients that survive Slack's transient faults.

Every ``slack_sdk.WebClient`` the bot uses carries the SDK's own retry handlers, so a computed answer is
not dropped because ``chat.postMessage`` met a rate limit or a passing server error:

* ``RateLimitErrorRetryHandler``: HTTP 429, waits the ``Retry-After`` seconds Slack sent (plus jitter);
* ``ServerErrorRetryHandler``: HTTP 500 and 503;
* ``ConnectionErrorRetryHandler``: a reset or refused connection before any response.

Each handler retries at most :data:`MAX_RETRIES` times, so a Slack outage still ends in an error the
caller turns into an apology or a log line, instead of a worker stuck forever.

Metrics: every retry is counted (``dasar_platform_api_retries_total{platform="slack", method, kind}``) and a
last handler, :class:`ErrorObserver`, which never retries, counts every call that finally failed
(``dasar_platform_api_errors_total``: Slack's error code such as ``msg_too_long``, ``http_429`` or the
exception class).  Handlers live in the client's ``retry_handlers`` list, which bolt copies into the
client it builds for every request, so listener calls are counted too.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from slack_sdk.http_retry.builtin_handlers import (
    ConnectionErrorRetryHandler,
    RateLimitErrorRetryHandler,
    ServerErrorRetryHandler,
)
from slack_sdk.http_retry.handler import RetryHandler
from slack_sdk.http_retry.request import HttpRequest
from slack_sdk.http_retry.response import HttpResponse
from slack_sdk.http_retry.state import RetryState

from bot import metrics

if TYPE_CHECKING:
    from slack_sdk import WebClient

MAX_RETRIES = 3
"""Retries per fault kind and call (so at most four attempts of one call for one kind of fault)."""

PLATFORM = "slack"


def api_method(request: HttpRequest) -> str:
    """``chat.postMessage`` from ``https://slack.com/api/chat.postMessage?x=1``."""
    return str(request.url or "").split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1] or "unknown"


class _Counted:
    """Mixin: count each retry a built-in handler decides on."""

    kind = "unknown"

    def prepare_for_next_attempt(
        self,
        *,
        state: RetryState,
        request: HttpRequest,
        response: HttpResponse | None = None,
        error: Exception | None = None,
    ) -> None:
        metrics.record_api_retry(PLATFORM, api_method(request), self.kind)
        super().prepare_for_next_attempt(  # type: ignore[misc]
            state=state, request=request, response=response, error=error
        )


class CountedRateLimitRetryHandler(_Counted, RateLimitErrorRetryHandler):
    """HTTP 429: waits ``Retry-After``; counted as ``rate_limited``."""

    kind = "rate_limited"


class CountedServerErrorRetryHandler(_Counted, ServerErrorRetryHandler):
    """HTTP 500/503; counted as ``server_error``."""

    kind = "server_error"


class CountedConnectionErrorRetryHandler(_Counted, ConnectionErrorRetryHandler):
    """Reset or refused connections; counted as ``connection_error``."""

    kind = "connection_error"


class ErrorObserver(RetryHandler):
    """Last in the list: never retries, counts a call the handlers before it gave up on.

    The client asks each handler in order until one retries, so this one sees a response or error only
    when no retry follows: a final failure (HTTP error status, ``"ok": false`` or an exception).
    """

    def __init__(self) -> None:
        super().__init__(max_retry_count=1 << 30)

    def _can_retry(
        self,
        *,
        state: RetryState,
        request: HttpRequest,
        response: HttpResponse | None = None,
        error: Exception | None = None,
    ) -> bool:
        kind = _failure_kind(response, error)
        if kind is not None:
            metrics.record_api_error(PLATFORM, api_method(request), kind)
        return False


def _failure_kind(response: HttpResponse | None, error: Exception | None) -> str | None:
    if response is None:
        return type(error).__name__ if error is not None else None
    body: Any = response.body
    if body is None and response.data and response.data.lstrip().startswith(b"{"):
        try:
            body = json.loads(response.data)
        except ValueError:
            body = None
    if isinstance(body, dict) and body.get("ok") is False:
        return str(body.get("error") or f"http_{response.status_code}")
    if response.status_code >= 400:
        return f"http_{response.status_code}"
    return None


BODY_LOGGERS = ("slack_sdk", "slack_bolt")
"""Libraries whose DEBUG records carry request and response bodies (message text, blocks)."""


def silence_body_logging() -> None:
    """Raise :data:`BODY_LOGGERS` to INFO: ``-v`` (root DEBUG) must not put message text in the logs.

    Our own loggers keep DEBUG; theirs log ids, hashes and sizes only.
    """
    for name in BODY_LOGGERS:
        lib = logging.getLogger(name)
        if lib.getEffectiveLevel() < logging.INFO:
            lib.setLevel(logging.INFO)


def retry_handlers(max_retries: int = MAX_RETRIES) -> list[RetryHandler]:
    """A fresh set of the three handlers (handlers hold no per-call state, but never share lists)."""
    return [
        CountedRateLimitRetryHandler(max_retry_count=max_retries),
        CountedServerErrorRetryHandler(max_retry_count=max_retries),
        CountedConnectionErrorRetryHandler(max_retry_count=max_retries),
    ]


def with_retries(client: WebClient, max_retries: int = MAX_RETRIES) -> WebClient:
    """Attach the retry handlers and the error observer to ``client`` (in place, idempotent); returns the
    same client.

    A kind of handler the client already has (e.g. the SDK's default connection-error handler) is
    replaced, so the bound on retries is ours; the observer stays last.
    """
    wanted = retry_handlers(max_retries)
    kinds = (RateLimitErrorRetryHandler, ServerErrorRetryHandler, ConnectionErrorRetryHandler, ErrorObserver)
    kept = [h for h in client.retry_handlers if not isinstance(h, kinds)]
    client.retry_handlers = [*kept, *wanted, ErrorObserver()]
    return client


def make_web_client(token: str, base_url: str | None = None, max_retries: int = MAX_RETRIES) -> WebClient:
    """A ``WebClient`` for ``token`` (``base_url`` for a stand-in API) with the retry handlers attached."""
    from slack_sdk import WebClient

    client = WebClient(token=token, base_url=base_url) if base_url else WebClient(token=token)
    return with_retries(client, max_retries)
