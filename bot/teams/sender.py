"""The outbox ``Sender`` for Teams: turns ticket notifications into card posts/updates and relays.

Called synchronously by :meth:`tickets.Outbox.deliver_pending` (from a worker thread); Bot Connector
calls are coroutines run on the bot's event loop through :class:`LoopBridge`.

Idempotency (why a re-delivery never posts twice): before posting, the sender looks the outbox key up in
the :class:`~bot.teams.journal.DeliveryJournal`; if a post for that key is journalled it UPDATES that
activity (making the card current) and returns its id; otherwise it journals ``begin``, posts, and
journals the returned id at once -- before the outbox marks the message delivered.  Card updates are
idempotent by nature (PUT of the current state).  Cards are always rendered from the ticket's current
state, so a late redelivery cannot roll a card back.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Callable, Coroutine, Mapping
from typing import Any, TypeVar

from bot import metrics
from bot.teams import cards
from bot.teams import strings as S
from bot.teams.connector import BotConnectorGateway, failure_kind, response_was_lost
from bot.teams.errors import DeliveryError
from bot.teams.journal import DeliveryJournal
from bot.teams.relay import Relay
from tickets import DeliveryUncertain, OutboxMessage, ThreadRef, TicketStore
from tickets.model import text_to_ts

logger = logging.getLogger(__name__)
T = TypeVar("T")


class LoopBridge:
    """Run a coroutine on ``loop`` from another thread and wait for its result."""

    def __init__(self, loop: asyncio.AbstractEventLoop, timeout_s: float = 60.0) -> None:
        self.loop = loop
        self.timeout_s = timeout_s

    def __call__(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(self.timeout_s)


class OutboxSender:
    """``Sender`` for :meth:`Outbox.deliver_pending` (see module docstring for idempotency).

    Args:
        tickets: ticket store (cards render the current ticket; ``card_ref`` finds the posted card).
        gateway: Bot Connector gateway.
        run: runs a gateway coroutine from the calling thread (a :class:`LoopBridge`).
        tax_channel_id: conversation id of the tax-team channel.
        relays: platform (``slack``/``teams``) -> relay to the asker's thread.
        journal: delivery journal.
        clock: current time for card ages.
        people: actor id -> display name.
        after_send: test hook called after a remote send is journalled, before the outbox marks it
            delivered (the crash test kills the process here).
    """

    def __init__(
        self,
        *,
        tickets: TicketStore,
        gateway: BotConnectorGateway,
        run: Callable[[Coroutine[Any, Any, Any]], Any],
        tax_channel_id: str,
        relays: Mapping[str, Relay],
        journal: DeliveryJournal,
        clock: Callable[[], dt.datetime],
        people: cards.People | None = None,
        after_send: Callable[[OutboxMessage, str], None] | None = None,
    ) -> None:
        self.tickets = tickets
        self.gateway = gateway
        self.run = run
        self.tax_channel_id = tax_channel_id
        self.relays = dict(relays)
        self.journal = journal
        self.clock = clock
        self.people = people
        self.after_send = after_send

    def __call__(self, msg: OutboxMessage) -> str:
        handler = {
            "post_card": self._post_card,
            "update_card": self._update_card,
            "relay_answer": self._relay,
            "ask_requester": self._relay,
            "notify_rejected": self._relay,
        }.get(msg.kind)
        if handler is None:
            raise DeliveryError(f"unknown outbox message kind {msg.kind!r}; upgrade the Teams worker")
        try:
            ref = handler(msg)
        except DeliveryUncertain as exc:
            if exc.__cause__ is not None and self._to_teams(msg):  # this attempt's response was lost
                metrics.record_api_error("teams", msg.kind, "response_lost")
            raise
        except DeliveryError as exc:  # the remote side refused; the outbox retries later
            if self._to_teams(msg):  # (a Slack relay's errors are counted by the Slack client)
                metrics.record_api_error("teams", msg.kind, failure_kind(exc))
            raise
        if self.after_send is not None:
            self.after_send(msg, ref)
        return ref

    @staticmethod
    def _to_teams(msg: OutboxMessage) -> bool:
        """The message goes through the Bot Connector (cards; relays to a Teams asker)."""
        if msg.kind in ("post_card", "update_card"):
            return True
        thread = (msg.payload.get("ticket") or {}).get("thread") or {}
        return str(thread.get("platform") or "") == "teams"

    def _channel_data(self, msg: OutboxMessage) -> dict[str, Any]:
        # Carried on the activity so the key is visible on the receiving side (support, audits).
        return {"dasar": {"outbox_key": msg.key, "ticket_id": msg.ticket_id}}

    def _card(self, ticket_id: str) -> dict[str, Any]:
        return cards.ticket_card(self.tickets.get(ticket_id), self.clock(), self.people)

    def _post_card(self, msg: OutboxMessage) -> str:
        known = self.journal.ref(msg.key)
        card = self._card(msg.ticket_id)
        if known is not None:
            self.run(
                self.gateway.update(
                    self.tax_channel_id, known, card=card, channel_data=self._channel_data(msg)
                )
            )
            logger.info("outbox_key=%s | card already posted, updated instead", msg.key)
            return known
        self._begin(msg)
        try:
            activity_id = self.run(
                self.gateway.post(self.tax_channel_id, card=card, channel_data=self._channel_data(msg))
            )
        except Exception as exc:
            self._failed(msg, exc)
            raise
        self.journal.record(msg.key, str(activity_id))
        return str(activity_id)

    def _begin(self, msg: OutboxMessage) -> None:
        """Journal the attempt; refuse to send again when an earlier attempt may already have posted."""
        if self.journal.state(msg.key) == "sending" and msg.redriven_at is None:
            raise DeliveryUncertain(
                f"an earlier send of {msg.key} started and never finished; it may have been posted "
                "(check the tax channel, then `dasar tickets outbox --resolve` or `--redrive`)"
            )
        self.journal.begin(msg.key)

    def _failed(self, msg: OutboxMessage, exc: Exception) -> None:
        """Classify a failed send: maybe delivered (raises DeliveryUncertain, never resent until an
        operator acts) or definitely not (the journal forgets the attempt; the caller re-raises and
        the outbox retries later)."""
        if response_was_lost(exc):
            raise DeliveryUncertain(
                f"the response to {msg.key} was lost ({type(exc).__name__}); it may have been posted"
            ) from exc
        self.journal.abandon(msg.key)  # the remote side answered with an error: nothing was posted

    def _update_card(self, msg: OutboxMessage) -> str:
        ref = self.tickets.outbox.card_ref(msg.ticket_id)
        if ref is None:
            raise DeliveryError(f"ticket {msg.ticket_id} has no delivered card yet; retrying later")
        self.run(
            self.gateway.update(
                self.tax_channel_id, ref, card=self._card(msg.ticket_id), channel_data=self._channel_data(msg)
            )
        )
        return ref

    def _relay(self, msg: OutboxMessage) -> str:
        known = self.journal.ref(msg.key)
        if known is not None:
            return known
        th = msg.payload["ticket"]["thread"]
        thread = ThreadRef(th["platform"], th["tenant"], th["channel"], th["thread_id"])
        relay = self.relays.get(thread.platform)
        if relay is None:
            raise DeliveryError(
                f"no relay configured for platform {thread.platform!r} (ticket {msg.ticket_id})"
            )
        self._begin(msg)
        try:
            ref = self._send_relay(msg, relay, thread)
        except Exception as exc:
            self._failed(msg, exc)
            raise
        self.journal.record(msg.key, ref)
        return ref

    def _send_relay(self, msg: OutboxMessage, relay: Relay, thread: ThreadRef) -> str:
        event = msg.payload["event"]
        tid = msg.ticket_id
        if msg.kind == "relay_answer":
            text = str(event["data"].get("text") or "")
            sources = event["data"].get("sources") or []
            if sources:
                refs = "; ".join(
                    str(s.get("ref") or s.get("number") or s.get("doc_id") or "") for s in sources
                )
                text += "\n" + S.RELAY_SOURCES.format(sources=refs)
            text += f"\n(ticket {tid})"
            responder = self.people(event["actor"]) if self.people else str(event["actor"])
            ref = relay.relay_answer(thread, text, responder, text_to_ts(event["at"]))
        elif msg.kind == "ask_requester":
            ref = relay.relay_notice(
                thread, S.RELAY_ASK.format(ticket_id=tid, text=event["data"].get("question", ""))
            )
        else:
            ref = relay.relay_notice(
                thread, S.RELAY_REJECTED.format(ticket_id=tid, text=event["data"].get("reason", ""))
            )
        return str(ref)
