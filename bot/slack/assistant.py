"""Slack AI-app conventions: assistant threads (agent view) and the ``feedback_buttons`` handler.

* ``assistant_thread_started`` -> suggested prompts in Indonesian and English
  (``assistant.threads.setSuggestedPrompts``).
* While a question is being answered in an assistant thread: a status ("Mencari di peraturan…",
  ``assistant.threads.setStatus``; Slack clears it when our reply is posted) and, for the first
  question of a thread, its title (``assistant.threads.setTitle``, the question's first words).
  :func:`register_assistant` does this in a middleware for user messages in DM threads (the answer
  itself still comes from the front end's message listener); :func:`searching` is the same call for
  other paths.  Outside assistant threads Slack refuses these calls, which is logged and ignored.
  The middleware runs before the ack, so its calls go through :func:`status_client`: one attempt with a
  short timeout, never the retry handlers (a 429 with ``Retry-After: 30`` would hold the ack 30 s).
* ``feedback_buttons`` clicks (:data:`bot.slack.render.ACTION_FEEDBACK`) -> one
  :class:`tickets.model.Feedback` row in the ticket store (clicking user from the verified request,
  answer reference / status / confidence band / corpus version from the button value), and the
  existing ``TurnService.feedback`` audit record when a turn service is given.

Why no streaming (``chat.startStream``): dasar posts an answer only after every claim passed
verification; streaming would show text before it is verified.

Every handler takes its client and dependencies as arguments (no globals), so tests call them with
a stand-in client; :func:`register_assistant` attaches them to a bolt ``App``.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.messages import InboundMessage, TurnService
from bot.slack import render
from bot.slack.strings import SUGGESTED_PROMPTS, answer_language, normalize_language, t
from identity.hashing import log_hash
from tickets.model import Feedback
from tickets.protocol import FeedbackStore

logger = logging.getLogger(__name__)

TITLE_CHARS = 60
_MENTION = re.compile(r"<[@#!][^>]*>")
#: The Web API methods this module calls (the manifest test derives scopes from them).
WEB_API_METHODS = (
    "assistant.threads.setSuggestedPrompts",
    "assistant.threads.setStatus",
    "assistant.threads.setTitle",
    "chat.postEphemeral",
)


def mask_comment(text: str) -> str | None:
    """A feedback comment as it may be stored: PII masked, None when empty or when it holds a secret."""
    from guardrails.inbound import inspect
    from guardrails.pii import MaskingSession

    if not text.strip():
        return None
    inspection = inspect(text, MaskingSession())
    return None if inspection.refused else inspection.masked.strip() or None


@dataclass(frozen=True)
class AssistantDeps:
    """What the handlers need.

    Args:
        feedback_store: where verdicts go (the ticket store); None -> feedback is only audited.
        turn: optional turn service; its ``feedback`` keeps the audit record of each click.
        mask: comment masking (PII) before storage.
        clock: current time (logs only; the store stamps its own time).
        titled: threads already titled.
        dedupe: the front end's deduper, so a repeated click (same user, message, verdict) is audited
            and thanked once across replicas; the store itself is idempotent (latest verdict wins).
    """

    feedback_store: FeedbackStore | None = None
    turn: TurnService | None = None
    mask: Callable[[str], str | None] = mask_comment
    clock: Callable[[], dt.datetime] = lambda: dt.datetime.now(dt.UTC)
    titled: SeenKeys = field(default_factory=lambda: SeenKeys())
    #: Claims click keys (the front end's Deduper: ``claim(key) -> bool``); default: in-process keys.
    dedupe: Any = None
    _clicks: SeenKeys = field(default_factory=lambda: SeenKeys())


class SeenKeys:
    """Keys this process has seen (bounded): titled threads, thanked clicks.  A restart forgets them."""

    def __init__(self, limit: int = 10_000) -> None:
        self._seen: OrderedDict[str, None] = OrderedDict()
        self._limit = limit
        self._lock = threading.Lock()

    def first(self, key: str) -> bool:
        """True the first time ``key`` is seen."""
        with self._lock:
            if key in self._seen:
                self._seen.move_to_end(key)
                return False
            self._seen[key] = None
            while len(self._seen) > self._limit:
                self._seen.popitem(last=False)
            return True


# -- assistant threads ----------------------------------------------------------------------------


def suggested_prompts() -> list[dict[str, str]]:
    """The ``prompts`` argument of ``assistant.threads.setSuggestedPrompts`` (at most 4)."""
    return [{"title": title, "message": message} for title, message in SUGGESTED_PROMPTS[:4]]


def handle_thread_started(event: Mapping[str, Any], client: Any, language: str = "id") -> bool:
    """``assistant_thread_started``: offer the suggested prompts. False when Slack refused."""
    thread = event.get("assistant_thread") or {}
    channel, thread_ts = thread.get("channel_id"), thread.get("thread_ts")
    if not channel or not thread_ts:
        logger.warning("event=assistant_thread_started | no channel/thread in the event, ignored")
        return False
    try:
        client.assistant_threads_setSuggestedPrompts(
            channel_id=channel,
            thread_ts=thread_ts,
            title=t("assistant.prompts_title", language),
            prompts=suggested_prompts(),
        )
        return True
    except Exception as exc:
        logger.warning("channel=%s, error=%s | could not set suggested prompts", channel, type(exc).__name__)
        return False


def thread_title(question: str, language: str) -> str:
    """The assistant thread title: the question's first words (at most :data:`TITLE_CHARS`)."""
    words = " ".join(_MENTION.sub(" ", question).split())
    if not words:
        return t("assistant.untitled", language)
    return render.clip(words, TITLE_CHARS)


def searching(
    client: Any, *, channel: str, thread_ts: str, question: str, language: str, set_title: bool = True
) -> bool:
    """Status "Mencari di peraturan…" (and the title) of an assistant thread while the turn runs.

    Returns False (and logs) when Slack refuses, e.g. for a DM thread that is not an assistant thread.
    """
    language = normalize_language(language)
    try:
        client.assistant_threads_setStatus(
            channel_id=channel,
            thread_ts=thread_ts,
            status=t("assistant.status", language),
            loading_messages=[
                t("assistant.status", language),
                t("assistant.loading_1", language),
                t("assistant.loading_2", language),
            ],
        )
        if set_title:
            client.assistant_threads_setTitle(
                channel_id=channel, thread_ts=thread_ts, title=thread_title(question, language)
            )
        return True
    except Exception as exc:
        logger.info("channel=%s, error=%s | assistant status not set", channel, type(exc).__name__)
        return False


def clear_status(client: Any, *, channel: str, thread_ts: str) -> None:
    """Clear the status (after an error path that posts nothing in the thread)."""
    try:
        client.assistant_threads_setStatus(channel_id=channel, thread_ts=thread_ts, status="")
    except Exception as exc:
        logger.info("channel=%s, error=%s | assistant status not cleared", channel, type(exc).__name__)


def is_assistant_question(event: Mapping[str, Any]) -> bool:
    """A user's message in a DM thread (where assistant threads live): a question about to be answered."""
    return (
        event.get("type") == "message"
        and event.get("channel_type") == "im"
        and bool(event.get("thread_ts"))
        and bool(event.get("user"))
        and not event.get("subtype")
        and not event.get("bot_id")
    )


STATUS_TIMEOUT_S = 1
"""Socket timeout of the pre-ack status calls (the ack must reach Slack within 3 s)."""


def status_client(client: Any) -> Any:
    """A copy of the request's ``WebClient`` for calls made before the ack: one attempt, at most
    :data:`STATUS_TIMEOUT_S` per socket operation, no retries (failures are still counted in metrics)."""
    from slack_sdk import WebClient

    from bot.slack.client import ErrorObserver

    if not isinstance(client, WebClient):
        return client  # a test double
    return WebClient(
        token=client.token,
        base_url=client.base_url,
        timeout=STATUS_TIMEOUT_S,
        ssl=client.ssl,
        proxy=client.proxy,
        headers=client.headers,
        logger=client.logger,
        retry_handlers=[ErrorObserver()],
    )


def on_question_event(body: Mapping[str, Any], client: Any, deps: AssistantDeps) -> bool:
    """Status (and first-question title) for a question in an assistant thread; False if not one."""
    event = body.get("event") or {}
    if body.get("type") != "event_callback" or not is_assistant_question(event):
        return False
    text = str(event.get("text") or "")
    channel, thread_ts = str(event.get("channel") or ""), str(event["thread_ts"])
    team = str(body.get("team_id") or "")
    return searching(
        client,
        channel=channel,
        thread_ts=thread_ts,
        question=text,
        language=answer_language({}, text) if text.strip() else "id",
        set_title=deps.titled.first(f"{team}:{channel}:{thread_ts}"),
    )


# -- feedback ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FeedbackClick:
    """A parsed ``feedback_buttons`` click."""

    team: str
    user: str
    channel: str
    message_ts: str
    thread_ts: str
    reference: str
    verdict: str
    status: str
    band: str
    corpus_version: str
    language: str


def parse_feedback_click(body: Mapping[str, Any], team: str, user: str) -> FeedbackClick | None:
    """The click in ``body`` (block_actions) by the verified ``team``/``user``; None if not ours/invalid."""
    action = next(
        (a for a in body.get("actions") or [] if a.get("action_id") == render.ACTION_FEEDBACK),
        None,
    )
    if action is None:
        return None
    try:
        value = json.loads(action.get("value") or "{}")
    except ValueError:
        return None
    if not isinstance(value, dict) or value.get("v") not in (render.FEEDBACK_UP, render.FEEDBACK_DOWN):
        return None
    reference = str(value.get("r") or "")
    if not reference or not user:
        return None
    container = body.get("container") or {}
    message = body.get("message") or {}
    channel = str((body.get("channel") or {}).get("id") or container.get("channel_id") or "")
    message_ts = str(container.get("message_ts") or message.get("ts") or "")
    return FeedbackClick(
        team=team,
        user=user,
        channel=channel,
        message_ts=message_ts,
        thread_ts=str(value.get("t") or message.get("thread_ts") or message_ts),
        reference=reference,
        verdict="helpful" if value["v"] == render.FEEDBACK_UP else "not_helpful",
        status=str(value.get("s") or ""),
        band=str(value.get("b") or ""),
        corpus_version=str(value.get("c") or ""),
        language=normalize_language(value.get("l") or "id"),
    )


def handle_feedback(
    body: Mapping[str, Any], client: Any, deps: AssistantDeps, *, team: str, user: str, comment: str = ""
) -> Feedback | None:
    """Store one feedback click and thank the user (ephemeral). Returns the stored record (or None)."""
    click = parse_feedback_click(body, team, user)
    if click is None:
        logger.warning("team=%s | feedback click without a valid value, ignored", team)
        return None
    stored: Feedback | None = None
    if deps.feedback_store is not None:
        stored = deps.feedback_store.record_feedback(
            Feedback(
                answer_ref=click.reference,
                user_id=click.user,
                platform="slack",
                tenant=click.team,
                corpus_version=click.corpus_version,
                answer_status=click.status,
                confidence_band=click.band,
                verdict=click.verdict,
                comment_masked=deps.mask(comment) if comment else None,
            )
        )
    key = f"feedback:{click.team}:{click.user}:{click.channel}:{click.message_ts}:{click.verdict}"
    first = deps.dedupe.claim(key) if deps.dedupe is not None else deps._clicks.first(key)
    if not first:
        logger.info("ref=%s | repeated feedback click: stored, not audited or thanked again", click.reference)
        return stored
    if deps.turn is not None:
        deps.turn.feedback(
            InboundMessage(
                platform="slack",
                tenant=click.team,
                user_id=click.user,
                channel=click.channel,
                thread_id=click.thread_ts,
                message_id=click.message_ts,
                text="",
                is_direct=click.channel.startswith("D"),
                received_at=deps.clock(),
            ),
            click.verdict == "helpful",
        )
    logger.info(
        "ref=%s, user_hash=%s, verdict=%s | feedback recorded",
        click.reference,
        log_hash(click.user),
        click.verdict,
    )
    if click.channel:
        try:
            client.chat_postEphemeral(
                channel=click.channel,
                user=click.user,
                thread_ts=click.thread_ts,
                text=t("feedback_thanks", click.language),
            )
        except Exception as exc:
            logger.warning(
                "channel=%s, error=%s | feedback thanks not sent", click.channel, type(exc).__name__
            )
    return stored


# -- bolt wiring ---------------------------------------------------------------------------------


def register_assistant(app: Any, deps: AssistantDeps) -> None:
    """Attach the assistant-thread and feedback listeners to a bolt ``App``."""

    def on_thread_started(event: dict[str, Any], client: Any) -> None:
        handle_thread_started(event, client)

    def on_context_changed(event: dict[str, Any]) -> None:
        return None  # dasar answers from its own knowledge base; the viewed channel is not used

    def ack_now(ack: Any) -> None:
        ack()

    def status_middleware(body: dict[str, Any], client: Any, next: Callable[[], Any]) -> Any:
        try:
            on_question_event(body, status_client(client), deps)  # before the ack: bounded, no retries
        except Exception:
            logger.exception("assistant status middleware failed; answering anyway")
        return next()

    def on_feedback(body: dict[str, Any], context: Any, client: Any) -> None:
        team = str(getattr(context, "team_id", None) or (body.get("team") or {}).get("id") or "")
        user = str(getattr(context, "user_id", None) or (body.get("user") or {}).get("id") or "")
        try:
            handle_feedback(body, client, deps, team=team, user=user)
        except Exception:
            logger.exception("team=%s, user_hash=%s | feedback failed", team, log_hash(user))

    app.middleware(status_middleware)
    # ack in the request thread, the Slack calls in the answer pool (see bot.slack.app)
    app.event("assistant_thread_started")(ack=ack_now, lazy=[on_thread_started])
    app.event("assistant_thread_context_changed")(on_context_changed)
    app.action(render.ACTION_FEEDBACK)(ack=ack_now, lazy=[on_feedback])
