"""The Slack listeners: from a verified delivery to a posted, threaded answer -- exactly once.

Flow of a question (a lazy listener in the answer pool, *after* the ack was sent; acks run in the request
thread and never wait for that pool, see :mod:`bot.slack.app`)::

    delivery --(global middleware: claim event id / action id; retries and re-deliveries stop here)-->
    trigger? (DM | app_mention | reply in a thread the bot answered in) --> claim the message (channel, ts)
    --> per-user rate limit --> working reaction on --> audience groups (channels only)
    --> TurnService.handle(InboundMessage) --> Block Kit in the thread (+ ephemeral full answer)
    --> working reaction off

Errors never go silent: any exception becomes a short apology with a reference id in the thread
(or, for a button, to the clicking user) and a full operator log carrying the same id.  Logs hold
ids and hashes only, never message text.

Identity: ``tenant``/``user_id`` come from bolt's context, i.e. from the signature-verified request
(HTTP) or the authenticated Socket Mode connection -- for buttons, the *clicking* user, never the
original asker.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
import re
import threading
import time
from collections import Counter
from collections.abc import Mapping
from typing import Any

from bot import metrics
from bot.messages import InboundMessage, Reply, TurnService
from bot.slack import render
from bot.slack.audience import ChannelAudience
from bot.slack.dedupe import Deduper
from bot.slack.errors import SlackBackendError
from bot.slack.ratelimit import NoticeGate, RateDecision, RateLimiter
from bot.slack.state import ThreadState
from bot.slack.strings import answer_language, normalize_language, t
from identity.hashing import log_hash

logger = logging.getLogger(__name__)

WORKING_REACTION = "hourglass_flowing_sand"
RECEIVED_KEY = "dasar_received_monotonic"
"""Context key: ``time.monotonic()`` when the delivery arrived (bolt copies it into lazy listeners)."""
_MENTION = re.compile(r"<@[A-Z0-9]+(?:\|[^>]*)?>")


def reference_for(*parts: str) -> str:
    """Deterministic short reference id (``SLK-`` + 10 hex) for the user and the operator log."""
    return "SLK-" + hashlib.sha256(":".join(parts).encode()).hexdigest()[:10]


def delivery_key(body: Mapping[str, Any]) -> str | None:
    """Dedupe key of one Slack delivery: the event id for Events API callbacks (HTTP or Socket Mode:
    a retry keeps its ``event_id``), the clicking user + action timestamp for button clicks."""
    kind = body.get("type")
    team = (
        body.get("team_id")
        or (body.get("team") or {}).get("id")
        or (body.get("user") or {}).get("team_id")
        or ""
    )
    if kind == "event_callback" and body.get("event_id"):
        return f"event:{team}:{body['event_id']}"
    if kind == "block_actions":
        user = (body.get("user") or {}).get("id", "")
        actions = body.get("actions") or []
        if actions:
            action = actions[0]
            return f"action:{team}:{user}:{action.get('action_id', '')}:{action.get('action_ts', '')}"
    return None


def strip_mentions(text: str) -> str:
    """The question without ``<@U123>`` mention tokens."""
    return " ".join(_MENTION.sub(" ", text).split())


class SlackListeners:
    """Registers and implements the listeners of one bolt ``App``.

    Args:
        turn: The channel-neutral turn service.
        dedupe: Claims delivery / message / button keys.
        limiter: Per-user rate limiter.
        state: Threads the bot answered in and "show more" pages.
        audience: Shared-channel audience groups.
    """

    def __init__(
        self,
        turn: TurnService,
        *,
        dedupe: Deduper,
        limiter: RateLimiter,
        state: ThreadState,
        audience: ChannelAudience,
    ):
        self.turn = turn
        self.dedupe = dedupe
        self.limiter = limiter
        self.state = state
        self.audience = audience
        self.notices = NoticeGate()
        self.stats: Counter[str] = Counter()
        self._stats_lock = threading.Lock()

    # -- registration ------------------------------------------------------------------------------

    def register(self, app: Any) -> None:
        """Attach the middleware and listeners to a bolt ``App``.

        Every listener is ``ack`` + lazy: the ack runs in the request thread (the app uses
        ``process_before_response=True``), the work in the answer pool, so a busy pool never delays an
        ack past Slack's 3 s.
        """
        app.middleware(self._dedupe_middleware)
        app.event("app_mention")(ack=_ack, lazy=[self._on_mention])
        app.event("message")(ack=_ack, lazy=[self._on_message])
        for action_id, handler in (
            (render.ACTION_HELPFUL, self._on_helpful),
            (render.ACTION_NOT_HELPFUL, self._on_not_helpful),
            (render.ACTION_ESCALATE, self._on_escalate),
            (render.ACTION_SHOW_MORE, self._on_show_more),
            (re.compile("^" + re.escape(render.ACTION_CLARIFY_PREFIX)), self._on_clarify),
        ):
            app.action(action_id)(ack=_ack, lazy=[handler])

    def _count(self, name: str) -> None:
        with self._stats_lock:
            self.stats[name] += 1

    def _claim(self, key: str) -> bool:
        try:
            return self.dedupe.claim(key)
        except SlackBackendError as exc:
            # Fail open: answering twice is better than never answering.
            logger.warning(
                "key_hash=%s, error=%s | dedupe backend failed, processing anyway", log_hash(key), exc
            )
            return True

    # -- middleware --------------------------------------------------------------------------------

    def _dedupe_middleware(self, body: dict[str, Any], context: Any, next: Any) -> Any:
        from slack_bolt import BoltResponse  # lazy: this module stays importable without bolt

        context[RECEIVED_KEY] = time.monotonic()
        key = delivery_key(body)
        if key is not None:
            self._count("deliveries")
            if not self._claim(key):
                self._count("duplicates_dropped")
                logger.info("key_hash=%s | duplicate delivery acked and dropped", log_hash(key))
                return BoltResponse(status=200, body="")
        return next()

    # -- events ------------------------------------------------------------------------------------

    def _on_mention(self, event: dict[str, Any], context: Any, client: Any) -> None:
        channel, ts = event.get("channel", ""), event.get("ts", "")
        self._answer(
            client,
            team=_team(context, event),
            user=event.get("user") or context.user_id,
            channel=channel,
            ts=ts,
            thread_ts=event.get("thread_ts") or ts,
            text=strip_mentions(event.get("text") or ""),
            is_direct=False,
            bot_user_id=context.bot_user_id,
            received=context.get(RECEIVED_KEY),
        )

    def _on_message(self, event: dict[str, Any], context: Any, client: Any) -> None:
        if event.get("subtype") or event.get("bot_id") or not event.get("user"):
            return  # edits, joins, bot posts: not questions
        channel, ts = event.get("channel", ""), event.get("ts", "")
        team = _team(context, event)
        text = event.get("text") or ""
        if event.get("channel_type") == "im":
            self._answer(
                client,
                team=team,
                user=event["user"],
                channel=channel,
                ts=ts,
                thread_ts=event.get("thread_ts") or ts,
                text=strip_mentions(text),
                is_direct=True,
                bot_user_id=context.bot_user_id,
                received=context.get(RECEIVED_KEY),
            )
            return
        thread_ts = event.get("thread_ts")
        if not thread_ts or thread_ts == ts:
            return  # a top-level channel message without a mention is not for us
        bot = context.bot_user_id
        if bot and f"<@{bot}" in text:
            return  # the app_mention event for this message answers it
        if not self._in_bot_thread(team, channel, thread_ts):
            return
        self._answer(
            client,
            team=team,
            user=event["user"],
            channel=channel,
            ts=ts,
            thread_ts=thread_ts,
            text=strip_mentions(text),
            is_direct=False,
            bot_user_id=bot,
            received=context.get(RECEIVED_KEY),
        )

    def _in_bot_thread(self, team: str, channel: str, thread_ts: str) -> bool:
        try:
            return self.state.in_bot_thread(team, channel, thread_ts)
        except SlackBackendError as exc:
            logger.warning(
                "channel=%s, error=%s | thread state unavailable, ignoring follow-up", channel, exc
            )
            return False

    # -- the question path -------------------------------------------------------------------------

    def _answer(
        self,
        client: Any,
        *,
        team: str,
        user: str,
        channel: str,
        ts: str,
        thread_ts: str,
        text: str,
        is_direct: bool,
        bot_user_id: str | None,
        react: bool = True,
        received: float | None = None,
    ) -> None:
        """Claim the message, rate-limit, run the turn, post the reply (or an apology).

        ``received``: ``time.monotonic()`` at delivery, for the answer latency metric (default: now).
        """
        started = received if received is not None else time.monotonic()
        if not self._claim(f"msg:{team}:{channel}:{ts}"):
            self._count("duplicate_messages")
            return
        ref = reference_for(team, channel, ts)
        try:
            decision = self.limiter.hit(f"{team}:{user}")
        except SlackBackendError as exc:  # a limiter without fallback: fail open, never drop the question
            logger.warning("ref=%s, error=%s | rate limiter unavailable, not limiting", ref, exc)
            decision = RateDecision(allowed=True)
        if not decision.allowed:
            self._count("rate_limited")
            metrics.record_turn("slack", "rate_limited")
            window = float(getattr(self.limiter, "window_seconds", decision.retry_after_seconds))
            if not self.notices.should_notify(f"{team}:{user}", window):
                self._count("notices_suppressed")  # flood control: one notice per user per window
                logger.info("ref=%s, user_hash=%s | rate limited, notice already given", ref, log_hash(user))
                return
            logger.info(
                "ref=%s, user_hash=%s, retry_after=%d | rate limited",
                ref,
                log_hash(user),
                decision.retry_after_seconds,
            )
            notice = render.render_notice(
                t("rate_limited", _lang(text), seconds=decision.retry_after_seconds)
            )
            self._post(client, channel, thread_ts, notice)
            return
        self._count("turns")
        reacted = react and self._reaction(client, "add", channel, ts)
        try:
            audience = (
                None
                if is_direct
                else self.audience.scope(team, channel, exclude=[bot_user_id] if bot_user_id else [])
            )
            message = InboundMessage(
                platform="slack",
                tenant=team,
                user_id=user,
                channel=channel,
                thread_id=thread_ts,
                message_id=ts,
                text=text,
                is_direct=is_direct,
                audience_groups=audience.groups if audience is not None else None,
                audience=audience,
                received_at=dt.datetime.now(dt.UTC),
            )
            reply = self.turn.handle(message)
            if reply.silent:  # the turn already told this person to slow down in this window
                self._count("notices_suppressed")
                metrics.record_turn("slack", reply.status or "rate_limited")
                return
            self._post_reply(
                client,
                reply,
                team=team,
                user=user,
                channel=channel,
                thread_ts=thread_ts,
                question=text,
                is_direct=is_direct,
                ref=ref,
            )
            metrics.record_reply("slack", reply, time.monotonic() - started)
            logger.info(
                "ref=%s, channel=%s, user_hash=%s, status=%s, direct=%s | answer posted",
                ref,
                channel,
                log_hash(user),
                reply.status,
                is_direct,
            )
        except Exception:
            self._count("errors")
            metrics.record_turn("slack", "error", time.monotonic() - started)
            logger.exception(
                "ref=%s, channel=%s, ts=%s, user_hash=%s | turn failed", ref, channel, ts, log_hash(user)
            )
            self._post(
                client, channel, thread_ts, render.render_notice(t("error_apology", _lang(text), ref=ref))
            )
        finally:
            if reacted:
                self._reaction(client, "remove", channel, ts)

    def _post_reply(
        self,
        client: Any,
        reply: Reply,
        *,
        team: str,
        user: str,
        channel: str,
        thread_ts: str,
        question: str,
        is_direct: bool,
        ref: str,
    ) -> None:
        language = answer_language(reply.answer, question)
        reference = reply.reference_id or ref
        rendered = render.render_reply(reply, language=language, thread_ts=thread_ts, reference=reference)
        for i, page in enumerate(rendered.pages, start=1):
            self.state.put_page(f"{reference}:{i}", page)
        if not is_direct:
            # before the post: a follow-up sent the moment the answer shows is already in a bot thread
            self.state.remember_thread(team, channel, thread_ts)
        self._post(client, channel, thread_ts, rendered)
        self._count("answers_posted")
        if not is_direct:
            for private in render.render_private(
                reply, language=language, thread_ts=thread_ts, reference=reference
            ):
                client.chat_postEphemeral(
                    channel=channel, user=user, thread_ts=thread_ts, text=private.text, blocks=private.blocks
                )
                self._count("private_posted")

    # -- buttons -----------------------------------------------------------------------------------

    def _on_helpful(self, body: dict[str, Any], context: Any, client: Any) -> None:
        self._feedback(body, context, client, helpful=True)

    def _on_not_helpful(self, body: dict[str, Any], context: Any, client: Any) -> None:
        self._feedback(body, context, client, helpful=False)

    def _feedback(self, body: dict[str, Any], context: Any, client: Any, *, helpful: bool) -> None:
        click = _Click.of(body, context)
        key = f"feedback:{click.team}:{click.user}:{click.channel}:{click.message_ts}:{int(helpful)}"
        if not self._claim(key):
            self._count("duplicate_clicks")
            return
        try:
            self.turn.feedback(click.message(), helpful)
            self._count("feedback")
            logger.info(
                "channel=%s, user_hash=%s, helpful=%s | feedback stored",
                click.channel,
                log_hash(click.user),
                helpful,
            )
            self._ephemeral(client, click, render.render_notice(t("feedback_thanks", click.language)))
        except Exception:
            self._button_failed(client, click, "feedback")

    def _on_escalate(self, body: dict[str, Any], context: Any, client: Any) -> None:
        click = _Click.of(body, context)
        try:
            reply = self.turn.escalate(click.message(), None)
            metrics.record_turn("slack", reply.status)
            ticket = reply.ticket_id or (reply.answer.get("escalation") or {}).get("ticket_id")
            language = answer_language(reply.answer) if reply.answer.get("language") else click.language
            if not ticket:
                # e.g. the clicking user may not escalate: tell them (only them) what the turn said.
                rendered = render.render_answer(
                    reply.answer,
                    language=language,
                    thread_ts=click.thread_ts,
                    reference=reply.reference_id or click.ref,
                    fallback_text=reply.text,
                    with_actions=False,
                )
                self._ephemeral(client, click, rendered)
                return
            if self._claim(f"escalated:{click.team}:{click.channel}:{click.thread_ts}"):
                self._count("escalations")
                self._post(
                    client,
                    click.channel,
                    click.thread_ts,
                    render.render_notice(t("escalate_confirmed", language, ticket=render.escape(ticket))),
                )
                logger.info(
                    "channel=%s, user_hash=%s, ticket=%s | escalated",
                    click.channel,
                    log_hash(click.user),
                    ticket,
                )
            else:
                self._ephemeral(
                    client,
                    click,
                    render.render_notice(t("escalate_already", language, ticket=render.escape(ticket))),
                )
        except Exception:
            metrics.record_turn("slack", "error")
            self._button_failed(client, click, "escalate")

    def _on_show_more(self, body: dict[str, Any], context: Any, client: Any) -> None:
        click = _Click.of(body, context)
        key = click.ref
        try:
            page = self.state.get_page(key)
            if page is None:
                self._ephemeral(client, click, render.render_notice(t("show_more_expired", click.language)))
                return
            client.chat_postMessage(
                channel=click.channel,
                thread_ts=click.thread_ts,
                text=t("button.show_more", click.language),
                blocks=page,
                unfurl_links=False,
            )
        except Exception:
            self._button_failed(client, click, "show_more")

    def _on_clarify(self, body: dict[str, Any], context: Any, client: Any, action: dict[str, Any]) -> None:
        click = _Click.of(body, context)
        option = str(click.value.get("option", ""))
        if not option or not self._claim(
            f"clarify:{click.team}:{click.user}:{click.message_ts}:{action.get('action_id', '')}"
        ):
            return
        self._answer(
            client,
            team=click.team,
            user=click.user,
            channel=click.channel,
            ts=str(action.get("action_ts") or click.message_ts),
            thread_ts=click.thread_ts,
            text=option,
            is_direct=click.is_direct,
            bot_user_id=context.bot_user_id,
            react=False,
            received=context.get(RECEIVED_KEY),
        )

    # -- Slack calls -------------------------------------------------------------------------------

    def _button_failed(self, client: Any, click: _Click, what: str) -> None:
        self._count("errors")
        ref = reference_for(click.team, click.channel, click.message_ts, click.user, what)
        logger.exception(
            "ref=%s, action=%s, channel=%s, user_hash=%s | button action failed",
            ref,
            what,
            click.channel,
            log_hash(click.user),
        )
        try:
            self._ephemeral(client, click, render.render_notice(t("error_apology", click.language, ref=ref)))
        except Exception:
            logger.exception("ref=%s | could not deliver the apology", ref)

    @staticmethod
    def _post(client: Any, channel: str, thread_ts: str, message: render.RenderedMessage) -> None:
        try:
            client.chat_postMessage(
                channel=channel,
                thread_ts=thread_ts,
                text=message.text,
                blocks=message.blocks,
                unfurl_links=False,
                unfurl_media=False,
            )
        except Exception:
            logger.exception("channel=%s, thread=%s | chat.postMessage failed", channel, thread_ts)
            raise

    @staticmethod
    def _ephemeral(client: Any, click: _Click, message: render.RenderedMessage) -> None:
        client.chat_postEphemeral(
            channel=click.channel,
            user=click.user,
            thread_ts=click.thread_ts,
            text=message.text,
            blocks=message.blocks,
        )

    @staticmethod
    def _reaction(client: Any, op: str, channel: str, ts: str) -> bool:
        """Working indicator on the user's message; failures are logged, never fatal."""
        try:
            if op == "add":
                client.reactions_add(channel=channel, timestamp=ts, name=WORKING_REACTION)
            else:
                client.reactions_remove(channel=channel, timestamp=ts, name=WORKING_REACTION)
            return True
        except Exception as exc:
            logger.warning(
                "channel=%s, op=%s, error=%s | working reaction failed", channel, op, type(exc).__name__
            )
            return False


class _Click:
    """A button click: who clicked (verified), where, and our button value."""

    def __init__(
        self, team: str, user: str, channel: str, message_ts: str, thread_ts: str, value: dict[str, Any]
    ):
        self.team, self.user, self.channel = team, user, channel
        self.message_ts, self.thread_ts, self.value = message_ts, thread_ts, value
        self.ref = str(value.get("r") or "")
        self.is_direct = channel.startswith("D")
        self.language = normalize_language(value.get("l") or "id")

    @classmethod
    def of(cls, body: Mapping[str, Any], context: Any) -> _Click:
        container = body.get("container") or {}
        message = body.get("message") or {}
        channel = (body.get("channel") or {}).get("id") or container.get("channel_id") or ""
        message_ts = container.get("message_ts") or message.get("ts") or ""
        action = (body.get("actions") or [{}])[0]
        try:
            value = json.loads(action.get("value") or "{}")
            if not isinstance(value, dict):
                value = {}
        except ValueError:
            value = {}
        thread_ts = value.get("t") or message.get("thread_ts") or container.get("thread_ts") or message_ts
        team = context.team_id or (body.get("team") or {}).get("id") or ""
        user = context.user_id or (body.get("user") or {}).get("id") or ""
        return cls(str(team), str(user), str(channel), str(message_ts), str(thread_ts), value)

    def message(self) -> InboundMessage:
        """The clicking user's ``InboundMessage`` for this thread (text empty: a button, not a question)."""
        return InboundMessage(
            platform="slack",
            tenant=self.team,
            user_id=self.user,
            channel=self.channel,
            thread_id=self.thread_ts,
            message_id=self.message_ts,
            text="",
            is_direct=self.is_direct,
            received_at=dt.datetime.now(dt.UTC),
        )


def _ack(ack: Any) -> None:
    """Ack at once (in the request thread); the lazy listener does the work in the answer pool."""
    ack()


def _team(context: Any, event: Mapping[str, Any]) -> str:
    return str(context.team_id or event.get("team") or "")


def _lang(text: str) -> str:
    return answer_language({}, text) if text else "id"
