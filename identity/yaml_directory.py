"""The embedded default directory: one YAML file, validated strictly on load.

WHY strict: this file decides who reads confidential memos.  A typo (``group:`` for ``groups:``,
a bare string instead of a list, the same Slack id on two people) must stop the bot at start-up
with a message naming the file, the user and the field -- not silently grant or drop access.

Format::

    users:
      siti@example.co.id:
        name: Siti Rahma
        groups: [tax-team, finance]
        roles: [tax_team, requester]
        entities: [PT-ABC]
        slack_id: U0123ABCD
        aad_object_id: 6f1c3c8e-2b7a-4d2e-9d55-0c1f1a2b3c4d
        locale: id

Every field except the email key is optional.  The file is single-tenant: tenant ids in look-ups
are ignored here (restrict tenants with ``PrincipalResolver(trusted_tenants=...)``).
"""

from __future__ import annotations

import logging
import re
import uuid
from pathlib import Path
from typing import Any

import yaml

from identity.directory import DirectoryEntry
from identity.errors import DirectoryFormatError
from identity.principal import DEFAULT_LOCALE, ROLES

logger = logging.getLogger(__name__)

USER_FIELDS: frozenset[str] = frozenset(
    {"name", "groups", "roles", "entities", "slack_id", "aad_object_id", "locale"}
)
_EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_SLACK_ID_RE = re.compile(r"^[UW][A-Z0-9]{2,}$")
_LOCALE_RE = re.compile(r"^[a-z]{2,3}([-_][A-Za-z0-9]{2,8})*$")


class _UniqueKeyLoader(yaml.SafeLoader):
    """SafeLoader that rejects duplicate mapping keys (PyYAML keeps the last one silently)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r}", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def normalize_aad_id(value: str) -> str | None:
    """Canonical lower-case hyphenated form of an AAD object id, or None if it is not a UUID."""
    try:
        return str(uuid.UUID(value.strip()))
    except (ValueError, AttributeError):
        return None


class YamlDirectory:
    """Directory read once from a YAML file; look-ups are dictionary hits.

    Args:
        path: The directory file (see module docstring for the format).

    Raises:
        DirectoryFormatError: The file is missing, unparsable, or any user entry is invalid.
    """

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self._by_email: dict[str, DirectoryEntry] = {}
        self._by_slack: dict[str, DirectoryEntry] = {}
        self._by_aad: dict[str, DirectoryEntry] = {}
        self._load()

    def __len__(self) -> int:
        return len(self._by_email)

    def lookup_email(self, email: str) -> DirectoryEntry | None:
        """Entry for ``email`` (case-insensitive), or None."""
        return self._by_email.get(email.strip().lower())

    def lookup_platform_id(self, platform: str, tenant: str, user_id: str) -> DirectoryEntry | None:
        """Entry by Slack user id (``slack``) or AAD object id (``teams``); None for other platforms."""
        if platform == "slack":
            return self._by_slack.get(user_id.strip())
        if platform == "teams":
            aad = normalize_aad_id(user_id)
            return self._by_aad.get(aad) if aad else None
        return None

    # -- loading -----------------------------------------------------------------------------------

    def _error(
        self, message: str, *, user: str | None = None, field: str | None = None
    ) -> DirectoryFormatError:
        return DirectoryFormatError(self.path, message, user=user, field=field)

    def _load(self) -> None:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise self._error(
                "directory file not found; create it or point the config at the right path"
            ) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise self._error(f"cannot read directory file ({type(exc).__name__})") from exc
        try:
            data = yaml.load(text, Loader=_UniqueKeyLoader)  # noqa: S506 -- SafeLoader subclass
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f" at line {mark.line + 1}" if mark is not None else ""
            problem = getattr(exc, "problem", None) or str(exc)
            raise self._error(f"invalid YAML{where}: {problem}") from None
        if not isinstance(data, dict):
            raise self._error("expected a mapping with a top-level 'users' key")
        unknown_top = sorted(str(k) for k in data if k != "users")
        if unknown_top:
            raise self._error(f"unknown top-level keys {unknown_top}; only 'users' is allowed")
        users = data.get("users")
        if users is None:
            users = {}
        if not isinstance(users, dict):
            raise self._error("'users' must be a mapping of email -> user fields", field="users")
        for raw_email, fields in users.items():
            entry = self._parse_user(raw_email, fields)
            self._index(entry, str(raw_email))
        logger.info("users=%d, path=%s | directory loaded", len(self._by_email), self.path.name)

    def _parse_user(self, raw_email: object, fields: object) -> DirectoryEntry:
        if not isinstance(raw_email, str) or not _EMAIL_RE.match(raw_email.strip()):
            raise self._error("user key must be an email address", user=str(raw_email))
        email = raw_email.strip().lower()
        if fields is None:
            fields = {}
        if not isinstance(fields, dict):
            raise self._error(f"user fields must be a mapping, got {type(fields).__name__}", user=raw_email)
        unknown = sorted(str(k) for k in fields if k not in USER_FIELDS)
        if unknown:
            raise self._error(
                f"unknown keys {unknown}; allowed: {', '.join(sorted(USER_FIELDS))}", user=raw_email
            )
        name = fields.get("name", email)
        if not isinstance(name, str) or not name.strip():
            raise self._error("must be a non-empty string", user=raw_email, field="name")
        groups = self._str_list(fields, "groups", raw_email)
        roles = self._str_list(fields, "roles", raw_email)
        bad_roles = sorted(roles - ROLES)
        if bad_roles:
            raise self._error(
                f"unknown roles {bad_roles}; known roles: {', '.join(sorted(ROLES))}",
                user=raw_email,
                field="roles",
            )
        entities = self._str_list(fields, "entities", raw_email)
        locale = fields.get("locale", DEFAULT_LOCALE)
        if not isinstance(locale, str) or not _LOCALE_RE.match(locale):
            raise self._error("must be a language tag such as 'id' or 'en'", user=raw_email, field="locale")
        slack_id = fields.get("slack_id")
        if slack_id is not None and (not isinstance(slack_id, str) or not _SLACK_ID_RE.match(slack_id)):
            raise self._error("must be a Slack user id like 'U0123ABCD'", user=raw_email, field="slack_id")
        aad = fields.get("aad_object_id")
        if aad is not None:
            aad = normalize_aad_id(aad) if isinstance(aad, str) else None
            if aad is None:
                raise self._error(
                    "must be an Entra ID object id (a UUID)", user=raw_email, field="aad_object_id"
                )
        return DirectoryEntry(
            email=email,
            display_name=name.strip(),
            groups=groups,
            roles=roles,
            entities=entities,
            locale=locale,
            slack_id=slack_id,
            aad_object_id=aad,
        )

    def _str_list(self, fields: dict[str, Any], name: str, user: str) -> frozenset[str]:
        value = fields.get(name, [])
        if value is None:
            return frozenset()
        if not isinstance(value, list):
            raise self._error(f"must be a list of strings, got {type(value).__name__}", user=user, field=name)
        for item in value:
            if not isinstance(item, str) or not item.strip():
                raise self._error(f"must contain only non-empty strings, got {item!r}", user=user, field=name)
        return frozenset(item.strip() for item in value)

    def _index(self, entry: DirectoryEntry, user: str) -> None:
        if entry.email in self._by_email:
            raise self._error("duplicate email (keys differ only in case)", user=user)
        self._by_email[entry.email] = entry
        if entry.slack_id is not None:
            other = self._by_slack.get(entry.slack_id)
            if other is not None:
                raise self._error(
                    f"slack_id {entry.slack_id} is already used by {other.email!r}",
                    user=user,
                    field="slack_id",
                )
            self._by_slack[entry.slack_id] = entry
        if entry.aad_object_id is not None:
            other = self._by_aad.get(entry.aad_object_id)
            if other is not None:
                raise self._error(
                    f"aad_object_id is already used by {other.email!r}", user=user, field="aad_object_id"
                )
            self._by_aad[entry.aad_object_id] = entry
