"""Errors raised while resolving who is asking.

Identity failures must never widen access: every caller that catches one of these falls back to a
guest principal (fail closed).  Messages name the file, user key or field an operator has to fix,
and never contain a raw email or platform user id from a request::

    IdentityError
    ├── DirectoryError             the directory answered something we cannot use
    │   ├── DirectoryUnavailable   timeout, connection error, HTTP 5xx/429, Slack API failure
    │   └── DirectoryFormatError   malformed directory.yaml or SCIM payload, ambiguous match
    └── PrincipalCacheError        the principal cache (e.g. Redis) failed; treated as a cache miss
"""

from __future__ import annotations

from pathlib import Path


class IdentityError(Exception):
    """Base of every identity error."""


class DirectoryError(IdentityError):
    """The directory could not give a trustworthy answer."""


class DirectoryUnavailable(DirectoryError):
    """The directory (or Slack's users.info) could not be reached in time; retrying later may work."""


class DirectoryFormatError(DirectoryError):
    """Directory data is malformed; carries ``path``, ``user`` and ``field`` when known.

    Args:
        source: File path or directory URL the bad data came from.
        message: What is wrong and how to fix it.
        user: Key of the offending user entry (an email from the *directory file*, not a request).
        field: Offending field name.
    """

    def __init__(
        self, source: Path | str, message: str, *, user: str | None = None, field: str | None = None
    ):
        self.source = str(source)
        self.user = user
        self.field = field
        self.message = message
        where = self.source
        if user is not None:
            where += f": user {user!r}"
        if field is not None:
            where += f": field {field!r}"
        super().__init__(f"{where}: {message}")


class PrincipalCacheError(IdentityError):
    """The principal cache backend failed; the resolver treats this as a miss."""
