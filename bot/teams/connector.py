"""Outbound calls to the Bot Connector service: post, reply, update, typing, member lookup, 1:1 chats.

Proactive messaging the Bot Framework way (botbuilder-python 4.17 ``CloudAdapter``): every outbound call
runs inside ``adapter.continue_conversation(reference, callback, bot_app_id=...)``, which builds a turn
context whose connector client carries the bot's credentials (with authentication disabled -- tests
only -- ``bot_app_id`` is None and the connector factory sends anonymously, no token is requested).

Two kinds of reference:

* the tax-team channel (service URL + conversation id from settings): cards are posted without
  ``replyToId`` so each card is a new channel post (``POST /v3/conversations/{id}/activities``), and
  updates are ``PUT /v3/conversations/{id}/activities/{activityId}``;
* an asker's conversation, stored from the inbound activity (:func:`reference_of`): the answer is sent
  after the HTTP response, as a reply to the question (``POST .../activities/{replyToId}``).

Every failure is re-raised as :class:`~bot.teams.errors.DeliveryError` with the original as its cause, so
callers classify it (:func:`response_was_lost`, :func:`http_status_of`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from botbuilder.core import BotAdapter, TurnContext
from botbuilder.integration.aiohttp import CloudAdapter
from botbuilder.schema import (
    Activity,
    ActivityTypes,
    Attachment,
    ChannelAccount,
    ConversationAccount,
    ConversationParameters,
    ConversationReference,
)

from bot.teams.cards import CARD_CONTENT_TYPE
from bot.teams.errors import DeliveryError, exception_chain

logger = logging.getLogger(__name__)

TEAMS_CHANNEL_ID = "msteams"


def reference_of(activity: Activity) -> ConversationReference:
    """The conversation reference of an inbound activity (where a later proactive reply goes)."""
    return TurnContext.get_conversation_reference(activity)


def http_status_of(exc: BaseException) -> int | None:
    """The HTTP status the Bot Connector answered with, if the failure was an HTTP error response."""
    for err in exception_chain(exc):
        response = getattr(err, "response", None)
        status = getattr(response, "status_code", None) or getattr(response, "status", None)
        if isinstance(status, int):
            return status
    return None


def retry_after_of(exc: BaseException) -> float | None:
    """Seconds from a ``Retry-After`` header of the error response (429/503), if any."""
    for err in exception_chain(exc):
        headers = getattr(getattr(err, "response", None), "headers", None)
        if headers is None:
            continue
        try:
            raw = headers.get("Retry-After")
        except AttributeError:
            continue
        if raw is None:
            continue
        try:
            return max(0.0, float(raw))
        except (TypeError, ValueError):
            return None
    return None


def response_was_lost(exc: BaseException) -> bool:
    """True when the request may have reached the remote side but its answer never came back.

    A timeout or a connection dropped after sending is such a case (the client libraries wrap it:
    DeliveryError <- msrest ClientRequestError <- requests ConnectionError <- urllib3 ProtocolError <-
    http.client RemoteDisconnected); an HTTP error response (the remote side refused) is not.
    """
    for err in exception_chain(exc):
        if isinstance(err, TimeoutError | concurrent.futures.TimeoutError | asyncio.TimeoutError):
            return True
        if type(err).__name__ in _LOST_RESPONSE_ERRORS:
            return True
    return False


#: Transport errors that mean "sent, but no answer came back" in aiohttp, requests/urllib3 and http.client.
_LOST_RESPONSE_ERRORS = frozenset(
    {"ServerDisconnectedError", "ClientPayloadError", "RemoteDisconnected", "ReadTimeout", "ReadTimeoutError"}
)


def failure_kind(exc: BaseException) -> str:
    """A metrics label for a failed Bot Connector call (no ids, no text): ``response_lost``,
    ``http_<status>`` or the transport error's class."""
    if response_was_lost(exc):
        return "response_lost"
    status = http_status_of(exc)
    if status is not None:
        return f"http_{status}"
    return type(exc.__cause__ or exc).__name__


def retry_kind(exc: BaseException) -> str:
    """The retry label, named as the Slack client names them: rate_limited, server_error, connection_error."""
    status = http_status_of(exc)
    if status == 429:
        return "rate_limited"
    return "server_error" if status is not None else "connection_error"


class BotConnectorGateway:
    """Posts and updates activities in Teams conversations through one adapter.

    Args:
        adapter: the bot's ``CloudAdapter`` (shared with the inbound endpoint).
        service_url: Bot Connector service URL of the tax-team channel's tenant.
        app_id: the bot's Microsoft app id; None when authentication is disabled (tests).
        tenant_id: AAD tenant id (set on the conversation, as Teams expects).
    """

    def __init__(
        self,
        adapter: CloudAdapter,
        *,
        service_url: str,
        app_id: str | None,
        tenant_id: str | None = None,
    ) -> None:
        self.adapter = adapter
        self.service_url = service_url
        self.app_id = app_id or None
        self.tenant_id = tenant_id

    # --- plumbing ------------------------------------------------------------------------------
    def _conversation(self, conversation_id: str) -> ConversationAccount:
        return ConversationAccount(id=conversation_id, is_group=True, tenant_id=self.tenant_id)

    def _channel_reference(self, conversation_id: str) -> ConversationReference:
        return ConversationReference(
            channel_id=TEAMS_CHANNEL_ID,
            service_url=self.service_url,
            conversation=self._conversation(conversation_id),
            bot=ChannelAccount(id=self.app_id or "dasar"),
        )

    def _activity(
        self,
        conversation_id: str,
        *,
        text: str | None,
        card: Mapping[str, Any] | None,
        channel_data: Mapping[str, Any] | None,
        activity_id: str | None = None,
    ) -> Activity:
        return Activity(
            type=ActivityTypes.message,
            id=activity_id,
            text=text,
            attachments=[Attachment(content_type=CARD_CONTENT_TYPE, content=dict(card))] if card else None,
            channel_data=dict(channel_data) if channel_data else None,
            conversation=self._conversation(conversation_id),
            service_url=self.service_url,
            channel_id=TEAMS_CHANNEL_ID,
            from_property=ChannelAccount(id=self.app_id or "dasar"),
        )

    async def _continue(
        self, reference: ConversationReference, fn: Callable[[TurnContext], Awaitable[Any]]
    ) -> Any:
        """Run ``fn`` in a proactive turn of ``reference``; any failure becomes a DeliveryError."""
        result: dict[str, Any] = {}

        async def callback(ctx: TurnContext) -> None:
            result["value"] = await fn(ctx)

        try:
            await self.adapter.continue_conversation(reference, callback, bot_app_id=self.app_id)
        except DeliveryError:
            raise
        except Exception as exc:
            raise DeliveryError(f"Bot Connector call failed: {type(exc).__name__}: {exc}") from exc
        return result.get("value")

    # --- the tax-team channel (outbox) -----------------------------------------------------------
    async def post(
        self,
        conversation_id: str,
        *,
        text: str | None = None,
        card: Mapping[str, Any] | None = None,
        channel_data: Mapping[str, Any] | None = None,
    ) -> str:
        """Post a new message (card and/or text); returns the activity id the service assigned."""
        activity = self._activity(conversation_id, text=text, card=card, channel_data=channel_data)

        async def send(ctx: TurnContext) -> str:
            responses = await ctx.adapter.send_activities(ctx, [activity])
            if not responses or not getattr(responses[0], "id", None):
                raise DeliveryError("Bot Connector returned no activity id")
            return str(responses[0].id)

        activity_id = await self._continue(self._channel_reference(conversation_id), send)
        logger.info("activity_id=%s | posted to teams conversation", activity_id)
        return str(activity_id)

    async def post_text(self, conversation_id: str, text: str) -> str:
        """Plain text post (the Teams-chat relay)."""
        return await self.post(conversation_id, text=text)

    async def update(
        self,
        conversation_id: str,
        activity_id: str,
        *,
        card: Mapping[str, Any],
        channel_data: Mapping[str, Any] | None = None,
    ) -> None:
        """Replace a posted card for everyone (``PUT .../activities/{activity_id}``)."""
        activity = self._activity(
            conversation_id, text=None, card=card, channel_data=channel_data, activity_id=activity_id
        )

        async def put(ctx: TurnContext) -> None:
            await ctx.adapter.update_activity(ctx, activity)

        await self._continue(self._channel_reference(conversation_id), put)
        logger.info("activity_id=%s | updated teams card", activity_id)

    # --- an asker's conversation (answers after the HTTP response) --------------------------------
    async def _send_addressed(self, ctx: TurnContext, activity: Activity) -> str:
        responses = await ctx.adapter.send_activities(ctx, [activity])
        return str(getattr(responses[0], "id", "") or "") if responses else ""

    async def reply(self, reference: ConversationReference, message: str | Activity) -> str:
        """Send ``message`` into the referenced conversation as a reply to its question; returns the id."""
        activity = _addressed(message, reference, reply_to=reference.activity_id)

        async def send(ctx: TurnContext) -> str:
            return await self._send_addressed(ctx, activity)

        return str(await self._continue(reference, send))

    async def typing(self, reference: ConversationReference) -> None:
        """Show the typing indicator in the referenced conversation."""
        activity = _addressed(Activity(type=ActivityTypes.typing), reference, reply_to=reference.activity_id)

        async def send(ctx: TurnContext) -> None:
            await self._send_addressed(ctx, activity)

        await self._continue(reference, send)

    async def members(self, reference: ConversationReference) -> list[Any]:
        """The members of the referenced conversation (``GET /v3/conversations/{id}/members``)."""

        async def lookup(ctx: TurnContext) -> list[Any]:
            client = ctx.turn_state.get(BotAdapter.BOT_CONNECTOR_CLIENT_KEY)
            if client is None:
                raise DeliveryError("no connector client in the proactive turn")
            return list(await client.conversations.get_conversation_members(reference.conversation.id))

        return list(await self._continue(reference, lookup))

    async def send_personal(
        self, reference: ConversationReference, member: ChannelAccount, tenant: str, message: str | Activity
    ) -> None:
        """Create (or reopen) the personal chat of ``member`` with the bot and send ``message`` there."""
        params = ConversationParameters(
            is_group=False,
            bot=reference.bot,
            members=[member],
            tenant_id=tenant,
            channel_data={"tenant": {"id": tenant}},
        )

        async def deliver(ctx: TurnContext) -> None:
            # a new chat: no replyToId (the create activity's id is made up by the SDK)
            created = TurnContext.get_conversation_reference(ctx.activity)
            await self._send_addressed(ctx, _addressed(message, created, reply_to=None))

        try:
            await self.adapter.create_conversation(
                self.app_id,
                deliver,
                params,
                channel_id=reference.channel_id or TEAMS_CHANNEL_ID,
                service_url=reference.service_url,
            )
        except Exception as exc:
            raise DeliveryError(f"Bot Connector call failed: {type(exc).__name__}: {exc}") from exc


def _addressed(
    message: str | Activity, reference: ConversationReference, *, reply_to: str | None
) -> Activity:
    """``message`` as an activity addressed to ``reference`` (``replyToId`` exactly ``reply_to``)."""
    activity = Activity(type=ActivityTypes.message, text=message) if isinstance(message, str) else message
    TurnContext.apply_conversation_reference(activity, reference)
    activity.reply_to_id = reply_to
    return activity
