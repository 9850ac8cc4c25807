"""What the Slack front end remembers between deliveries -- ids only, never message text.

* Threads the bot takes part in (it answered there): a plain reply in such a thread is a
  follow-up question, so the bot does not need to be mentioned again.  WHY keep our own record:
  the conversation history lives in the masked conversation store of the turn; we never re-read
  raw messages from Slack to find out.
* "Show more" pages: the Block Kit blocks that did not fit into one message, by key, for a while.

The embedded default is in-process; :class:`bot.slack.redis_backends.RedisThreadState` is the
production backend.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, Protocol


class ThreadState(Protocol):
    """Thread participation and overflow pages."""

    def remember_thread(self, team: str, channel: str, thread_ts: str) -> None:
        """Record that the bot answered in ``thread_ts`` of ``channel``."""
        ...

    def in_bot_thread(self, team: str, channel: str, thread_ts: str) -> bool:
        """True if the bot answered in that thread within the retention period."""
        ...

    def put_page(self, key: str, blocks: list[dict[str, Any]]) -> None:
        """Keep the blocks of a "show more" page under ``key``."""
        ...

    def get_page(self, key: str) -> list[dict[str, Any]] | None:
        """The page stored under ``key``, or None when unknown or expired."""
        ...


class MemoryThreadState:
    """In-process :class:`ThreadState` with expiry.

    Args:
        thread_ttl_seconds: How long the bot keeps following a thread it answered in.
        page_ttl_seconds: How long a "show more" page can be opened.
        clock: Monotonic clock, injectable for tests.
    """

    def __init__(
        self,
        thread_ttl_seconds: float = 14 * 86400,
        page_ttl_seconds: float = 86400,
        *,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.thread_ttl_seconds = thread_ttl_seconds
        self.page_ttl_seconds = page_ttl_seconds
        self._clock = clock
        self._threads: dict[tuple[str, str, str], float] = {}
        self._pages: dict[str, tuple[float, list[dict[str, Any]]]] = {}
        self._lock = threading.Lock()

    def remember_thread(self, team: str, channel: str, thread_ts: str) -> None:
        """See :meth:`ThreadState.remember_thread`."""
        with self._lock:
            self._threads[(team, channel, thread_ts)] = self._clock() + self.thread_ttl_seconds

    def in_bot_thread(self, team: str, channel: str, thread_ts: str) -> bool:
        """See :meth:`ThreadState.in_bot_thread`."""
        with self._lock:
            expires = self._threads.get((team, channel, thread_ts))
            return expires is not None and expires > self._clock()

    def put_page(self, key: str, blocks: list[dict[str, Any]]) -> None:
        """See :meth:`ThreadState.put_page`."""
        with self._lock:
            self._pages[key] = (self._clock() + self.page_ttl_seconds, list(blocks))

    def get_page(self, key: str) -> list[dict[str, Any]] | None:
        """See :meth:`ThreadState.get_page`."""
        with self._lock:
            entry = self._pages.get(key)
            if entry is None or entry[0] <= self._clock():
                return None
            return list(entry[1])
