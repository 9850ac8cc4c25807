"""Per-user rate limiting: a sliding window of question timestamps.

WHY: one chatty user (or a loop between two bots) must not starve everyone else of turn workers
or LLM budget.  The limit is per ``team:user``; when exceeded the user gets a polite reply instead
of silence.  The in-process default suits one process; :class:`bot.slack.redis_backends.RedisRateLimiter`
shares the window between processes.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class RateDecision:
    """Whether a request may proceed, and if not, roughly when it may (whole seconds, >= 1)."""

    allowed: bool
    retry_after_seconds: int = 0


class RateLimiter(Protocol):
    """Decides whether ``key`` may make one more request now."""

    def hit(self, key: str) -> RateDecision:
        """Record one attempt for ``key`` and say whether it is within the limit."""
        ...


class SlidingWindowLimiter:
    """At most ``limit`` allowed requests per ``window_seconds`` per key (denied attempts do not count).

    Args:
        limit: Requests allowed per window.
        window_seconds: Window length.
        clock: Monotonic clock, injectable for tests.
    """

    def __init__(self, limit: int, window_seconds: float, *, clock: Callable[[], float] = time.monotonic):
        if limit < 1 or window_seconds <= 0:
            raise ValueError("limit must be >= 1 and window_seconds > 0")
        self.limit = limit
        self.window_seconds = window_seconds
        self._clock = clock
        self._hits: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def hit(self, key: str) -> RateDecision:
        """See :meth:`RateLimiter.hit`."""
        now = self._clock()
        with self._lock:
            window = self._hits.setdefault(key, deque())
            while window and window[0] <= now - self.window_seconds:
                window.popleft()
            if len(window) >= self.limit:
                wait = window[0] + self.window_seconds - now
                return RateDecision(False, max(1, math.ceil(wait)))
            window.append(now)
            return RateDecision(True)


class NoticeGate:
    """At most one rate-limit notice per key per quiet period (flood control).

    WHY: a user (or a script) sending 40 messages in a minute used to get one notice per rejected
    message, which is itself a flood.  The first rejection in a window is told when to come back; the
    rest of that window's rejections are dropped silently.

    Args:
        clock: Monotonic clock, injectable for tests.
        max_keys: Bound on remembered keys; the oldest are dropped first when exceeded.
    """

    def __init__(self, *, clock: Callable[[], float] = time.monotonic, max_keys: int = 100_000):
        self._clock = clock
        self._max_keys = max_keys
        self._until: dict[str, float] = {}  # insertion-ordered: oldest first
        self._lock = threading.Lock()

    def should_notify(self, key: str, quiet_seconds: float) -> bool:
        """True (and start a quiet period of ``quiet_seconds``) unless ``key`` was notified in one."""
        now = self._clock()
        with self._lock:
            until = self._until.get(key)
            if until is not None and until > now:
                return False
            self._until.pop(key, None)
            self._until[key] = now + quiet_seconds
            while len(self._until) > self._max_keys:
                del self._until[next(iter(self._until))]
            return True
