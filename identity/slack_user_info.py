"""Email of a Slack user, asked of Slack itself (``users.info``), never of the message.

WHY: a Slack user id that is not (yet) in the directory can still be matched by the email Slack
has on file for them -- Slack confirms that address when the member joins, and it reaches us over
our own authenticated API call, not through anything the user typed.  Needs the
``users:read.email`` scope.

The adapter takes any object with ``users_info(user=...)`` (a ``slack_sdk.WebClient``) and does not
import ``slack_sdk``, so this package stays importable without the Slack extra.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from identity.errors import DirectoryUnavailable
from identity.hashing import log_hash

logger = logging.getLogger(__name__)

#: Slack API errors that mean "this user has no usable email", not "Slack is down".
NOT_FOUND_ERRORS = frozenset({"user_not_found", "user_not_visible", "users_not_found", "account_inactive"})


@runtime_checkable
class SlackUserInfo(Protocol):
    """Slack's view of a user; may raise :class:`~identity.errors.DirectoryUnavailable`."""

    def email_for(self, user_id: str) -> str | None:
        """Email Slack holds for ``user_id``, or None (unknown, deleted, bot, no email scope)."""
        ...


class SlackWebClientUserInfo:
    """:class:`SlackUserInfo` over a ``slack_sdk.WebClient`` (or anything with ``users_info``).

    Args:
        client: Object whose ``users_info(user=...)`` returns a mapping-like Slack response.
    """

    def __init__(self, client: Any):
        self._client = client

    def email_for(self, user_id: str) -> str | None:
        """Call ``users.info`` and read ``user.profile.email``.

        Raises:
            DirectoryUnavailable: Network failure, rate limit or any Slack error other than "user not
                found" -- we cannot tell who this is, so the resolver fails closed.
        """
        try:
            response = self._client.users_info(user=user_id)
        except Exception as exc:
            error = _slack_error_code(exc)
            if error in NOT_FOUND_ERRORS:
                return None
            logger.warning(
                "user_hash=%s, error=%s, slack_error=%s | slack users.info failed",
                log_hash(user_id),
                type(exc).__name__,
                error,
            )
            raise DirectoryUnavailable(
                f"Slack users.info failed ({error or type(exc).__name__}); retry later"
            ) from exc
        data = getattr(response, "data", response)
        if not isinstance(data, Mapping):
            raise DirectoryUnavailable("Slack users.info returned an unexpected payload")
        if data.get("ok") is False:
            if data.get("error") in NOT_FOUND_ERRORS:
                return None
            raise DirectoryUnavailable(f"Slack users.info failed ({data.get('error')}); retry later")
        user = data.get("user")
        if not isinstance(user, Mapping) or user.get("deleted") or user.get("is_bot"):
            return None
        profile = user.get("profile")
        email = profile.get("email") if isinstance(profile, Mapping) else None
        if not isinstance(email, str) or "@" not in email:
            return None
        return email.strip().lower()


def _slack_error_code(exc: BaseException) -> str | None:
    """The ``error`` field of a ``SlackApiError``'s response, found by duck typing."""
    response = getattr(exc, "response", None)
    if response is None:
        return None
    try:
        code = response["error"]
    except (KeyError, TypeError, AttributeError):
        return None
    return code if isinstance(code, str) else None
