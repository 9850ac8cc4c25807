"""The Teams bot: card clicks (``adaptiveCard/action`` invokes and ``Action.Submit`` messages) and replies.

Identity comes only from the authenticated activity: ``from.aadObjectId`` + the conversation's tenant
become a :class:`~identity.principal.VerifiedEnvelope`, resolved against the directory (unknown -> guest,
who may do nothing).  Card rules live in :mod:`bot.teams.actions`; after every change the outbox is
flushed so the card is updated for everyone (``PUT`` through the Bot Connector) and answers are relayed.

Plain messages go to the channel-neutral turn (``TurnService.handle``), which owns masking, secret
refusal, rate limits, ticket follow-ups and escalation rights for every platform.  In a group chat or
channel the bot first looks up the members (Bot Connector ``GET /v3/conversations/{id}/members``) and
passes their common reader scope as the message's ``audience``: the answer posted there quotes only what
every member may read (failing closed to public documents when the lookup fails).
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import logging
from collections.abc import Awaitable, Callable, Mapping
from http import HTTPStatus
from typing import Any

from botbuilder.core import InvokeResponse, TurnContext
from botbuilder.core.teams import TeamsActivityHandler
from botbuilder.schema import Activity, ActivityTypes, Attachment, ConversationParameters

from bot.messages import InboundMessage, Reply, TurnService
from bot.teams import cards
from bot.teams import strings as S
from bot.teams.actions import ActionHandler, ActionOutcome, CardAction, is_card_data, parse_action
from bot.teams.errors import BadActionData
from identity.principal import Principal, VerifiedEnvelope
from kb.scope import ReaderScope
from tickets import TicketStore
from tools.access import reader_scope

logger = logging.getLogger(__name__)

ADAPTIVE_CARD_ACTION = "adaptiveCard/action"

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


def tenant_of(activity: Activity) -> str | None:
    """AAD tenant of an activity (``conversation.tenantId``, else ``channelData.tenant.id``)."""
    if activity.conversation is not None and activity.conversation.tenant_id:
        return str(activity.conversation.tenant_id)
    data: Mapping[str, Any] = activity.channel_data if isinstance(activity.channel_data, Mapping) else {}
    tenant: Mapping[str, Any] = data["tenant"] if isinstance(data.get("tenant"), Mapping) else {}
    return str(tenant["id"]) if tenant.get("id") else None


def render_reply_text(reply: Reply) -> str:
    """A Teams chat message from the one answer object: the answer text, then each cited claim with its
    verbatim quote and source (the same evidence the Slack and terminal renderings show)."""
    lines = [reply.text.strip()]
    claims = reply.answer.get("claims") or []
    if claims and not any(str(c.get("quote") or "") in reply.text for c in claims if c.get("quote")):
        for n, claim in enumerate(claims, 1):
            source = claim.get("source") or {}
            where = " ".join(str(source.get(k) or "") for k in ("number", "location")).strip()
            lines.append(f"[{n}] {claim.get('text') or ''}".rstrip())
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


class DasarTeamsBot(TeamsActivityHandler):  # type: ignore[misc]  # botbuilder ships no type information
    """Bot Framework handler of the tax-team channel and Teams chats.

    Args:
        tickets: ticket store.
        actions: card action rules.
        resolve_principal: verified envelope -> principal (the identity resolver).
        flush: delivers the outbox now (card updates, relays) -- awaited after every change.
        turn: channel-neutral turn handler for ordinary questions, optional.
        clock: current time.
    """

    def __init__(
        self,
        *,
        tickets: TicketStore,
        actions: ActionHandler,
        resolve_principal: Callable[[VerifiedEnvelope], Principal],
        flush: Callable[[], Awaitable[Any]],
        turn: TurnService | None = None,
        clock: Callable[[], dt.datetime],
    ) -> None:
        super().__init__()
        self.tickets = tickets
        self.actions = actions
        self.resolve_principal = resolve_principal
        self.flush = flush
        self.turn = turn
        self.clock = clock

    # --- identity ------------------------------------------------------------------------------
    def principal_of(self, activity: Activity) -> Principal:
        """The clicking/writing person; a guest when the activity lacks an AAD id or tenant."""
        tenant = tenant_of(activity) or "unknown-tenant"
        frm = activity.from_property
        aad = getattr(frm, "aad_object_id", None) if frm is not None else None
        if not aad:
            return Principal.guest(
                "teams", tenant, (frm.id if frm is not None and frm.id else "unknown-user")
            )
        return self.resolve_principal(VerifiedEnvelope(platform="teams", tenant=tenant, user_id=str(aad)))

    def _inbound(self, activity: Activity, text: str) -> InboundMessage:
        """The channel-neutral message of a verified activity (the turn resolves who sent it)."""
        conv = activity.conversation.id if activity.conversation is not None else ""
        personal = (
            activity.conversation is None
            or (activity.conversation.conversation_type or "personal") == "personal"
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
            received_at=self.clock(),
        )

    # --- card actions --------------------------------------------------------------------------
    async def _run_action(self, ctx: TurnContext, action: CardAction) -> ActionOutcome:
        if action.verb == cards.ASK_TAX_TEAM and self.turn is not None:
            return await self._escalate_from_card(ctx)
        principal = self.principal_of(ctx.activity)
        outcome = await asyncio.to_thread(self.actions.handle, principal, action)
        for card in outcome.post_cards:
            await ctx.send_activity(
                Activity(
                    type=ActivityTypes.message,
                    attachments=[Attachment(content_type=cards.CARD_CONTENT_TYPE, content=card)],
                )
            )
        if outcome.ok:
            await self.flush()
        return outcome

    async def _escalate_from_card(self, ctx: TurnContext) -> ActionOutcome:
        """The "Ask the tax team" button on an answer card: the same as typing /ticket in that conversation.

        The thread, asker and question come from the verified activity and the turn's own history of
        the conversation, never from the card's data (which the client could forge); the turn decides
        whether this person may escalate (only the asker, with their question and evidence).
        """
        assert self.turn is not None  # noqa: S101 - checked by the caller
        message = self._inbound(ctx.activity, "/ticket")
        reply = await asyncio.to_thread(self.turn.handle, message)
        if reply.ticket_id:
            await self.flush()
        return ActionOutcome(bool(reply.ticket_id), reply.text)

    async def on_invoke_activity(self, turn_context: TurnContext) -> InvokeResponse | None:
        """``adaptiveCard/action`` (Action.Execute): apply, then answer with the refreshed card or a text."""
        if turn_context.activity.name != ADAPTIVE_CARD_ACTION:
            return await super().on_invoke_activity(turn_context)
        value: Mapping[str, Any] = (
            turn_context.activity.value if isinstance(turn_context.activity.value, Mapping) else {}
        )
        act: Mapping[str, Any] = value["action"] if isinstance(value.get("action"), Mapping) else {}
        if act.get("type") != "Action.Execute":
            return InvokeResponse(
                status=int(HTTPStatus.OK),
                body=cards.message_invoke_response(S.UNKNOWN_ACTION.format(verb=act.get("type") or "-")),
            )
        try:
            action = parse_action(act.get("data") or {}, verb=act.get("verb"))
        except BadActionData as exc:
            return InvokeResponse(status=int(HTTPStatus.OK), body=cards.message_invoke_response(str(exc)))
        outcome = await self._run_action(turn_context, action)
        if outcome.ok and outcome.card is not None:
            body = cards.card_invoke_response(outcome.card)
        else:
            body = cards.message_invoke_response(outcome.message)
        return InvokeResponse(status=int(HTTPStatus.OK), body=body)

    async def on_message_activity(self, turn_context: TurnContext) -> None:
        """Action.Submit fallback (``value`` carries our data), requester replies, or a question."""
        activity = turn_context.activity
        if is_card_data(activity.value):
            try:
                action = parse_action(activity.value)
            except BadActionData as exc:
                await turn_context.send_activity(str(exc))
                return
            outcome = await self._run_action(turn_context, action)
            await turn_context.send_activity(outcome.message)
            return
        text = S.strip_mentions(activity.text or "")  # "<at>dasar</at> berapa tarif PPN?" -> the question
        if not text:
            return
        if self.turn is None:
            await turn_context.send_activity(S.NO_TURN_HANDLER)
            return
        message = self._inbound(activity, text)
        tenant = message.tenant
        if not message.is_direct:  # a group chat or channel: the members' common scope
            message = dataclasses.replace(message, audience=await self._audience(turn_context, tenant))
        # Masking, secret refusal, rate limits, ticket follow-ups and escalation rights live in the turn.
        reply = await asyncio.to_thread(self.turn.handle, message)
        if reply.silent:  # flood control: this person already got the rate-limit notice in this window
            return
        if reply.ticket_id:
            await self.flush()
        await turn_context.send_activity(reply_activity(reply, restricted=reply.private_answer is not None))
        if reply.private_answer is not None:
            language = str(reply.private_answer.get("language") or "id")
            private = Reply(
                answer=reply.private_answer,
                text=str(reply.private_answer.get("answer") or ""),
                status=str(reply.private_answer.get("status") or ""),
            )
            sent = await self._send_privately(turn_context, tenant, reply_activity(private, private=True))
            notices = PRIVATE_SENT if sent else PRIVATE_NOTICE
            await turn_context.send_activity(notices.get(language, notices["id"]))

    async def _send_privately(self, ctx: TurnContext, tenant: str, text: str | Activity) -> bool:
        """The asker's full answer in a personal chat with the bot (never in the shared conversation)."""
        activity = ctx.activity
        reference = TurnContext.get_conversation_reference(activity)
        params = ConversationParameters(
            is_group=False,
            bot=activity.recipient,
            members=[activity.from_property],
            tenant_id=tenant,
            channel_data={"tenant": {"id": tenant}},
        )

        async def deliver(private_ctx: TurnContext) -> None:
            await private_ctx.send_activity(text)

        try:
            await ctx.adapter.create_conversation(reference, deliver, params)
        except Exception as exc:
            logger.warning("error=%s | private answer could not be delivered", type(exc).__name__)
            return False
        return True

    async def _audience(self, ctx: TurnContext, tenant: str) -> ReaderScope:
        """The common reader scope of everyone in a group chat or channel (Bot Connector member lookup).

        Fails closed: when the member list cannot be read, the audience is a guest's (public documents only).
        """
        bot_id = ctx.activity.recipient.id if ctx.activity.recipient is not None else None
        try:
            members = await ctx.adapter.get_conversation_members(ctx)
        except Exception as exc:
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
