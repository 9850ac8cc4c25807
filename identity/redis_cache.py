"""Principal cache in Redis, shared by every bot process (production backend; imported lazily).

Values are the JSON of :meth:`Principal.to_dict` -- names, groups, roles, entities, locale, and
the directory email (needed to address tickets).  No tokens or secrets are ever stored.  Expiry
is Redis' own (``SET ... PX``), so a stale elevated principal cannot outlive its TTL even if a
process holds a wrong clock.  Redis failures raise :class:`PrincipalCacheError`; the resolver then
treats the cache as a miss and asks the directory.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import redis

from identity.cache import check_key
from identity.errors import PrincipalCacheError
from identity.principal import Principal

logger = logging.getLogger(__name__)

DEFAULT_PREFIX = "dasar:principal:"


class RedisPrincipalCache:
    """:class:`~identity.cache.PrincipalCache` over a ``redis.Redis`` client.

    Args:
        redis_client: A ``redis.Redis`` (decoded or raw responses both work).
        prefix: Namespace for keys, so one Redis can serve several deployments.
    """

    def __init__(self, redis_client: Any, prefix: str = DEFAULT_PREFIX):
        if "@" in prefix:
            raise ValueError("prefix must not contain '@'")
        self._redis = redis_client
        self.prefix = prefix

    @classmethod
    def from_url(cls, url: str, prefix: str = DEFAULT_PREFIX, *, timeout: float = 1.0) -> RedisPrincipalCache:
        """Connect to ``url`` with short timeouts (a slow cache must not stall a chat turn)."""
        client = redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
        return cls(client, prefix)

    def get(self, key: str) -> Principal | None:
        """Principal under ``key``, None if absent/expired or the stored value is unreadable."""
        name = self.prefix + check_key(key)
        try:
            raw = self._redis.get(name)
        except redis.RedisError as exc:
            raise PrincipalCacheError(
                f"redis get failed ({type(exc).__name__}); check the redis URL"
            ) from exc
        if raw is None:
            return None
        try:
            return Principal.from_dict(json.loads(raw))
        except (ValueError, TypeError) as exc:
            logger.warning("error=%s | unreadable principal cache entry ignored", type(exc).__name__)
            return None

    def set(self, key: str, principal: Principal, ttl: float) -> None:
        """Store ``principal`` as JSON for ``ttl`` seconds (millisecond precision)."""
        name = self.prefix + check_key(key)
        ttl_ms = int(ttl * 1000)
        if ttl_ms <= 0:
            return
        payload = json.dumps(principal.to_dict(), sort_keys=True, ensure_ascii=False)
        try:
            self._redis.set(name, payload, px=ttl_ms)
        except redis.RedisError as exc:
            raise PrincipalCacheError(
                f"redis set failed ({type(exc).__name__}); check the redis URL"
            ) from exc
