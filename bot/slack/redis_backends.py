"""Redis implementations of the Slack front end's state: dedupe, rate limit, thread state.

WHY Redis: several app processes (or a restarted one) must agree that an event was already
answered, share one rate window per user, and remember the threads the bot is in.  Imported lazily
(``redis`` is the ``dasar[redis]`` extra); every Redis failure becomes
:class:`~bot.slack.errors.SlackBackendError`.  Keys are prefixed ``dasar:slack:`` and always expire.
"""

from __future__ import annotations

import json
import math
import time
import uuid
from typing import Any

from bot.slack.errors import SlackBackendError
from bot.slack.ratelimit import RateDecision

PREFIX = "dasar:slack:"


def redis_client(url: str) -> Any:
    """A ``redis.Redis`` for ``url`` (strings decoded); fails with an actionable message when missing."""
    try:
        import redis
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise SlackBackendError("the redis package is not installed; pip install 'dasar[redis]'") from exc
    return redis.Redis.from_url(url, decode_responses=True, socket_timeout=2.0, socket_connect_timeout=2.0)


def _fail(what: str, exc: Exception) -> SlackBackendError:
    return SlackBackendError(
        f"redis {what} failed ({type(exc).__name__}); check DASAR_REDIS_URL and the server"
    )


class RedisDeduper:
    """:class:`~bot.slack.dedupe.Deduper` with ``SET key 1 NX EX ttl``: atomic across processes.

    Args:
        client: A ``redis.Redis`` (see :func:`redis_client`).
        ttl_seconds: How long a key counts as seen.
    """

    def __init__(self, client: Any, ttl_seconds: int = 3600):
        self._client = client
        self.ttl_seconds = int(ttl_seconds)

    def claim(self, key: str) -> bool:
        """See :meth:`bot.slack.dedupe.Deduper.claim`."""
        try:
            return bool(self._client.set(PREFIX + "seen:" + key, "1", nx=True, ex=self.ttl_seconds))
        except Exception as exc:
            raise _fail("SET NX", exc) from exc


# Sliding window in one round trip: drop old entries, count, add when under the limit.
_RATE_SCRIPT = """
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
if count >= limit then
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  return {0, tostring(oldest[2])}
end
redis.call('ZADD', key, now, ARGV[4])
redis.call('PEXPIRE', key, math.ceil(window * 1000))
return {1, '0'}
"""


class RedisRateLimiter:
    """:class:`~bot.slack.ratelimit.RateLimiter` over a Redis sorted set per key (Lua, atomic)."""

    def __init__(self, client: Any, limit: int, window_seconds: float):
        if limit < 1 or window_seconds <= 0:
            raise ValueError("limit must be >= 1 and window_seconds > 0")
        self._client = client
        self.limit = limit
        self.window_seconds = window_seconds
        self._script = client.register_script(_RATE_SCRIPT)

    def hit(self, key: str) -> RateDecision:
        """See :meth:`bot.slack.ratelimit.RateLimiter.hit`."""
        now = time.time()
        try:
            allowed, oldest = self._script(
                keys=[PREFIX + "rate:" + key],
                args=[repr(now), repr(self.window_seconds), self.limit, f"{now!r}:{uuid.uuid4().hex}"],
            )
        except Exception as exc:
            raise _fail("rate script", exc) from exc
        if int(allowed) == 1:
            return RateDecision(True)
        wait = float(oldest) + self.window_seconds - now
        return RateDecision(False, max(1, math.ceil(wait)))


class RedisThreadState:
    """:class:`~bot.slack.state.ThreadState` in Redis (ids and rendered blocks only, always with a TTL)."""

    def __init__(self, client: Any, thread_ttl_seconds: int = 14 * 86400, page_ttl_seconds: int = 86400):
        self._client = client
        self.thread_ttl_seconds = int(thread_ttl_seconds)
        self.page_ttl_seconds = int(page_ttl_seconds)

    @staticmethod
    def _thread_key(team: str, channel: str, thread_ts: str) -> str:
        return f"{PREFIX}thread:{team}:{channel}:{thread_ts}"

    def remember_thread(self, team: str, channel: str, thread_ts: str) -> None:
        """See :meth:`bot.slack.state.ThreadState.remember_thread`."""
        try:
            self._client.set(self._thread_key(team, channel, thread_ts), "1", ex=self.thread_ttl_seconds)
        except Exception as exc:
            raise _fail("SET thread", exc) from exc

    def in_bot_thread(self, team: str, channel: str, thread_ts: str) -> bool:
        """See :meth:`bot.slack.state.ThreadState.in_bot_thread`."""
        try:
            return bool(self._client.exists(self._thread_key(team, channel, thread_ts)))
        except Exception as exc:
            raise _fail("EXISTS thread", exc) from exc

    def put_page(self, key: str, blocks: list[dict[str, Any]]) -> None:
        """See :meth:`bot.slack.state.ThreadState.put_page`."""
        try:
            self._client.set(PREFIX + "page:" + key, json.dumps(blocks), ex=self.page_ttl_seconds)
        except Exception as exc:
            raise _fail("SET page", exc) from exc

    def get_page(self, key: str) -> list[dict[str, Any]] | None:
        """See :meth:`bot.slack.state.ThreadState.get_page`."""
        try:
            raw = self._client.get(PREFIX + "page:" + key)
        except Exception as exc:
            raise _fail("GET page", exc) from exc
        return None if raw is None else list(json.loads(raw))
