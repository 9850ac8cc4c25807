"""RedisPrincipalCache against a real redis-server on loopback."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from identity.errors import PrincipalCacheError
from identity.hashing import cache_key
from identity.principal import Principal, VerifiedEnvelope
from identity.resolver import PrincipalResolver
from identity.yaml_directory import YamlDirectory
from tests.identity.conftest import SLACK_TEAM

pytestmark = pytest.mark.redis

redis = pytest.importorskip("redis")

from identity.redis_cache import RedisPrincipalCache  # noqa: E402 -- after importorskip


@pytest.fixture
def client(redis_url: str) -> Iterator[object]:
    c = redis.Redis.from_url(redis_url)
    c.flushdb()
    yield c
    c.close()


def _siti() -> Principal:
    return Principal(
        "cli",
        "local",
        "siti.rahma@example.co.id",
        "siti.rahma@example.co.id",
        "Siti Rahma",
        groups=frozenset({"tax-team"}),
        roles=frozenset({"tax_team"}),
        entities=frozenset({"PT-ABC"}),
    )


def test_round_trip_stores_sorted_json_under_hashed_key(client: redis.Redis) -> None:
    cache = RedisPrincipalCache(client, prefix="test:principal:")
    key = cache_key("cli", "local", "siti.rahma@example.co.id")
    cache.set(key, _siti(), ttl=30)

    assert cache.get(key) == _siti()
    keys = [k.decode() for k in client.keys("*")]
    assert keys == [f"test:principal:{key}"]
    assert "@" not in keys[0] and "siti" not in keys[0]
    stored = json.loads(client.get(keys[0]))
    assert stored == _siti().to_dict()
    assert set(stored) == {
        "platform", "tenant", "platform_user_id", "email", "display_name",
        "groups", "roles", "entities", "locale", "is_guest",
    }  # fmt: skip
    assert 0 < client.pttl(keys[0]) <= 30_000


def test_entries_expire_in_redis(client: redis.Redis) -> None:
    cache = RedisPrincipalCache(client)
    key = cache_key("slack", "T1", "U1")
    cache.set(key, _siti(), ttl=0.15)
    assert cache.get(key) == _siti()
    assert 0 < client.pttl(cache.prefix + key) <= 150  # Redis itself holds the expiry ...
    deadline = time.monotonic() + 5.0
    while client.exists(cache.prefix + key) and time.monotonic() < deadline:  # ... wait for it to happen
        time.sleep(0.02)
    assert cache.get(key) is None
    assert client.keys("*") == []


def test_corrupt_entry_is_a_miss(client: redis.Redis) -> None:
    cache = RedisPrincipalCache(client)
    key = cache_key("slack", "T1", "U1")
    client.set(cache.prefix + key, b"{not json")
    assert cache.get(key) is None
    client.set(cache.prefix + key, json.dumps({**_siti().to_dict(), "roles": ["god"]}))
    assert cache.get(key) is None


def test_unreachable_redis_raises_cache_error_and_resolver_still_works(directory_file: Path) -> None:
    cache = RedisPrincipalCache.from_url("redis://127.0.0.1:1/0", timeout=0.2)
    key = cache_key("slack", "T1", "U1")
    with pytest.raises(PrincipalCacheError, match="redis get failed"):
        cache.get(key)
    resolver = PrincipalResolver(YamlDirectory(directory_file), cache)
    p = resolver.resolve(VerifiedEnvelope("slack", SLACK_TEAM, "U0SITI001"))
    assert p.email == "siti.rahma@example.co.id"


def test_resolver_shares_principals_through_redis(client: redis.Redis, directory_file: Path) -> None:
    directory = YamlDirectory(directory_file)
    env = VerifiedEnvelope("slack", SLACK_TEAM, "U0SITI001")
    first = PrincipalResolver(directory, RedisPrincipalCache(client)).resolve(env)

    class DownDirectory:
        def lookup_email(self, email: str) -> None:
            raise AssertionError("directory must not be called on a cache hit")

        def lookup_platform_id(self, platform: str, tenant: str, user_id: str) -> None:
            raise AssertionError("directory must not be called on a cache hit")

    # a second process (new resolver, same Redis) gets the same principal without the directory
    second = PrincipalResolver(DownDirectory(), RedisPrincipalCache(client)).resolve(env)  # type: ignore[arg-type]
    assert second == first
    assert second.roles == frozenset({"tax_team", "requester"})
