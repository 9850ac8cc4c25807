"""Hashes that stand in for user identifiers in cache keys and logs.

WHY: cache keys end up in Redis ``KEYS`` output and logs end up in log aggregators; neither may
hold a raw email or platform user id.  A salted-by-prefix sha256 keeps keys stable across processes
(so a shared Redis cache works) without revealing who they belong to at a glance.
"""

from __future__ import annotations

import hashlib

_CACHE_PREFIX = "dasar.identity.principal.v1|"
_LOG_PREFIX = "dasar.identity.log.v1|"


def cache_key(platform: str, tenant: str, user_id: str) -> str:
    """Cache key for one platform identity: ``p1:<sha256 hex>``, no raw ids or emails."""
    raw = f"{_CACHE_PREFIX}{platform}:{tenant}:{user_id}"
    return "p1:" + hashlib.sha256(raw.encode("utf-8")).hexdigest()


def log_hash(value: str) -> str:
    """Short (12 hex chars) sha256 of a user id or email, for correlating log lines without PII."""
    return hashlib.sha256(f"{_LOG_PREFIX}{value}".encode()).hexdigest()[:12]
