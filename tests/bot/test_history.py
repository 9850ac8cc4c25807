"""Masked conversation history: bounded by length and age, in-process and against a real redis-server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.history import HistoryEntry, MemoryHistory, RedisHistory, conversation_key
from tests.support.redis_server import running_redis


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_conversation_key_hides_ids_and_separates_threads() -> None:
    a = conversation_key("slack", "T1", "U1", "1.1")
    assert "U1" not in a and a.startswith("conv:")
    assert a != conversation_key("slack", "T1", "U1", "1.2") != conversation_key("slack", "T1", "U2", "1.1")


def test_memory_history_is_bounded_in_length_and_age() -> None:
    clock = Clock()
    h = MemoryHistory(max_entries=3, max_age_s=60, clock=clock)
    for i in range(5):
        h.append("k", HistoryEntry(role="user", text=f"q{i}", at=clock.now + i))
    assert [e.text for e in h.recent("k")] == ["q2", "q3", "q4"]
    clock.now += 63
    assert [e.text for e in h.recent("k")] == ["q3", "q4"]


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    with running_redis() as url:
        yield url


@pytest.mark.redis
def test_redis_history_round_trip_bounds_and_ttl(redis_url: str) -> None:
    import redis

    clock = Clock()
    h = RedisHistory.from_url(redis_url, max_entries=2, max_age_s=300, clock=clock)
    key = conversation_key("slack", "T1", "U1", "9.9")
    h.append(key, HistoryEntry(role="user", text="tarif <NIK_1>?", at=clock.now))
    h.append(
        key, HistoryEntry(role="assistant", text="[answered]", at=clock.now, status="answered", meta="{}")
    )
    h.append(key, HistoryEntry(role="user", text="dan 2015?", at=clock.now))
    got = h.recent(key)
    assert [(e.role, e.text) for e in got] == [("assistant", "[answered]"), ("user", "dan 2015?")]
    client = redis.Redis.from_url(redis_url)
    ttl = client.ttl("dasar:history:" + key)
    assert 0 < ttl <= 300
    # a second process sees the same history (production: several front-end workers)
    other = RedisHistory.from_url(redis_url, max_entries=2, max_age_s=300, clock=clock)
    assert [e.text for e in other.recent(key)] == ["[answered]", "dan 2015?"]
