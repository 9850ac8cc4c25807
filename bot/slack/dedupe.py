"""Exactly-once processing of Slack deliveries: claim a key the first time it is seen.

WHY: Slack re-sends an event it thinks was not acked (HTTP ``X-Slack-Retry-Num``, Socket Mode
``retry_attempt``), and the same user message can also arrive twice under different event ids
(``app_mention`` + ``message``).  Every delivery first *claims* a key (``event:<team>:<event_id>``,
``msg:<team>:<channel>:<ts>``, ...); only the claimer runs the turn.  Production uses Redis
``SET key 1 NX EX ttl`` (:class:`bot.slack.redis_backends.RedisDeduper`) so several app processes
agree; the embedded default below is an in-process TTL map.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Protocol


class Deduper(Protocol):
    """Claims keys; a key can be claimed once per TTL."""

    def claim(self, key: str) -> bool:
        """True the first time ``key`` is seen within the TTL, False for every repeat.

        Raises:
            SlackBackendError: The backend failed (callers fail *open*: answering twice beats never).
        """
        ...


class MemoryDeduper:
    """In-process :class:`Deduper` (one app process only), expiring keys after ``ttl_seconds``.

    Args:
        ttl_seconds: How long a key counts as seen (Slack retries within about an hour).
        clock: Monotonic clock, injectable for tests.
        max_keys: Bound on remembered keys; the oldest are dropped first when exceeded.
    """

    def __init__(
        self,
        ttl_seconds: float = 3600,
        *,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = 100_000,
    ):
        if ttl_seconds <= 0:
            raise ValueError("ttl_seconds must be > 0")
        self.ttl_seconds = ttl_seconds
        self._clock = clock
        self._max_keys = max_keys
        self._expiry: dict[str, float] = {}  # insertion-ordered: oldest first
        self._lock = threading.Lock()

    def claim(self, key: str) -> bool:
        """See :meth:`Deduper.claim`."""
        now = self._clock()
        with self._lock:
            expires = self._expiry.get(key)
            if expires is not None and expires > now:
                return False
            self._expiry.pop(key, None)
            self._expiry[key] = now + self.ttl_seconds
            self._evict(now)
            return True

    def _evict(self, now: float) -> None:
        while self._expiry:
            oldest_key, oldest_exp = next(iter(self._expiry.items()))
            if oldest_exp > now and len(self._expiry) <= self._max_keys:
                return
            del self._expiry[oldest_key]
