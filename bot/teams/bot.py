"""The Teams bot: card clicks (``adaptiveCard/action`` invokes and ``Action.Submit`` messages) and replies.

Identity comes only from the authenticated activity: ``from.aadObjectId`` + the conversation's tenant
become a :class:`~identity.principal.VerifiedEnvelope`, resolved against the directory (unknown -> guest,
who may do nothing).  Card rules live in :mod:`bot.teams.actions`; after every change an outbox
delivery starts in the background so the card is updated for everyone (``PUT`` through the Bot
Connector) and answers are relayed.

Plain messages go to :class:`~bot.teams.answering.Answerer`, which answers them AFTER the HTTP response
(typing indicator, worker pool, proactive reply) through the channel-neutral turn
(``TurnService.handle``, owner of masking, secret refusal, rate limits, ticket follow-ups and escalation
rights); in a group chat or channel it passes the members' common reader scope as the ``audience``.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Callable, Mapping
from http import HTTPStatus
from typing import Any

from botbuilder.core import InvokeResponse, TurnContext
from botbuilder.core.teams import TeamsActivityHandler
from botbuilder.schema import Activity, ActivityTypes, Attachment

from bot.messages import TurnService
from bot.teams import cards
from bot.teams import strings as S
from bot.teams.actions import ActionHandler, ActionOutcome, CardAction, is_card_data, parse_action
from bot.teams.answering import Answerer, inbound_message, tenant_of
from bot.teams.errors import BadActionData
from identity.principal import Principal, VerifiedEnvelope
from tickets import TicketStore

logger = logging.getLogger(__name__)

ADAPTIVE_CARD_ACTION = "adaptiveCard/action"


class DasarTeamsBot(TeamsActivityHandler):  # type: ignore[misc]  # botbuilder ships no type information
    """Bot Framework handler of the tax-team channel and Teams chats.

    Nothing slow happens inside the HTTP request: questions go to the :class:`Answerer` (answered after
    the response), and a card click applies its rule (a ticket-store transition) and returns while the
    outbox delivery runs in the background (``flush_soon``).

    Args:
        tickets: ticket store.
        actions: card action rules.
        resolve_principal: verified envelope -> principal (the identity resolver).
        flush_soon: starts an outbox delivery in the background (card updates, relays); never waits.
        turn: channel-neutral turn handler for ordinary questions, optional.
        answerer: answers questions after the HTTP response (required when ``turn`` is given).
        clock: current time.
    """

    def __init__(
        self,
        *,
        tickets: TicketStore,
        actions: ActionHandler,
        resolve_principal: Callable[[VerifiedEnvelope], Principal],
        flush_soon: Callable[[], None],
        turn: TurnService | None = None,
        answerer: Answerer | None = None,
        clock: Callable[[], dt.datetime],
    ) -> None:
        super().__init__()
        if turn is not None and answerer is None:
            raise ValueError("a Teams bot with a turn needs an answerer")
        self.tickets = tickets
        self.actions = actions
        self.resolve_principal = resolve_principal
        self.flush_soon = flush_soon
        self.turn = turn
        self.answerer = answerer
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
            self.flush_soon()  # card updates and relays follow; the click is answered now
        return outcome

    async def _escalate_from_card(self, ctx: TurnContext) -> ActionOutcome:
        """The "Ask the tax team" button on an answer card: the same as typing /ticket in that conversation.

        The thread, asker and question come from the verified activity and the turn's own history of
        the conversation, never from the card's data (which the client could forge); the turn decides
        whether this person may escalate (only the asker, with their question and evidence).
        """
        assert self.turn is not None  # noqa: S101 - checked by the caller
        message = inbound_message(ctx.activity, "/ticket", self.clock())
        reply = await asyncio.to_thread(self.turn.handle, message)
        if reply.ticket_id:
            self.flush_soon()
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
        if self.turn is None or self.answerer is None:
            await turn_context.send_activity(S.NO_TURN_HANDLER)
            return
        # Answered after the HTTP response: typing indicator, worker pool, proactive reply.
        self.answerer.submit(activity, text)
