"""Teams questions answered AFTER the HTTP response: typing indicator, worker pool, proactive reply.

Why: the Bot Service gives up on ``POST /api/messages`` after 10 to 15 s, and an answer can take longer.
The endpoint therefore only validates the activity and hands the question to :meth:`Answerer.submit`,
which returns at once; the HTTP response (201) goes back while the answer is being computed.  The job
then runs on the event loop:

1. a typing indicator to the asker's conversation (best effort);
2. in a group chat or channel, the members' common reader scope (Bot Connector member lookup, failing
   closed to public documents);
3. the channel-neutral turn (``TurnService.handle``) in the answer worker pool (a bounded thread pool
   of its own, so card clicks never wait behind answers);
4. the reply sent proactively to the stored conversation reference (``continue_conversation``), and for
   a restricted answer the full private answer in the asker's personal chat.

Delivery never loses or duplicates an answer (:meth:`Answerer._deliver`):

* an HTTP error response that says "try again" (429 with ``Retry-After``, 5xx, 408) or a connection that
  was refused before anything was sent is retried with backoff, the same answer, never recomputed;
* a lost response (the request reached the connector, the answer never came back) is NOT resent: the
  message may already be in the chat, so sending again could duplicate it; logged at ERROR with its
  reference;
* a refused card (400, 413 too large) is sent once more as plain text (answer, quotes, sources);
* any other refusal (403 bot removed, 404 conversation gone) is logged at ERROR.

Metrics (:mod:`bot.metrics`): every question is a ``dasar_turns_total{platform="teams"}`` with its latency
from delivery to reply; final send failures and retries are counted by method and kind.

Every question gets an answer or an apology: a turn that raises sends ``TURN_FAILED`` with a reference.
A redelivered activity (the same conversation and activity id, e.g. the Bot Service retrying) is answered
once (:class:`~bot.slack.dedupe.MemoryDeduper`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import datetime as dt
import logging
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from botbuilder.schema import Activity, ChannelAccount, ConversationReference

from bot import metrics
from bot.answer.model import claim_heading
from bot.messages import InboundMessage, Reply, TurnService
from bot.teams import cards
from bot.teams import strings as S
from bot.teams.connector import (
    BotConnectorGateway,
    failure_kind,
    http_status_of,
    reference_of,
    response_was_lost,
    retry_after_of,
    retry_kind,
)
from bot.teams.errors import DeliveryError
from identity.principal import Principal, VerifiedEnvelope
from kb.scope import ReaderScope
from tools.access import reader_scope

logger = logging.getLogger(__name__)

#: Posted after a shared-conversation answer when the asker's fuller answer went to their personal chat.
PRIVATE_SENT = {
    "id": "Sebagian sumber hanya boleh dibaca oleh Anda; jawaban lengkap dikirim ke chat pribadi Anda "
    "dengan dasar.",
    "en": "Some sources are readable by you but not by everyone here; the full answer was sent to your "
    "personal chat with dasar.",
}
#: Posted instead when the personal chat could not be reached.
PRIVATE_NOTICE = {
    "id": "Sebagian sumber hanya boleh dibaca oleh Anda, tidak oleh semua anggota percakapan ini. "
    "Tanyakan lagi di chat pribadi dengan dasar untuk jawaban lengkap.",
    "en": "Some sources are readable by you but not by everyone in this conversation. Ask again in a "
    "personal chat with dasar for the full answer.",
}

#: HTTP statuses after which the same message is sent again (the connector said "not now").
RETRY_STATUSES = frozenset({408, 429, 500, 502, 503, 504})


def tenant_of(activity: Activity) -> str | None:
    """AAD tenant of an activity (``conversation.tenantId``, else ``channelData.tenant.id``)."""
    if activity.conversation is not None and activity.conversation.tenant_id:
        return str(activity.conversation.tenant_id)
    data: Mapping[str, Any] = activity.channel_data if isinstance(activity.channel_data, Mapping) else {}
    tenant: Mapping[str, Any] = data["tenant"] if isinstance(data.get("tenant"), Mapping) else {}
    return str(tenant["id"]) if tenant.get("id") else None


def inbound_message(activity: Activity, text: str, received_at: dt.datetime) -> InboundMessage:
    """The channel-neutral message of a verified activity (the turn resolves who sent it)."""
    conv = activity.conversation.id if activity.conversation is not None else ""
    personal = (
        activity.conversation is None or (activity.conversation.conversation_type or "personal") == "personal"
    )
    return InboundMessage(
        platform="teams",
        tenant=tenant_of(activity) or "unknown-tenant",
        user_id=str(getattr(activity.from_property, "aad_object_id", None) or ""),
        channel=conv,
        thread_id=conv,
        message_id=str(activity.id or ""),
        text=text,
        is_direct=personal,
        received_at=received_at,
    )


def render_reply_text(reply: Reply) -> str:
    """A Teams chat message from the one answer object: the answer text, then each cited claim with its
    verbatim quote and source (the same evidence the Slack and terminal renderings show)."""
    lines = [reply.text.strip()]
    claims = reply.answer.get("claims") or []
    if claims and not any(str(c.get("quote") or "") in reply.text for c in claims if c.get("quote")):
        for n, claim in enumerate(claims, 1):
            source = claim.get("source") or {}
            where = " ".join(str(source.get(k) or "") for k in ("number", "location")).strip()
            words = str(claim.get("text") or "")
            if claim.get("quote"):
                words = claim_heading(words, str(claim["quote"]))  # the quote follows on its own line
            lines.append(f"[{n}] {words}".rstrip())
            if claim.get("quote"):
                lines.append(f'> "{claim["quote"]}"')
            if where:
                lines.append(f"— {where}")
    return "\n\n".join(line for line in lines if line)


def reply_activity(reply: Reply, *, private: bool = False, restricted: bool = False) -> str | Activity:
    """An answered reply as the Adaptive Card answer (claims, quotes, citations, AI label, feedback and
    "Ask the tax team" actions); any other reply (clarify, refusal, ticket notice) as its text."""
    if reply.status == "answered" and reply.answer.get("claims"):
        activity = cards.answer_activity(
            reply.answer, reference=reply.reference_id or "", private=private, restricted=restricted
        )
        return cards.to_bot_activity(activity)  # type: ignore[no-any-return,unused-ignore]
    return render_reply_text(reply)


#: Statuses with which the Bot Connector refuses a message itself (400 bad card, 413 too large): the
#: answer is then sent again as plain text.
CARD_REFUSED = frozenset({400, 413})


@dataclass(frozen=True)
class Sent:
    """The outcome of one :meth:`Answerer._deliver`: truthy when (maybe) delivered."""

    ok: bool
    status: int | None = None  # the HTTP status that refused it for good

    def __bool__(self) -> bool:
        return self.ok


class Deduper(Protocol):
    def claim(self, key: str) -> bool: ...


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to retry a refused send (``Retry-After`` wins when the connector gives one)."""

    attempts: int = 5
    base_delay_s: float = 0.5
    max_delay_s: float = 30.0

    def delay(self, attempt: int, exc: BaseException) -> float:
        after = retry_after_of(exc)
        if after is not None:
            return min(after, self.max_delay_s)
        return float(min(self.base_delay_s * (2**attempt), self.max_delay_s))


def _retryable(exc: BaseException) -> bool:
    """A refusal that says "not now" (429, 5xx, 408) or a connection that never carried the request."""
    status = http_status_of(exc)
    if status is not None:
        return status in RETRY_STATUSES
    # no HTTP status and not a lost response: the request never reached the connector (refused, DNS)
    return True


class Answerer:
    """Answers Teams questions in the background (see module docstring).

    Args:
        gateway: Bot Connector gateway (typing, member lookup, proactive replies, personal chats).
        turn: the channel-neutral turn.
        resolve_principal: verified envelope -> principal (member scopes in shared conversations).
        clock: current time (``received_at``).
        flush_soon: asks for an outbox delivery in the background (after a ticket was opened).
        pool: the answer worker pool (turns run there, never on the event loop).
        deduper: claims ``conversation:activity id`` keys (a redelivered activity is answered once).
        retry: the retry policy of refused sends.
        sleep: waits between retries (injectable for tests).
    """

    def __init__(
        self,
        *,
        gateway: BotConnectorGateway,
        turn: TurnService,
        resolve_principal: Callable[[VerifiedEnvelope], Principal],
        clock: Callable[[], dt.datetime],
        flush_soon: Callable[[], None],
        pool: concurrent.futures.Executor,
        deduper: Deduper,
        retry: RetryPolicy | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.gateway = gateway
        self.turn = turn
        self.resolve_principal = resolve_principal
        self.clock = clock
        self.flush_soon = flush_soon
        self.pool = pool
        self.deduper = deduper
        self.retry = retry or RetryPolicy()
        self.sleep = sleep
        self._tasks: set[asyncio.Task[None]] = set()

    # --- scheduling ----------------------------------------------------------------------------
    def submit(self, activity: Activity, text: str) -> bool:
        """Schedule the answer to ``text`` (from ``activity``) and return at once.

        Returns False (nothing scheduled) for a redelivery of an activity already being answered.
        """
        conv = activity.conversation.id if activity.conversation is not None else ""
        try:
            first = not activity.id or self.deduper.claim(f"teams:{conv}:{activity.id}")
        except Exception as exc:  # a shared deduper that is down: answering twice beats never
            logger.warning("error=%s | teams deduper unavailable, answering anyway", type(exc).__name__)
            first = True
        if not first:
            logger.info("activity_id=%s | redelivered teams activity ignored", activity.id)
            return False
        message = inbound_message(activity, text, self.clock())
        received = time.monotonic()
        task = asyncio.get_running_loop().create_task(
            self._answer(reference_of(activity), activity, message, received)
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return True

    @property
    def pending(self) -> int:
        """Answers scheduled and not finished yet."""
        return len(self._tasks)

    async def drain(self, timeout: float | None = None) -> None:
        """Wait until every scheduled answer is finished (tests; graceful shutdown)."""
        while self._tasks:
            await asyncio.wait(set(self._tasks), timeout=timeout)
            if timeout is not None:
                return

    # --- the job -------------------------------------------------------------------------------
    async def _answer(
        self, reference: ConversationReference, activity: Activity, message: InboundMessage, received: float
    ) -> None:
        try:
            typing = asyncio.ensure_future(self._typing(reference))
            if not message.is_direct:  # a group chat or channel: the members' common scope
                message = dataclasses.replace(
                    message, audience=await self._audience(reference, message.tenant)
                )
            loop = asyncio.get_running_loop()
            try:
                # masking, secret refusal, rate limits, follow-ups and escalation rights live in the turn
                reply = await loop.run_in_executor(self.pool, self.turn.handle, message)
            finally:
                await typing  # the typing indicator goes out before the answer, never after it
        except Exception as exc:
            reference_id = uuid.uuid4().hex[:8]
            logger.error(
                "error=%s, ref=%s | teams turn failed", type(exc).__name__, reference_id, exc_info=exc
            )
            await self._deliver(reference, S.TURN_FAILED.format(ref=reference_id), what="apology")
            metrics.record_turn("teams", "error", time.monotonic() - received)
            return
        if reply.silent:  # flood control: this person already got the rate-limit notice in this window
            metrics.record_turn("teams", reply.status or "rate_limited")
            return
        if reply.ticket_id:
            self.flush_soon()
        rendered = reply_activity(reply, restricted=reply.private_answer is not None)
        sent = await self._deliver(reference, rendered, what="answer")
        if not sent and sent.status in CARD_REFUSED and not isinstance(rendered, str):
            # the card itself was refused (too large, or a client-side schema change): the same answer
            # as text, so the asker still gets the quotes and sources
            await self._deliver(reference, render_reply_text(reply), what="answer as text")
        metrics.record_reply("teams", reply, time.monotonic() - received)
        if reply.private_answer is not None:
            await self._send_private(reference, activity, message.tenant, reply.private_answer)

    async def _typing(self, reference: ConversationReference) -> None:
        try:
            await self.gateway.typing(reference)
        except Exception as exc:  # best effort: the answer still follows
            metrics.record_api_error("teams", "typing", failure_kind(exc))
            logger.info("error=%s | teams typing indicator not sent", type(exc).__name__)

    async def _audience(self, reference: ConversationReference, tenant: str) -> ReaderScope:
        """The common reader scope of everyone in a group chat or channel (Bot Connector member lookup).

        Fails closed: when the member list cannot be read, the audience is a guest's (public documents only).
        """
        bot_id = reference.bot.id if reference.bot is not None else None
        try:
            members = await self.gateway.members(reference)
        except Exception as exc:
            metrics.record_api_error("teams", "get_conversation_members", failure_kind(exc))
            logger.warning("error=%s | teams member lookup failed; answering for a guest audience", exc)
            return ReaderScope.public()
        readers: list[ReaderScope] = []
        for member in members or []:
            if bot_id and member.id == bot_id:
                continue
            aad = getattr(member, "aad_object_id", None)
            if not aad:
                readers.append(ReaderScope.public())
                continue
            principal = await asyncio.to_thread(
                self.resolve_principal, VerifiedEnvelope(platform="teams", tenant=tenant, user_id=str(aad))
            )
            readers.append(reader_scope(principal))
        return ReaderScope.common(readers)

    async def _send_private(
        self,
        reference: ConversationReference,
        activity: Activity,
        tenant: str,
        private_answer: dict[str, Any],
    ) -> None:
        """The asker's full answer in a personal chat with the bot (never in the shared conversation)."""
        language = str(private_answer.get("language") or "id")
        private = Reply(
            answer=private_answer,
            text=str(private_answer.get("answer") or ""),
            status=str(private_answer.get("status") or ""),
        )
        member = activity.from_property or ChannelAccount(id="")
        sent = await self._deliver(
            reference,
            reply_activity(private, private=True),
            what="private answer",
            send=lambda message: self.gateway.send_personal(reference, member, tenant, message),
            method="create_conversation",
        )
        notices = PRIVATE_SENT if sent else PRIVATE_NOTICE
        await self._deliver(reference, notices.get(language, notices["id"]), what="private notice")

    async def _deliver(
        self,
        reference: ConversationReference,
        message: str | Activity,
        *,
        what: str,
        send: Callable[[str | Activity], Awaitable[Any]] | None = None,
        method: str = "send_activity",
    ) -> Sent:
        """Send ``message`` once: retried while the connector says "not now", never resent after a lost
        response.  Truthy when it was (or may have been) delivered; else carries the refusing status."""
        do_send = send or (lambda m: self.gateway.reply(reference, m))
        conv = reference.conversation.id if reference.conversation is not None else "-"
        for attempt in range(self.retry.attempts):
            try:
                await do_send(message)
                return Sent(True)
            except DeliveryError as exc:
                status = http_status_of(exc)
                if response_was_lost(exc):
                    metrics.record_api_error("teams", method, "response_lost")
                    logger.error(
                        "conversation=%s, error=%s | teams %s may have been delivered (response lost); "
                        "not sent again",
                        conv,
                        type(exc.__cause__ or exc).__name__,
                        what,
                    )
                    return Sent(True)
                if not _retryable(exc) or attempt + 1 == self.retry.attempts:
                    metrics.record_api_error("teams", method, failure_kind(exc))
                    logger.error(
                        "conversation=%s, status=%s, attempts=%d | teams %s could not be delivered",
                        conv,
                        status,
                        attempt + 1,
                        what,
                    )
                    return Sent(False, status)
                delay = self.retry.delay(attempt, exc)
                metrics.record_api_retry("teams", method, retry_kind(exc))
                logger.warning(
                    "conversation=%s, status=%s, attempt=%d, retry_in=%.1fs | teams %s refused; retrying",
                    conv,
                    status,
                    attempt + 1,
                    delay,
                    what,
                )
                await self.sleep(delay)
        return Sent(False)
