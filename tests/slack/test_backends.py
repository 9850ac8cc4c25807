"""Dedupe, rate limit and thread state: in-process defaults and the Redis implementations."""

from __future__ import annotations

import pytest

from bot.slack.dedupe import MemoryDeduper
from bot.slack.ratelimit import RateDecision, SlidingWindowLimiter
from bot.slack.state import MemoryThreadState


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_memory_deduper_claims_once_per_ttl() -> None:
    clock = Clock()
    dedupe = MemoryDeduper(60, clock=clock)
    assert [dedupe.claim("a"), dedupe.claim("a"), dedupe.claim("b")] == [True, False, True]
    clock.now += 61
    assert dedupe.claim("a") is True


def test_memory_deduper_bounds_memory() -> None:
    dedupe = MemoryDeduper(60, max_keys=3)
    for key in "abcde":
        assert dedupe.claim(key)
    assert dedupe.claim("a") is True  # evicted as the oldest
    assert dedupe.claim("e") is False


def test_sliding_window_limits_and_reports_retry_after() -> None:
    clock = Clock()
    limiter = SlidingWindowLimiter(2, 60, clock=clock)
    assert [limiter.hit("u").allowed for _ in range(2)] == [True, True]
    clock.now += 10
    assert limiter.hit("u") == RateDecision(False, 50)
    assert limiter.hit("other").allowed
    clock.now += 51
    assert limiter.hit("u").allowed


def test_memory_thread_state_expires() -> None:
    clock = Clock()
    state = MemoryThreadState(100, 10, clock=clock)
    state.remember_thread("T", "C", "1.1")
    state.put_page("k:1", [{"type": "divider"}])
    assert state.in_bot_thread("T", "C", "1.1") and not state.in_bot_thread("T", "C", "2.2")
    assert state.get_page("k:1") == [{"type": "divider"}]
    clock.now += 11
    assert state.get_page("k:1") is None and state.in_bot_thread("T", "C", "1.1")


@pytest.mark.redis
def test_redis_backends_against_a_real_server() -> None:
    from bot.slack.errors import SlackBackendError
    from bot.slack.redis_backends import RedisDeduper, RedisRateLimiter, RedisThreadState, redis_client
    from tests.support.redis_server import running_redis

    with running_redis() as url:
        client = redis_client(url)
        dedupe = RedisDeduper(client, 120)
        assert [dedupe.claim("event:T:Ev1"), dedupe.claim("event:T:Ev1")] == [True, False]
        assert 0 < client.ttl("dasar:slack:seen:event:T:Ev1") <= 120

        limiter = RedisRateLimiter(client, 2, 30)
        decisions = [limiter.hit("T:U1") for _ in range(3)]
        assert [d.allowed for d in decisions] == [True, True, False]
        assert 1 <= decisions[2].retry_after_seconds <= 30
        assert limiter.hit("T:U2").allowed

        state = RedisThreadState(client, 300, 60)
        state.remember_thread("T", "C", "1.1")
        state.put_page("R:1", [{"type": "section", "text": {"type": "mrkdwn", "text": "x"}}])
        assert state.in_bot_thread("T", "C", "1.1") and not state.in_bot_thread("T", "C", "9.9")
        assert state.get_page("R:1") == [{"type": "section", "text": {"type": "mrkdwn", "text": "x"}}]
        assert state.get_page("R:2") is None
    with pytest.raises(SlackBackendError, match="DASAR_REDIS_URL"):
        dedupe.claim("event:T:Ev2")  # the server is gone
