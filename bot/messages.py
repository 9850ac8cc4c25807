"""Channel-neutral messages: what every front end turns its native payload into, and what it renders.

Slack, Teams and the CLI build an ``InboundMessage`` from a *verified* envelope (signature-checked
Slack request, authenticated Bot Framework activity, local CLI user) and render the ``Reply`` that
``bot.turn`` returns.  ``Reply.answer`` is exactly the JSON object of ``dasar ask --json``: the chat
front ends render it, they never run a different pipeline.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from kb.scope import ReaderScope

Platform = Literal["slack", "teams", "cli"]


@dataclass(frozen=True)
class InboundMessage:
    """One user message.

    ``user_id`` and ``tenant`` come from the verified envelope (Slack user + team id, Teams AAD
    object id + tenant id) -- never from the text.  ``audience_groups`` is set for shared
    conversations: the access groups every member of the channel has in common (the answer
    may only use documents open to all of them); None for a DM.  ``audience`` is the same idea as a full
    :class:`kb.scope.ReaderScope` (groups *and* entities common to every member), set by front ends that
    resolve every member (Teams group chats and channels, Slack channels); the turn narrows the asker's
    scope to it and never widens anything.
    """

    platform: Platform
    tenant: str
    user_id: str
    channel: str
    thread_id: str
    message_id: str
    text: str
    is_direct: bool = True
    as_of: dt.date | None = None
    audience_groups: frozenset[str] | None = None
    received_at: dt.datetime | None = None
    audience: ReaderScope | None = None


@dataclass(frozen=True)
class Reply:
    """What a front end renders: the answer object plus routing hints.

    ``answer`` follows the ``dasar ask --json`` contract (``status``, ``answer``, ``claims``,
    ``unsupported_claims``, ``clarifying_questions``, ``conflicts``, ``confidence``, ``as_of``,
    ``corpus_version``, ``escalation``, ``warnings``, ``timings``).  ``private_answer`` is set when
    the asker could see more than the shared channel: offered by DM/ephemeral, never posted publicly.
    ``silent`` is True when nothing should be posted: a rate-limit notice was already given to this person
    in the current window (flood control); ``text`` still holds the notice for callers that print it.
    """

    answer: dict[str, Any]
    text: str
    status: str
    ticket_id: str | None = None
    private_answer: dict[str, Any] | None = None
    reference_id: str = ""
    extras: dict[str, Any] = field(default_factory=dict)
    silent: bool = False


TurnHandler = Callable[[InboundMessage], Reply]


class TurnService(Protocol):
    """What front ends call. Every method takes the *verified* platform identity inside the message."""

    def handle(self, message: InboundMessage) -> Reply:
        """Answer one message (mask -> agent/tools -> verify -> reply or ticket)."""
        ...

    def escalate(self, message: InboundMessage, note: str | None = None) -> Reply:
        """The user asked for the tax team ("Ask the tax team" button): open or update the thread's ticket
        with the evidence of the thread's last answer (reason ``user_request``). Idempotent per thread."""
        ...

    def feedback(self, message: InboundMessage, helpful: bool) -> None:
        """Store helpful / not helpful for the thread's last answer (by the clicking user)."""
        ...
