"""Trusted identity: who is asking, resolved server-side from a verified platform envelope.

Identity never comes from message text or model output.  Front ends build a
:class:`VerifiedEnvelope` after the platform's own check (Slack request signature, Teams/Bot
Framework JWT) and call :meth:`PrincipalResolver.resolve`, which returns a frozen
:class:`Principal`; unknown users and directory outages give a guest (fail closed).

Modules (one job each):

* ``principal``      Principal, VerifiedEnvelope, Permission and the role -> permission table
* ``directory``      Directory protocol + DirectoryEntry
* ``yaml_directory`` embedded default directory (validated YAML file)
* ``http_directory`` SCIM-style HTTP directory (lazy: production backend)
* ``slack_user_info`` SlackUserInfo protocol + slack_sdk WebClient adapter (no slack_sdk import)
* ``cache``          PrincipalCache protocol + in-process MemoryPrincipalCache
* ``redis_cache``    RedisPrincipalCache (lazy: needs the ``redis`` extra)
* ``resolver``       PrincipalResolver
* ``hashing``        cache keys and log hashes (no raw emails anywhere)
* ``errors``         error hierarchy (tree in its docstring)

This package imports none of our other packages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from identity.cache import MemoryPrincipalCache, PrincipalCache
from identity.directory import Directory, DirectoryEntry
from identity.errors import (
    DirectoryError,
    DirectoryFormatError,
    DirectoryUnavailable,
    IdentityError,
    PrincipalCacheError,
)
from identity.principal import (
    EVERYONE,
    PLATFORMS,
    ROLE_PERMISSIONS,
    ROLES,
    Permission,
    Principal,
    VerifiedEnvelope,
    permissions_for,
)
from identity.resolver import PrincipalResolver
from identity.slack_user_info import SlackUserInfo, SlackWebClientUserInfo
from identity.yaml_directory import YamlDirectory

if TYPE_CHECKING:
    from identity.http_directory import HttpDirectory
    from identity.redis_cache import RedisPrincipalCache

_LAZY = {
    "HttpDirectory": "identity.http_directory",
    "RedisPrincipalCache": "identity.redis_cache",
}

__all__ = [
    "EVERYONE",
    "PLATFORMS",
    "ROLES",
    "ROLE_PERMISSIONS",
    "Directory",
    "DirectoryEntry",
    "DirectoryError",
    "DirectoryFormatError",
    "DirectoryUnavailable",
    "HttpDirectory",
    "IdentityError",
    "MemoryPrincipalCache",
    "Permission",
    "Principal",
    "PrincipalCache",
    "PrincipalCacheError",
    "PrincipalResolver",
    "RedisPrincipalCache",
    "SlackUserInfo",
    "SlackWebClientUserInfo",
    "VerifiedEnvelope",
    "YamlDirectory",
    "permissions_for",
]


def __getattr__(name: str) -> Any:
    """Import production backends (httpx, redis) only when first used."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'identity' has no attribute {name!r}")
