"""The access groups every member of a Slack channel has in common.

WHY: an answer posted in a channel is read by all its members, so it may only quote documents
open to *every* one of them -- the intersection of their groups.  The asker may see more; the
turn then sets ``Reply.private_answer`` and the front end sends that to the asker alone.

Members come from Slack's ``conversations.members`` (our authenticated API call, not message
text); each member is resolved through the identity :class:`~identity.resolver.PrincipalResolver`
(unknown users and directory failures resolve to guests: ``{"everyone"}``, failing closed).
Results are cached per channel for a short TTL so a busy channel does not page through its
members on every question.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from identity.principal import Principal, VerifiedEnvelope
from kb.scope import ReaderScope
from tools.access import reader_scope

logger = logging.getLogger(__name__)


class Resolver(Protocol):
    """What we need of :class:`identity.resolver.PrincipalResolver`."""

    def resolve(self, envelope: VerifiedEnvelope) -> Principal:
        """The principal of a verified envelope."""
        ...


class ChannelAudience:
    """Computes and caches ``audience_groups`` for a channel.

    Args:
        client: A ``slack_sdk.WebClient`` (anything with ``conversations_members``).
        resolver: Identity resolver for the members.
        ttl_seconds: Cache lifetime per channel; 0 disables caching.
        clock: Monotonic clock, injectable for tests.
    """

    def __init__(
        self,
        client: Any,
        resolver: Resolver,
        ttl_seconds: float = 60.0,
        *,
        clock: Callable[[], float] = time.monotonic,
    ):
        self._client = client
        self._resolver = resolver
        self.ttl_seconds = ttl_seconds
        self._clock = clock
        self._cache: dict[tuple[str, str], tuple[float, ReaderScope]] = {}
        self._lock = threading.Lock()

    def groups(self, team: str, channel: str, *, exclude: Iterable[str] = ()) -> frozenset[str]:
        """The access groups every member has (see :meth:`scope`, which also carries the entities)."""
        return self.scope(team, channel, exclude=exclude).groups

    def scope(self, team: str, channel: str, *, exclude: Iterable[str] = ()) -> ReaderScope:
        """The reader scope common to the channel's members (``exclude``: the bot's own user id): the
        intersection of their groups *and* entities.

        Raises:
            Exception: Slack API errors propagate; the caller answers with an apology instead of
                guessing a wider audience.
        """
        key = (team, channel)
        now = self._clock()
        with self._lock:
            hit = self._cache.get(key)
            if hit is not None and hit[0] > now:
                return hit[1]
        skip = set(exclude)
        members = [m for m in self._members(channel) if m not in skip]
        result = ReaderScope.common(
            reader_scope(self._resolver.resolve(VerifiedEnvelope("slack", team, member)))
            for member in sorted(members)
        )
        logger.info(
            "channel=%s, members=%d, groups=%s, entities=%s | channel audience computed",
            channel,
            len(members),
            ",".join(sorted(result.groups)),
            ",".join(sorted(result.entities)),
        )
        if self.ttl_seconds > 0:
            with self._lock:
                self._cache[key] = (now + self.ttl_seconds, result)
        return result

    def _members(self, channel: str) -> list[str]:
        members: list[str] = []
        cursor: str | None = None
        while True:
            kwargs: dict[str, Any] = {"channel": channel, "limit": 200}
            if cursor:
                kwargs["cursor"] = cursor
            response = self._client.conversations_members(**kwargs)
            members.extend(str(m) for m in response.get("members", []) or [])
            cursor = (response.get("response_metadata") or {}).get("next_cursor") or None
            if not cursor:
                return members
