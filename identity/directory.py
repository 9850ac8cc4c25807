"""The directory protocol: where groups, roles and entities come from.

WHY a protocol: the embedded default is a YAML file (:mod:`identity.yaml_directory`); production
may use a SCIM endpoint (:mod:`identity.http_directory`).  The resolver only needs two look-ups,
both keyed by facts the platform verified (a platform user id) or the platform itself reported
(the email from Slack's ``users.info``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from identity.principal import DEFAULT_LOCALE


@dataclass(frozen=True)
class DirectoryEntry:
    """One staff member as the directory knows them.

    Attributes:
        email: Lower-cased work email (the directory's primary key).
        display_name: Name to address the user by.
        groups: Document access groups (``everyone`` is added by :class:`~identity.principal.Principal`).
        roles: Roles from :data:`identity.principal.ROLES`.
        entities: Legal entities the user works for.
        locale: Preferred answer language.
        slack_id: Slack user id, if the user is on Slack.
        aad_object_id: Lower-cased Entra ID (AAD) object id, if the user is on Teams.
    """

    email: str
    display_name: str
    groups: frozenset[str] = frozenset()
    roles: frozenset[str] = frozenset()
    entities: frozenset[str] = frozenset()
    locale: str = DEFAULT_LOCALE
    slack_id: str | None = None
    aad_object_id: str | None = None


@runtime_checkable
class Directory(Protocol):
    """Look-ups the resolver needs.  Both may raise :class:`~identity.errors.DirectoryUnavailable`."""

    def lookup_email(self, email: str) -> DirectoryEntry | None:
        """Entry whose email matches (case-insensitive), or None."""
        ...

    def lookup_platform_id(self, platform: str, tenant: str, user_id: str) -> DirectoryEntry | None:
        """Entry linked to a platform identity (Slack user id, AAD object id), or None."""
        ...
