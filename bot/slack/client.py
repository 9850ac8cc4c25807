"""Slack Web API clients that survive Slack's transient faults.

Every ``slack_sdk.WebClient`` the bot uses carries the SDK's own retry handlers, so a computed answer is
not dropped because ``chat.postMessage`` met a rate limit or a passing server error:

* ``RateLimitErrorRetryHandler``: HTTP 429, waits the ``Retry-After`` seconds Slack sent (plus jitter);
* ``ServerErrorRetryHandler``: HTTP 500 and 503;
* ``ConnectionErrorRetryHandler``: a reset or refused connection before any response.

Each handler retries at most :data:`MAX_RETRIES` times, so a Slack outage still ends in an error the
caller turns into an apology or a log line, instead of a worker stuck forever.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from slack_sdk.http_retry.builtin_handlers import (
    ConnectionErrorRetryHandler,
    RateLimitErrorRetryHandler,
    ServerErrorRetryHandler,
)
from slack_sdk.http_retry.handler import RetryHandler

if TYPE_CHECKING:
    from slack_sdk import WebClient

MAX_RETRIES = 3
"""Retries per fault kind and call (so at most four attempts of one call for one kind of fault)."""


def retry_handlers(max_retries: int = MAX_RETRIES) -> list[RetryHandler]:
    """A fresh set of the three handlers (handlers hold no per-call state, but never share lists)."""
    return [
        RateLimitErrorRetryHandler(max_retry_count=max_retries),
        ServerErrorRetryHandler(max_retry_count=max_retries),
        ConnectionErrorRetryHandler(max_retry_count=max_retries),
    ]


def with_retries(client: WebClient, max_retries: int = MAX_RETRIES) -> WebClient:
    """Attach the retry handlers to ``client`` (in place, idempotent); returns the same client.

    A kind of handler the client already has (e.g. the SDK's default connection-error handler) is
    replaced, so the bound on retries is ours.
    """
    wanted = retry_handlers(max_retries)
    kinds = tuple(type(h) for h in wanted)
    kept = [h for h in client.retry_handlers if not isinstance(h, kinds)]
    client.retry_handlers = [*kept, *wanted]
    return client


def make_web_client(token: str, base_url: str | None = None, max_retries: int = MAX_RETRIES) -> WebClient:
    """A ``WebClient`` for ``token`` (``base_url`` for a stand-in API) with the retry handlers attached."""
    from slack_sdk import WebClient

    client = WebClient(token=token, base_url=base_url) if base_url else WebClient(token=token)
    return with_retries(client, max_retries)
