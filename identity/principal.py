"""Who is asking: the verified envelope in, a frozen :class:`Principal` out.

WHY this shape: identity must never come from message text or model output.  The only thing a
front end may hand us is a :class:`VerifiedEnvelope` built from a signature-verified Slack request
(team id + user id) or an authenticated Teams activity (tenant id + AAD object id).  Everything
else (groups, roles, entities) is looked up server-side and frozen into a :class:`Principal`, so a
tool cannot widen its own access by editing the object.

Permissions are derived from roles by one declarative table (:data:`ROLE_PERMISSIONS`) instead of
``if role == ...`` checks scattered through the code.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Platform = Literal["slack", "teams", "cli"]
PLATFORMS: tuple[str, ...] = ("slack", "teams", "cli")

#: Access group every principal (guests included) belongs to; same value as ``kb.model.PUBLIC_GROUP``.
EVERYONE = "everyone"

#: Default answer language (Bahasa Indonesia).
DEFAULT_LOCALE = "id"


class Permission(enum.StrEnum):
    """What a principal may do beyond reading documents (document reads go through groups)."""

    MAY_ESCALATE = "may_escalate"
    MAY_READ_CONFIDENTIAL_MEMOS = "may_read_confidential_memos"
    MAY_APPROVE_FAQ = "may_approve_faq"
    MAY_ACT_ON_TICKETS = "may_act_on_tickets"
    MAY_SEE_TICKETS = "may_see_tickets"


#: Role vocabulary -> permissions granted.  A principal's permissions are the union over its roles.
#: requester: staff who may open an escalation ticket and follow their own tickets.
#: tax_team: answers escalations, reads confidential memos.
#: faq_approver: approves promotion of answered tickets into the FAQ.
#: admin: everything.
ROLE_PERMISSIONS: Mapping[str, frozenset[Permission]] = {
    "requester": frozenset({Permission.MAY_ESCALATE, Permission.MAY_SEE_TICKETS}),
    "tax_team": frozenset(
        {
            Permission.MAY_ESCALATE,
            Permission.MAY_SEE_TICKETS,
            Permission.MAY_ACT_ON_TICKETS,
            Permission.MAY_READ_CONFIDENTIAL_MEMOS,
        }
    ),
    "faq_approver": frozenset({Permission.MAY_APPROVE_FAQ, Permission.MAY_SEE_TICKETS}),
    "admin": frozenset(Permission),
}

#: Every role a directory may assign; anything else is rejected (YAML) or ignored (SCIM).
ROLES: frozenset[str] = frozenset(ROLE_PERMISSIONS)


def permissions_for(roles: Iterable[str]) -> frozenset[Permission]:
    """Union of the permissions of ``roles``; unknown roles grant nothing."""
    granted: set[Permission] = set()
    for role in roles:
        granted |= ROLE_PERMISSIONS.get(role, frozenset())
    return frozenset(granted)


def _check_text(name: str, value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{name} must be a non-empty string, got {type(value).__name__}")
    return value


@dataclass(frozen=True)
class VerifiedEnvelope:
    """Identity facts taken from a platform-verified request: the ONLY input to resolution.

    Build it in the front end *after* the platform check passed (Slack signing secret, Bot Framework
    JWT), from the envelope fields -- never from message text.

    Attributes:
        platform: ``slack``, ``teams`` or ``cli``.
        tenant: Slack team id (``T...``), AAD tenant id, or a fixed tag for the CLI.
        user_id: Slack user id (``U...``/``W...``), AAD object id, or for the CLI the operator's email
            (the CLI runs on a trusted host; its identity is the local operator's configuration).
    """

    platform: str
    tenant: str
    user_id: str

    def __post_init__(self) -> None:
        if self.platform not in PLATFORMS:
            raise ValueError(f"platform must be one of {', '.join(PLATFORMS)}, got {self.platform!r}")
        _check_text("tenant", self.tenant)
        _check_text("user_id", self.user_id)

    @property
    def id(self) -> str:
        """Stable ``platform:tenant:user`` id (same as the resolved :attr:`Principal.id`)."""
        return f"{self.platform}:{self.tenant}:{self.user_id}"


def _frozen_strs(name: str, value: object) -> frozenset[str]:
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise TypeError(f"{name} must be an iterable of strings (not a single string)")
    items = frozenset(value)
    for item in items:
        if not isinstance(item, str) or not item:
            raise TypeError(f"{name} must contain non-empty strings, got {item!r}")
    return items


@dataclass(frozen=True)
class Principal:
    """A resolved, immutable identity: who is asking and what they may read or do.

    Attributes:
        platform: ``slack``, ``teams`` or ``cli``.
        tenant: Slack team id / AAD tenant id / CLI tag.
        platform_user_id: User id on that platform (for the CLI, the operator's email).
        email: Directory email, or None for guests.
        display_name: Human name to address the user by.
        groups: Access groups; always contains ``everyone``.
        roles: Subset of :data:`ROLES`; empty for guests.
        entities: Legal entities (companies) whose data the principal may see.
        locale: Preferred answer language (``id`` or ``en``).
        is_guest: True when the user is unknown or the directory failed (fail closed).
    """

    platform: str
    tenant: str
    platform_user_id: str
    email: str | None
    display_name: str
    groups: frozenset[str] = field(default_factory=lambda: frozenset({EVERYONE}))
    roles: frozenset[str] = frozenset()
    entities: frozenset[str] = frozenset()
    locale: str = DEFAULT_LOCALE
    is_guest: bool = False

    def __post_init__(self) -> None:
        if self.platform not in PLATFORMS:
            raise ValueError(f"platform must be one of {', '.join(PLATFORMS)}, got {self.platform!r}")
        _check_text("tenant", self.tenant)
        _check_text("platform_user_id", self.platform_user_id)
        _check_text("display_name", self.display_name)
        _check_text("locale", self.locale)
        if self.email is not None:
            _check_text("email", self.email)
        # Coerce collections to frozensets (a caller may pass lists) and put everyone in "everyone".
        object.__setattr__(self, "groups", _frozen_strs("groups", self.groups) | {EVERYONE})
        object.__setattr__(self, "roles", _frozen_strs("roles", self.roles))
        object.__setattr__(self, "entities", _frozen_strs("entities", self.entities))
        unknown = self.roles - ROLES
        if unknown:
            raise ValueError(f"unknown roles {sorted(unknown)}; known roles: {', '.join(sorted(ROLES))}")
        if self.is_guest and (self.roles or self.entities or self.groups != {EVERYONE}):
            raise ValueError("a guest principal has no roles, no entities and only the 'everyone' group")

    @classmethod
    def guest(cls, platform: str, tenant: str, user_id: str) -> Principal:
        """A principal that reads only documents open to everyone and cannot see tickets."""
        return cls(
            platform=platform,
            tenant=tenant,
            platform_user_id=user_id,
            email=None,
            display_name="guest",
            groups=frozenset({EVERYONE}),
            roles=frozenset(),
            entities=frozenset(),
            locale=DEFAULT_LOCALE,
            is_guest=True,
        )

    @property
    def id(self) -> str:
        """Stable ``platform:tenant:user`` id; may contain an email (CLI), so never log it raw."""
        return f"{self.platform}:{self.tenant}:{self.platform_user_id}"

    @property
    def permissions(self) -> frozenset[Permission]:
        """Permissions granted by :data:`ROLE_PERMISSIONS` for this principal's roles."""
        return permissions_for(self.roles)

    def has_role(self, role: str) -> bool:
        """True iff the directory gave this principal ``role``."""
        return role in self.roles

    def may(self, permission: Permission) -> bool:
        """True iff one of the principal's roles grants ``permission``."""
        return permission in self.permissions

    def can_read(self, access_groups: Iterable[str], entities: Iterable[str] = ()) -> bool:
        """True iff the principal shares a group with a document's ``access_groups`` and, when the
        document names legal ``entities``, belongs to one of them (entities are access).

        The same rule as ``kb.scope.ReaderScope.can_read`` (identity is a leaf and cannot import kb; a
        test checks both agree on every sample document and user).

        Raises:
            TypeError: ``access_groups`` or ``entities`` is a single string (it would be read as letters).
        """
        if isinstance(access_groups, str) or isinstance(entities, str):
            raise TypeError("access_groups and entities must be iterables of names, not a single string")
        doc_entities = frozenset(entities)
        if self.groups.isdisjoint(access_groups):
            return False
        return not doc_entities or not self.entities.isdisjoint(doc_entities)

    @property
    def may_escalate(self) -> bool:
        """May open an escalation ticket to the tax team."""
        return self.may(Permission.MAY_ESCALATE)

    @property
    def may_read_confidential_memos(self) -> bool:
        """May read confidential internal memos (still subject to groups)."""
        return self.may(Permission.MAY_READ_CONFIDENTIAL_MEMOS)

    @property
    def may_approve_faq(self) -> bool:
        """May approve an answered ticket for the FAQ."""
        return self.may(Permission.MAY_APPROVE_FAQ)

    @property
    def may_act_on_tickets(self) -> bool:
        """May answer, reassign or close tickets."""
        return self.may(Permission.MAY_ACT_ON_TICKETS)

    @property
    def may_see_tickets(self) -> bool:
        """May see tickets (their own, or all for tax_team/admin -- enforced by the ticket store)."""
        return self.may(Permission.MAY_SEE_TICKETS)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict with sorted lists (deterministic bytes for caches)."""
        return {
            "platform": self.platform,
            "tenant": self.tenant,
            "platform_user_id": self.platform_user_id,
            "email": self.email,
            "display_name": self.display_name,
            "groups": sorted(self.groups),
            "roles": sorted(self.roles),
            "entities": sorted(self.entities),
            "locale": self.locale,
            "is_guest": self.is_guest,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Principal:
        """Inverse of :meth:`to_dict`; used only for our own cache entries.

        Raises:
            ValueError: Missing or unknown keys, or invalid values.
        """
        expected = {
            "platform",
            "tenant",
            "platform_user_id",
            "email",
            "display_name",
            "groups",
            "roles",
            "entities",
            "locale",
            "is_guest",
        }
        keys = set(data)
        if keys != expected:
            raise ValueError(
                f"principal record keys differ: missing {sorted(expected - keys)}, "
                f"unknown {sorted(keys - expected)}"
            )
        if not isinstance(data["is_guest"], bool):
            raise ValueError("is_guest must be a boolean")
        for name in ("groups", "roles", "entities"):
            if not isinstance(data[name], list):
                raise ValueError(f"{name} must be a list of strings")
        return cls(
            platform=data["platform"],
            tenant=data["tenant"],
            platform_user_id=data["platform_user_id"],
            email=data["email"],
            display_name=data["display_name"],
            groups=_frozen_strs("groups", data["groups"]),
            roles=_frozen_strs("roles", data["roles"]),
            entities=_frozen_strs("entities", data["entities"]),
            locale=data["locale"],
            is_guest=data["is_guest"],
        )
