"""Principal cache: the protocol and the embedded in-process default.

WHY cache: every chat turn resolves the sender; without a cache each turn costs a directory call
(and a Slack ``users.info`` call for users matched by email).  WHY a short TTL: role changes and
removals must take effect within minutes, and the TTL also bounds how long a principal may be
served while the directory is down (see :mod:`identity.resolver`).

Keys are opaque hashes from :func:`identity.hashing.cache_key`; both caches refuse a key that looks
like an email so a raw address can never end up as a key.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from identity.principal import Principal


@runtime_checkable
class PrincipalCache(Protocol):
    """Key -> principal store with per-entry expiry.

    Implementations may raise :class:`~identity.errors.PrincipalCacheError`; the resolver treats it as a miss.
    """

    def get(self, key: str) -> Principal | None:
        """The principal stored under ``key`` if it has not expired, else None."""
        ...

    def set(self, key: str, principal: Principal, ttl: float) -> None:
        """Store ``principal`` under ``key`` for ``ttl`` seconds."""
        ...


def check_key(key: str) -> str:
    """Reject keys that could carry a raw email (callers must pass :func:`~identity.hashing.cache_key`)."""
    if not key or "@" in key:
        raise ValueError("cache keys must be hashes (identity.hashing.cache_key), never raw emails")
    return key


class MemoryPrincipalCache:
    """In-process TTL cache; the default when no shared cache is configured.

    Args:
        clock: Monotonic seconds source; tests inject a fake clock.
        max_entries: Oldest-inserted entries are evicted beyond this bound.
    """

    def __init__(self, *, clock: Callable[[], float] = time.monotonic, max_entries: int = 10_000):
        if max_entries < 1:
            raise ValueError("max_entries must be at least 1")
        self._clock = clock
        self._max = max_entries
        self._entries: OrderedDict[str, tuple[float, Principal]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: str) -> Principal | None:
        """Unexpired principal for ``key``; expired entries are dropped on read."""
        check_key(key)
        with self._lock:
            item = self._entries.get(key)
            if item is None:
                return None
            expires_at, principal = item
            if self._clock() >= expires_at:
                del self._entries[key]
                return None
            return principal

    def set(self, key: str, principal: Principal, ttl: float) -> None:
        """Store for ``ttl`` seconds (a non-positive ttl stores nothing)."""
        check_key(key)
        if ttl <= 0:
            return
        with self._lock:
            self._entries.pop(key, None)
            self._entries[key] = (self._clock() + ttl, principal)
            while len(self._entries) > self._max:
                self._entries.popitem(last=False)
