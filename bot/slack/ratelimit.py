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
