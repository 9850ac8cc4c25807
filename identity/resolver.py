"""Turn a :class:`VerifiedEnvelope` into a :class:`Principal`, failing closed.

Resolution order:

* ``slack``: directory by Slack user id; else Slack ``users.info`` email -> directory by email.
* ``teams``: directory by AAD object id.
* ``cli``: ``envelope.user_id`` is the operator's email -> directory by email.
* Not found -> :meth:`Principal.guest` (cached for ``guest_ttl_seconds``).

Outage decision (documented contract): a cache hit is served *before* the directory is asked, and
the cache only returns entries younger than their TTL (``ttl_seconds``, 300 s by default).  So a
principal resolved at most TTL seconds ago may still be used while the directory is down; once it
expires, a directory failure (:class:`DirectoryError`, including ``DirectoryUnavailable``) yields a
guest principal that is *not* cached, plus a warning whose only user datum is a hash.  A stale
elevated principal is never served.  A failing cache is treated as a miss.

There is deliberately no way to build a principal from message text: :meth:`PrincipalResolver.resolve`
accepts only a :class:`VerifiedEnvelope` and raises ``TypeError`` for anything else.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping

from identity.cache import MemoryPrincipalCache, PrincipalCache
from identity.directory import Directory, DirectoryEntry
from identity.errors import DirectoryError, PrincipalCacheError
from identity.hashing import cache_key, log_hash
from identity.principal import Principal, VerifiedEnvelope
from identity.slack_user_info import SlackUserInfo

logger = logging.getLogger(__name__)


class PrincipalResolver:
    """Resolves verified platform identities against the directory, with a TTL cache.

    Args:
        directory: Where groups/roles/entities come from.
        cache: Principal cache; None means a fresh :class:`MemoryPrincipalCache`.
        slack_user_info: Optional Slack ``users.info`` access for the email fallback.
        ttl_seconds: How long a resolved principal is reused (also the outage grace period).
        guest_ttl_seconds: How long an "unknown user" guest is reused (short, so new staff appear soon).
        trusted_tenants: Optional ``{platform: tenant ids}``; envelopes from other tenants of a listed
            platform (e.g. a Slack Connect workspace) resolve to guests without a directory call.
    """

    def __init__(
        self,
        directory: Directory,
        cache: PrincipalCache | None = None,
        slack_user_info: SlackUserInfo | None = None,
        ttl_seconds: float = 300,
        *,
        guest_ttl_seconds: float = 60,
        trusted_tenants: Mapping[str, Iterable[str]] | None = None,
    ):
        if ttl_seconds < 0 or guest_ttl_seconds < 0:
            raise ValueError("ttl_seconds and guest_ttl_seconds must be >= 0")
        self.directory = directory
        self.cache: PrincipalCache = cache if cache is not None else MemoryPrincipalCache()
        self.slack_user_info = slack_user_info
        self.ttl_seconds = ttl_seconds
        self.guest_ttl_seconds = guest_ttl_seconds
        self.trusted_tenants: dict[str, frozenset[str]] | None = (
            None if trusted_tenants is None else {p: frozenset(t) for p, t in trusted_tenants.items()}
        )

    def resolve(self, envelope: VerifiedEnvelope) -> Principal:
        """The principal for a verified envelope; a guest when unknown or when the directory fails.

        Raises:
            TypeError: ``envelope`` is not a :class:`VerifiedEnvelope` (e.g. a string from a message).
        """
        if not isinstance(envelope, VerifiedEnvelope):
            raise TypeError(
                f"resolve() accepts only a VerifiedEnvelope built from a verified platform request, "
                f"got {type(envelope).__name__}"
            )
        user_hash = log_hash(envelope.id)
        if not self._tenant_trusted(envelope):
            logger.warning(
                "platform=%s, user_hash=%s | untrusted tenant, resolving as guest",
                envelope.platform,
                user_hash,
            )
            return self._guest(envelope)

        key = cache_key(envelope.platform, envelope.tenant, envelope.user_id)
        cached = self._cache_get(key, user_hash)
        if cached is not None and cached.id == envelope.id:
            return cached

        try:
            entry, source = self._lookup(envelope)
        except DirectoryError as exc:
            logger.warning(
                "platform=%s, user_hash=%s, error=%s | directory failed, failing closed to guest",
                envelope.platform,
                user_hash,
                type(exc).__name__,
            )
            return self._guest(envelope)

        if entry is None:
            principal = self._guest(envelope)
            ttl = self.guest_ttl_seconds
        else:
            principal = _principal_from(envelope, entry)
            ttl = self.ttl_seconds
        logger.info(
            "platform=%s, user_hash=%s, source=%s, guest=%s, roles=%s | principal resolved",
            envelope.platform,
            user_hash,
            source,
            principal.is_guest,
            ",".join(sorted(principal.roles)),
        )
        self._cache_set(key, principal, ttl, user_hash)
        return principal

    # -- internals ---------------------------------------------------------------------------------

    def _tenant_trusted(self, envelope: VerifiedEnvelope) -> bool:
        if self.trusted_tenants is None or envelope.platform not in self.trusted_tenants:
            return True
        return envelope.tenant in self.trusted_tenants[envelope.platform]

    def _lookup(self, envelope: VerifiedEnvelope) -> tuple[DirectoryEntry | None, str]:
        platform, tenant, user_id = envelope.platform, envelope.tenant, envelope.user_id
        if platform == "cli":
            return self.directory.lookup_email(user_id), "email"
        entry = self.directory.lookup_platform_id(platform, tenant, user_id)
        if entry is not None:
            return entry, "platform_id"
        if platform == "slack" and self.slack_user_info is not None:
            email = self.slack_user_info.email_for(user_id)
            if email:
                return self.directory.lookup_email(email), "slack_email"
        return None, "unknown"

    @staticmethod
    def _guest(envelope: VerifiedEnvelope) -> Principal:
        return Principal.guest(envelope.platform, envelope.tenant, envelope.user_id)

    def _cache_get(self, key: str, user_hash: str) -> Principal | None:
        try:
            cached = self.cache.get(key)
        except PrincipalCacheError as exc:
            logger.warning(
                "user_hash=%s, error=%s | principal cache get failed, treating as miss", user_hash, exc
            )
            return None
        return cached

    def _cache_set(self, key: str, principal: Principal, ttl: float, user_hash: str) -> None:
        if ttl <= 0:
            return
        try:
            self.cache.set(key, principal, ttl)
        except PrincipalCacheError as exc:
            logger.warning("user_hash=%s, error=%s | principal cache set failed", user_hash, exc)


def _principal_from(envelope: VerifiedEnvelope, entry: DirectoryEntry) -> Principal:
    """Directory facts + the envelope's platform identity; never anything from the message."""
    return Principal(
        platform=envelope.platform,
        tenant=envelope.tenant,
        platform_user_id=envelope.user_id,
        email=entry.email,
        display_name=entry.display_name,
        groups=entry.groups,
        roles=entry.roles,
        entities=entry.entities,
        locale=entry.locale,
        is_guest=False,
    )
