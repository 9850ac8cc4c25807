"""Outbound calls to the Bot Connector service: post a card/text to a conversation, update a card.

Proactive messaging the Bot Framework way: build a ``ConversationReference`` for the tax-team channel
(service URL + conversation id), ``adapter.continue_conversation`` it, and send through the adapter
with the connector client it created (credentials from the app id/password; with authentication
disabled -- tests only -- an anonymous identity so no token is requested).  Activities are sent
without ``replyToId`` so a card becomes a new channel post (``POST /v3/conversations/{id}/activities``),
and updates are ``PUT /v3/conversations/{id}/activities/{activityId}``.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from botbuilder.core import BotFrameworkAdapter, TurnContext
from botbuilder.schema import (
    Activity,
    ActivityTypes,
    Attachment,
    ChannelAccount,
    ConversationAccount,
    ConversationReference,
)
from botframework.connector.auth import ClaimsIdentity

from bot.teams.cards import CARD_CONTENT_TYPE
from bot.teams.errors import DeliveryError

logger = logging.getLogger(__name__)

TEAMS_CHANNEL_ID = "msteams"


class BotConnectorGateway:
    """Posts and updates activities in Teams conversations through one adapter.

    Args:
        adapter: the bot's adapter (shared with the inbound endpoint).
        service_url: Bot Connector service URL of the tenant.
        app_id: the bot's Microsoft app id; None when authentication is disabled (tests).
        tenant_id: AAD tenant id (set on the conversation, as Teams expects).
    """

    def __init__(
        self,
        adapter: BotFrameworkAdapter,
        *,
        service_url: str,
        app_id: str | None,
        tenant_id: str | None = None,
    ) -> None:
        self.adapter = adapter
        self.service_url = service_url
        self.app_id = app_id or None
        self.tenant_id = tenant_id

    def _conversation(self, conversation_id: str) -> ConversationAccount:
        return ConversationAccount(id=conversation_id, is_group=True, tenant_id=self.tenant_id)

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

    async def _in_conversation(
        self, conversation_id: str, fn: Callable[[TurnContext], Awaitable[Any]]
    ) -> Any:
        ref = ConversationReference(
            channel_id=TEAMS_CHANNEL_ID,
            service_url=self.service_url,
            conversation=self._conversation(conversation_id),
            bot=ChannelAccount(id=self.app_id or "dasar"),
        )
        result: dict[str, Any] = {}

        async def callback(ctx: TurnContext) -> None:
            result["value"] = await fn(ctx)

        try:
            if self.app_id:
                await self.adapter.continue_conversation(ref, callback, bot_id=self.app_id)
            else:
                await self.adapter.continue_conversation(
                    ref, callback, claims_identity=ClaimsIdentity({}, True)
                )
        except DeliveryError:
            raise
        except Exception as exc:
            raise DeliveryError(f"Bot Connector call failed: {type(exc).__name__}: {exc}") from exc
        return result.get("value")

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

        activity_id = await self._in_conversation(conversation_id, send)
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

        await self._in_conversation(conversation_id, put)
        logger.info("activity_id=%s | updated teams card", activity_id)
