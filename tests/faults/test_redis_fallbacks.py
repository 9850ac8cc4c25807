"""The Redis-backed stores against a Redis that is not there (a closed loopback port): in-process
fallbacks answer, history is empty, and the outage is logged once (and its end once)."""

from __future__ import annotations

import logging

import pytest

from bot.history import HistoryEntry, RedisHistory
from bot.slack.dedupe import MemoryDeduper
from bot.slack.ratelimit import SlidingWindowLimiter
from bot.slack.redis_backends import (
    FallbackDeduper,
    FallbackPrincipalCache,
    FallbackRateLimiter,
    FallbackThreadState,
    RedisDeduper,
    RedisHealth,
    RedisRateLimiter,
    RedisThreadState,
    redis_client,
)
from bot.slack.state import MemoryThreadState

DEAD = "redis://127.0.0.1:1/0"  # nothing listens on port 1


def _outage_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage() for r in caplog.records if r.levelno == logging.WARNING and "redis" in r.getMessage()
    ]


def test_every_store_falls_back_and_the_outage_is_logged_once(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    client = redis_client(DEAD)
    health = RedisHealth(client, probe_interval=0.0)
    dedupe = FallbackDeduper(RedisDeduper(client), MemoryDeduper(), health)
    limiter = FallbackRateLimiter(RedisRateLimiter(client, 2, 60), SlidingWindowLimiter(2, 60), health)
    state = FallbackThreadState(RedisThreadState(client), MemoryThreadState(), health)
    history = RedisHistory(client, health=health)

    assert dedupe.claim("event:T:Ev1") is True and dedupe.claim("event:T:Ev1") is False
    assert [limiter.hit("T:U1").allowed for _ in range(3)] == [True, True, False]
    state.remember_thread("T", "C1", "1.0")
    assert state.in_bot_thread("T", "C1", "1.0") and not state.in_bot_thread("T", "C1", "2.0")
    state.put_page("p1", [{"type": "section"}])
    assert state.get_page("p1") == [{"type": "section"}]
    history.append("conv:x", HistoryEntry(role="user", text="q", at=1.0))
    assert history.recent("conv:x") == []

    assert health.down and health.reason is not None and health.reason.startswith("redis unavailable")
    assert health.status() == (False, health.reason)
    warnings = _outage_warnings(caplog)
    assert len(warnings) == 1 and "in-process fallback" in warnings[0], warnings
    assert health.outages == 1


def test_recovery_is_logged_once_and_ends_the_outage(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    health = RedisHealth(None)
    health.failed("SET NX", ConnectionError("refused"))
    health.failed("GET page", ConnectionError("refused"))
    assert health.status() == (False, "redis unavailable (SET NX: ConnectionError)")
    health.succeeded()
    health.succeeded()
    assert health.status() == (True, None) and not health.down
    warnings = _outage_warnings(caplog)
    assert len(warnings) == 2 and "redis is back" in warnings[1], warnings


def test_principal_cache_outage_is_one_warning_not_one_per_call(caplog: pytest.LogCaptureFixture) -> None:
    """Issue 13: a structured WARNING per failed principal-cache call was noise; one per outage now."""
    from identity.cache import MemoryPrincipalCache
    from identity.principal import VerifiedEnvelope
    from identity.redis_cache import RedisPrincipalCache
    from identity.resolver import PrincipalResolver
    from identity.yaml_directory import YamlDirectory
    from tests.conftest import DIRECTORY

    caplog.set_level(logging.DEBUG)
    client = redis_client(DEAD)
    health = RedisHealth(client, probe_interval=0.0)
    cache = FallbackPrincipalCache(RedisPrincipalCache(client), MemoryPrincipalCache(), health)
    resolver = PrincipalResolver(YamlDirectory(DIRECTORY), cache)
    envelope = VerifiedEnvelope(platform="slack", tenant="T0SNRTEAM", user_id="U04APCLRK1")

    principals = [resolver.resolve(envelope) for _ in range(5)]

    assert {p.email for p in principals} == {"ap.clerk@sinarnusantara.co.id"} and not principals[0].is_guest
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and "redis unavailable" in warnings[0], warnings
    assert all("U04APCLRK1" not in r.getMessage() for r in caplog.records)  # ids only as hashes
    assert health.down and health.outages == 1
