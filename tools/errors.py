"""Errors of the ``tools`` package.

Tools never raise into the agent loop: a refused or malformed call becomes an error *tool result* the
model can read (and the ledger records).  These exceptions exist for code that builds tools or calls
the helpers directly::

    ToolsError
    ├── ToolInputError       an argument value the schema cannot express is wrong (e.g. not an ISO date)
    ├── ToolAccessDenied     the principal may not do this (fail closed) -- for callers outside the loop
    └── ToolUnavailable      a dependency the tool needs was not wired -- for callers outside the loop
"""

from __future__ import annotations


class ToolsError(Exception):
    """Base of every error raised by :mod:`tools`."""


class ToolInputError(ToolsError):
    """The call's arguments do not match the documented schema; fix the arguments and call again."""


class ToolAccessDenied(ToolsError):
    """The principal of this turn may not perform the action; nothing was read or written."""


class ToolUnavailable(ToolsError):
    """The tool needs a service this turn was built without (e.g. a ticket store); wire it in ToolDeps."""
