"""Redis implementations of the Slack front end's state: dedupe, rate limit, thread state (and the
fallback wrapper of the identity principal cache).

WHY Redis: several app processes (or a restarted one) must agree that an event was already
answered, share one rate window per user, and remember the threads the bot is in.  Imported lazily
(``redis`` is the ``dasar[redis]`` extra); every Redis failure becomes
:class:`~bot.slack.errors.SlackBackendError`.  Keys are prefixed ``dasar:slack:`` and always expire.
"""

from __future__ import annotations

import json
import logging
import math
import threading
import time
import uuid
from typing import Any

from bot.slack.dedupe import Deduper
from bot.slack.errors import SlackBackendError
from bot.slack.ratelimit import RateDecision, RateLimiter
from bot.slack.state import ThreadState

logger = logging.getLogger(__name__)

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


# -- degrade, don't die: in-process fallbacks while Redis is down -------------------------------------


class RedisHealth:
    """Whether Redis answers, shared by every Redis-backed store of the process and by ``/healthz``.

    A failed call marks an outage (one WARNING when it starts); the next successful call or ``PING``
    ends it (one WARNING saying Redis is back).  :meth:`status` pings at most once per
    ``probe_interval`` seconds, so ``/healthz`` notices an outage with no traffic and a recovery
    with no traffic.

    Args:
        client: The process's ``redis.Redis`` (``None``: nothing to probe, always ok).
        probe_interval: Minimum seconds between two ``PING`` from :meth:`status`.
    """

    def __init__(self, client: Any, *, probe_interval: float = 1.0, clock: Any = time.monotonic):
        self._client = client
        self.probe_interval = probe_interval
        self._clock = clock
        self._lock = threading.Lock()
        self._reason: str | None = None
        self._since: float | None = None
        self._last_probe = -math.inf
        self.outages = 0

    @property
    def down(self) -> bool:
        """True while an outage is open."""
        return self._reason is not None

    @property
    def reason(self) -> str | None:
        """Why Redis is considered down (operation and error type), or None."""
        return self._reason

    def failed(self, what: str, exc: BaseException) -> None:
        """Record a failed Redis call; logs a WARNING only when this opens an outage."""
        with self._lock:
            if self._reason is not None:
                return
            self._reason = f"redis unavailable ({what}: {type(exc).__name__})"
            self._since = self._clock()
            self.outages += 1
        logger.warning(
            "operation=%s, error=%s | redis unavailable: in-process fallback for dedupe, rate limit and "
            "thread state, conversation history empty until it is back",
            what,
            type(exc).__name__,
        )

    def succeeded(self) -> None:
        """Record a successful Redis call; logs a WARNING only when this closes an outage."""
        if self._reason is None:  # the common path: no lock
            return
        with self._lock:
            if self._reason is None:
                return
            down_for = self._clock() - (self._since or self._clock())
            self._reason = None
            self._since = None
        logger.warning("down_for_s=%.1f | redis is back; shared stores in use again", down_for)

    def status(self) -> tuple[bool, str | None]:
        """``(ok, reason)`` after a ``PING`` (at most one per ``probe_interval``)."""
        if self._client is not None and self._clock() - self._last_probe >= self.probe_interval:
            self._last_probe = self._clock()
            try:
                self._client.ping()
            except Exception as exc:
                self.failed("PING", exc)
            else:
                self.succeeded()
        reason = self._reason
        return reason is None, reason

    def attempt(
        self, what: str, call: Any, *args: Any, errors: type[BaseException] | tuple[type[BaseException], ...]
    ) -> tuple[bool, Any]:
        """``(True, call(*args))``, or ``(False, None)`` when it raised one of ``errors`` (the Redis
        fault, i.e. the error's cause, is then recorded with :meth:`failed`); success is recorded too."""
        try:
            value = call(*args)
        except errors as exc:
            self.failed(what, exc.__cause__ or exc)
            return False, None
        self.succeeded()
        return True, value


class FallbackDeduper:
    """Redis dedupe, falling back to an in-process one while Redis fails.

    Every key Redis accepted is also claimed in memory, so a Slack retry arriving during an outage
    of an event answered before it is still recognised (by this process).
    """

    def __init__(self, primary: RedisDeduper, fallback: Deduper, health: RedisHealth):
        self.primary = primary
        self.fallback = fallback
        self.health = health

    def claim(self, key: str) -> bool:
        """See :meth:`bot.slack.dedupe.Deduper.claim`; never raises for a Redis fault."""
        ok, claimed = self.health.attempt("SET NX", self.primary.claim, key, errors=SlackBackendError)
        in_memory = self.fallback.claim(key)
        return claimed if ok else in_memory


class FallbackRateLimiter:
    """Redis rate limit, falling back to an in-process sliding window while Redis fails.

    Every attempt is also counted in memory, so the fallback starts with a warm window.
    """

    def __init__(self, primary: RedisRateLimiter, fallback: RateLimiter, health: RedisHealth):
        self.primary = primary
        self.fallback = fallback
        self.health = health
        self.limit = primary.limit
        self.window_seconds = primary.window_seconds

    def hit(self, key: str) -> RateDecision:
        """See :meth:`bot.slack.ratelimit.RateLimiter.hit`; never raises for a Redis fault."""
        ok, decision = self.health.attempt("rate script", self.primary.hit, key, errors=SlackBackendError)
        in_memory = self.fallback.hit(key)
        return decision if ok else in_memory


class FallbackThreadState:
    """Redis thread state, falling back to (and always mirrored into) an in-process one."""

    def __init__(self, primary: RedisThreadState, fallback: ThreadState, health: RedisHealth):
        self.primary = primary
        self.fallback = fallback
        self.health = health

    def _try(self, what: str, call: Any, *args: Any) -> tuple[bool, Any]:
        return self.health.attempt(what, call, *args, errors=SlackBackendError)

    def remember_thread(self, team: str, channel: str, thread_ts: str) -> None:
        """See :meth:`bot.slack.state.ThreadState.remember_thread`."""
        self.fallback.remember_thread(team, channel, thread_ts)
        self._try("SET thread", self.primary.remember_thread, team, channel, thread_ts)

    def in_bot_thread(self, team: str, channel: str, thread_ts: str) -> bool:
        """See :meth:`bot.slack.state.ThreadState.in_bot_thread`."""
        ok, value = self._try("EXISTS thread", self.primary.in_bot_thread, team, channel, thread_ts)
        if ok and value:
            return True
        return self.fallback.in_bot_thread(team, channel, thread_ts)

    def put_page(self, key: str, blocks: list[dict[str, Any]]) -> None:
        """See :meth:`bot.slack.state.ThreadState.put_page`."""
        self.fallback.put_page(key, blocks)
        self._try("SET page", self.primary.put_page, key, blocks)

    def get_page(self, key: str) -> list[dict[str, Any]] | None:
        """See :meth:`bot.slack.state.ThreadState.get_page`."""
        ok, value = self._try("GET page", self.primary.get_page, key)
        if ok and value is not None:
            return list(value)
        return self.fallback.get_page(key)


class FallbackPrincipalCache:
    """The Redis principal cache (:class:`identity.redis_cache.RedisPrincipalCache`), falling back to (and
    always mirrored into) an in-process one while Redis fails.

    WHY: the resolver logs a WARNING for every :class:`~identity.errors.PrincipalCacheError` (two per
    question during an outage: get and set).  This wrapper never raises for a Redis fault; it reports the
    fault to the process's :class:`RedisHealth` instead (one WARNING when the outage starts, one when it
    ends, ``/healthz`` degraded meanwhile) and serves the in-process copy.
    """

    def __init__(self, primary: Any, fallback: Any, health: RedisHealth):
        self.primary = primary
        self.fallback = fallback
        self.health = health

    def get(self, key: str) -> Any:
        """The cached principal (Redis, or the in-process copy while Redis fails); None on a miss."""
        from identity.errors import PrincipalCacheError

        ok, value = self.health.attempt("GET principal", self.primary.get, key, errors=PrincipalCacheError)
        return value if ok else self.fallback.get(key)

    def set(self, key: str, principal: Any, ttl: float) -> None:
        """Store in memory and in Redis (a Redis fault only marks the outage)."""
        from identity.errors import PrincipalCacheError

        self.fallback.set(key, principal, ttl)
        self.health.attempt(
            "SET principal", self.primary.set, key, principal, ttl, errors=PrincipalCacheError
        )
