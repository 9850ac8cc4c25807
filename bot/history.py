"""Conversation history per (platform, tenant, user, thread): masked text only, bounded in length and age.

Front ends never re-read raw history from Slack/Teams: what a follow-up may see is what was stored
here, after masking.  The in-process store is the embedded default; ``RedisHistory`` is the
production backend (a capped list per conversation with a TTL).
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class HistoryEntry:
    role: str  # "user" | "assistant"
    text: str  # masked
    at: float
    status: str | None = None  # assistant turns: the answer status (clarify, answered, ...)
    meta: str | None = None  # assistant turns: JSON with ids needed by follow-ups (ticket id, cited chunks)


def conversation_key(platform: str, tenant: str, user_id: str, thread_id: str) -> str:
    """Stable key without raw ids in clear (they are identifiers, but keys end up in Redis dumps)."""
    raw = f"{platform}\x00{tenant}\x00{user_id}\x00{thread_id}"
    return "conv:" + hashlib.sha256(raw.encode()).hexdigest()[:32]


class History(Protocol):
    def append(self, key: str, entry: HistoryEntry) -> None: ...

    def recent(self, key: str) -> list[HistoryEntry]: ...


class MemoryHistory:
    """In-process history: at most ``max_entries`` per conversation, ``max_age_s`` old,
    ``max_conversations``."""

    def __init__(
        self,
        *,
        max_entries: int = 20,
        max_age_s: float = 7 * 24 * 3600,
        max_conversations: int = 10_000,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._data: OrderedDict[str, list[HistoryEntry]] = OrderedDict()
        self._lock = threading.Lock()
        self.max_entries = max_entries
        self.max_age_s = max_age_s
        self.max_conversations = max_conversations
        self._clock = clock

    def append(self, key: str, entry: HistoryEntry) -> None:
        with self._lock:
            items = self._data.pop(key, [])
            items.append(entry)
            self._data[key] = items[-self.max_entries :]
            while len(self._data) > self.max_conversations:
                self._data.popitem(last=False)

    def recent(self, key: str) -> list[HistoryEntry]:
        cutoff = self._clock() - self.max_age_s
        with self._lock:
            return [e for e in self._data.get(key, []) if e.at >= cutoff]


class RedisHistory:
    """Production history: ``LPUSH`` + ``LTRIM`` + ``EXPIRE`` per conversation key."""

    def __init__(
        self,
        client: Any,
        *,
        prefix: str = "dasar:history:",
        max_entries: int = 20,
        max_age_s: int = 7 * 24 * 3600,
        clock: Callable[[], float] = time.time,
        health: Any = None,
    ) -> None:
        if health is None:
            from bot.slack.redis_backends import RedisHealth

            health = RedisHealth(client)
        self._r = client
        self.health = health
        self.prefix = prefix
        self.max_entries = max_entries
        self.max_age_s = max_age_s
        self._clock = clock

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> RedisHistory:
        import redis

        return cls(redis.Redis.from_url(url, socket_timeout=2.0), **kwargs)

    def append(self, key: str, entry: HistoryEntry) -> None:
        """Store one entry; while Redis is down the entry is dropped (the outage is logged once)."""
        name = self.prefix + key
        try:
            pipe = self._r.pipeline()
            pipe.rpush(name, json.dumps(asdict(entry), ensure_ascii=False))
            pipe.ltrim(name, -self.max_entries, -1)
            pipe.expire(name, self.max_age_s)
            pipe.execute()
        except Exception as exc:
            self.health.failed("history RPUSH", exc)
            return
        self.health.succeeded()

    def recent(self, key: str) -> list[HistoryEntry]:
        """The conversation's recent entries; empty while Redis is down (the question stands alone)."""
        cutoff = self._clock() - self.max_age_s
        try:
            raw = self._r.lrange(self.prefix + key, 0, -1)
        except Exception as exc:
            self.health.failed("history LRANGE", exc)
            return []
        self.health.succeeded()
        out = []
        for item in raw:
            data = json.loads(item)
            entry = HistoryEntry(**data)
            if entry.at >= cutoff:
                out.append(entry)
        return out
