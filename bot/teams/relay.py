"""Relaying the tax team's answer (and questions/rejections) back to the asker's original thread.

``Relay`` is the small contract the outbox sender uses; :class:`SlackWebRelay` posts into the Slack
thread through an injected ``slack_sdk.WebClient`` (no Slack import here: the client is duck-typed),
:class:`TeamsChatRelay` posts into a Teams chat through the Bot Connector gateway.  Every message is
labelled as the tax team's, with the responder and date, so the asker never mistakes it for dasar's
own (quoted, KB-grounded) answer.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable, Coroutine
from typing import Any, Protocol, runtime_checkable

from bot.teams import strings as S
from bot.teams.errors import DeliveryError
from tickets.model import ThreadRef

logger = logging.getLogger(__name__)


@runtime_checkable
class Relay(Protocol):
    """Posts into the asker's thread; returns the platform's message id (Slack ts / Teams activity id)."""

    def relay_answer(self, thread: ThreadRef, text: str, responder: str, answered_at: dt.datetime) -> str: ...

    def relay_notice(self, thread: ThreadRef, text: str) -> str: ...


def answer_text(text: str, responder: str, answered_at: dt.datetime) -> str:
    """The labelled answer (mrkdwn-ish; both Slack and Teams render ``*bold*``/``_italic_`` acceptably)."""
    return S.RELAY_ANSWER.format(
        text=text, responder=responder, date=answered_at.astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    )


class SlackWebRelay:
    """Relay through Slack ``chat.postMessage`` into ``thread.channel`` / ``thread.thread_id``.

    Args:
        web_client: a ``slack_sdk.WebClient`` (tests point ``base_url`` at a local mock).
    """

    def __init__(self, web_client: Any) -> None:
        self.client = web_client

    def _post(self, thread: ThreadRef, text: str) -> str:
        blocks = [{"type": "section", "text": {"type": "mrkdwn", "text": text[:2900]}}]
        try:
            resp = self.client.chat_postMessage(
                channel=thread.channel,
                thread_ts=thread.thread_id,
                text=text,
                blocks=blocks,
                unfurl_links=False,
            )
        except Exception as exc:
            raise DeliveryError(f"Slack chat.postMessage failed: {type(exc).__name__}") from exc
        ts = resp.get("ts") if hasattr(resp, "get") else None
        if not ts:
            raise DeliveryError("Slack chat.postMessage returned no message ts")
        logger.info("platform=slack | relayed to thread")
        return str(ts)

    def relay_answer(self, thread: ThreadRef, text: str, responder: str, answered_at: dt.datetime) -> str:
        return self._post(thread, answer_text(text, responder, answered_at))

    def relay_notice(self, thread: ThreadRef, text: str) -> str:
        return self._post(thread, text)


class TeamsChatRelay:
    """Relay into a Teams chat/channel thread (``thread.channel`` is the conversation id).

    Args:
        post_text: coroutine factory ``(conversation_id, text) -> activity id`` (the gateway's ``post``).
        run: runs a coroutine to completion from the sender's thread
            (see :class:`bot.teams.sender.LoopBridge`).
    """

    def __init__(
        self,
        post_text: Callable[[str, str], Coroutine[Any, Any, str]],
        run: Callable[[Coroutine[Any, Any, str]], str],
    ) -> None:
        self.post_text = post_text
        self.run = run

    def relay_answer(self, thread: ThreadRef, text: str, responder: str, answered_at: dt.datetime) -> str:
        return self.run(self.post_text(thread.channel, answer_text(text, responder, answered_at)))

    def relay_notice(self, thread: ThreadRef, text: str) -> str:
        return self.run(self.post_text(thread.channel, text))


class TeamsChannelNotifier:
    """:class:`bot.faq.Notifier` that posts FAQ owner reminders into the tax-team channel."""

    def __init__(
        self,
        post_text: Callable[[str, str], Coroutine[Any, Any, str]],
        run: Callable[[Coroutine[Any, Any, str]], str],
        conversation_id: str,
    ) -> None:
        self.post_text = post_text
        self.run = run
        self.conversation_id = conversation_id

    def remind_owner(self, doc: Any, text: str) -> None:
        self.run(self.post_text(self.conversation_id, text))
