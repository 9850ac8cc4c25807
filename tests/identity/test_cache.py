"""MemoryPrincipalCache: TTL with an injected clock, eviction, and no raw-email keys."""

from __future__ import annotations

import pytest

from identity.cache import MemoryPrincipalCache
from identity.hashing import cache_key, log_hash
from identity.principal import Principal
from tests.identity.conftest import FakeClock


def _p(user: str = "U1") -> Principal:
    return Principal("slack", "T1", user, "a@example.com", "A", roles=frozenset({"requester"}))


def test_entry_lives_exactly_ttl_seconds(clock: FakeClock) -> None:
    cache = MemoryPrincipalCache(clock=clock)
    key = cache_key("slack", "T1", "U1")
    cache.set(key, _p(), ttl=300)
    clock.advance(299.9)
    assert cache.get(key) == _p()
    clock.advance(0.1)
    assert cache.get(key) is None
    assert len(cache) == 0  # expired entry dropped on read


def test_zero_ttl_stores_nothing_and_eviction_keeps_newest(clock: FakeClock) -> None:
    cache = MemoryPrincipalCache(clock=clock, max_entries=2)
    keys = [cache_key("slack", "T1", f"U{i}") for i in range(3)]
    cache.set(keys[0], _p("U0"), ttl=0)
    assert cache.get(keys[0]) is None
    for i, key in enumerate(keys):
        cache.set(key, _p(f"U{i}"), ttl=10)
    assert cache.get(keys[0]) is None
    assert [cache.get(k).platform_user_id for k in keys[1:]] == ["U1", "U2"]  # type: ignore[union-attr]


def test_keys_are_hashes_never_emails() -> None:
    key = cache_key("cli", "local", "siti@example.co.id")
    assert key.startswith("p1:") and len(key) == 3 + 64
    assert "siti" not in key and "@" not in key
    assert key == cache_key("cli", "local", "siti@example.co.id")  # stable across processes
    assert key != cache_key("cli", "local", "budi@example.co.id")
    assert len(log_hash("siti@example.co.id")) == 12
    with pytest.raises(ValueError, match="never raw emails"):
        MemoryPrincipalCache().set("siti@example.co.id", _p(), ttl=10)
    with pytest.raises(ValueError, match="never raw emails"):
        MemoryPrincipalCache().get("siti@example.co.id")
