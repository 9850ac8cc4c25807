"""Errors of the Slack front end.

Tree::

    SlackFrontEndError
    +-- SlackConfigError        a token / secret / setting is missing or malformed (start-up)
    +-- SlackBackendError       the dedupe / rate-limit / thread-state backend (Redis) failed
"""

from __future__ import annotations


class SlackFrontEndError(Exception):
    """Base class of every error raised by :mod:`bot.slack`."""


class SlackConfigError(SlackFrontEndError):
    """The Slack front end cannot start; the message names the variable to set."""


class SlackBackendError(SlackFrontEndError):
    """A state backend (Redis) failed; callers decide whether to fail open or closed."""
