"""Delivers the ticket outbox to Teams (cards) and to askers (relays); expires FAQs on the way.

Runs inside the Teams web app (a background task, woken after every card action) or as its own process
(:func:`bot.teams.app.run_worker`), e.g. beside a bot that only opens tickets.  Several workers may run
at once: the outbox leases each message, so a message is sent by one worker at a time; a worker killed
mid-send leaves the message pending, it becomes due again when the lease ends, and the sender's journal
turns the redelivery into an update (see :mod:`bot.teams.sender`).  This module never imports the app.

Notices (``notice_card`` messages: the card telling an FAQ owner or a ticket assignee that a corpus
change affected their FAQ or ticket, queued by :mod:`bot.impact`) are posted by :class:`NoticeSender`,
which the worker puts in front of the ticket sender: the card from the message's payload is posted to the
tax-team channel, where its mention notifies the person.  The same journal makes a redelivery after a
crash return the posted activity instead of posting twice, and a lost response parks it as uncertain.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Callable
from typing import Any

from bot import metrics
from bot.faq import FaqService
from bot.teams.connector import failure_kind, response_was_lost
from bot.teams.errors import DeliveryError
from bot.teams.sender import OutboxSender
from tickets import DeliveryResult, DeliveryUncertain, OutboxMessage, TicketStore
from tickets.outbox import KIND_NOTICE, Sender

logger = logging.getLogger(__name__)


class NoticeSender:
    """``Sender`` that posts notice cards itself and hands every other message to the ticket sender.

    Args:
        inner: the ticket outbox sender; its gateway, loop bridge, tax-team channel and journal are used.
    """

    def __init__(self, inner: OutboxSender) -> None:
        self.inner = inner

    def __call__(self, msg: OutboxMessage) -> str:
        if msg.kind != KIND_NOTICE:
            return self.inner(msg)
        try:
            ref = self._post_notice(msg)
        except DeliveryUncertain as exc:
            if exc.__cause__ is not None:
                metrics.record_api_error("teams", msg.kind, "response_lost")
            raise
        except DeliveryError as exc:
            metrics.record_api_error("teams", msg.kind, failure_kind(exc))
            raise
        if self.inner.after_send is not None:
            self.inner.after_send(msg, ref)
        return ref

    def _post_notice(self, msg: OutboxMessage) -> str:
        journal, key = self.inner.journal, msg.key
        known = journal.ref(key)
        if known is not None:  # posted before a crash; the card never changes, so nothing to update
            logger.info("outbox_key=%s | notice already posted", key)
            return known
        card = msg.payload.get("card")
        if not isinstance(card, dict):
            raise DeliveryError(f"notice {key} carries no card; re-assess the change (`dasar kb impact`)")
        if journal.state(key) == "sending" and msg.redriven_at is None:
            raise DeliveryUncertain(
                f"an earlier send of {key} started and never finished; it may have been posted "
                "(check the tax channel, then `dasar tickets outbox --resolve` or `--redrive`)"
            )
        journal.begin(key)
        channel_data: dict[str, Any] = {"dasar": {"outbox_key": key, "ticket_id": msg.ticket_id or None}}
        try:
            activity_id = self.inner.run(
                self.inner.gateway.post(self.inner.tax_channel_id, card=card, channel_data=channel_data)
            )
        except Exception as exc:
            if response_was_lost(exc):
                raise DeliveryUncertain(
                    f"the response to {key} was lost ({type(exc).__name__}); it may have been posted"
                ) from exc
            journal.abandon(key)  # an error response: nothing was posted, the outbox retries later
            raise
        journal.record(key, str(activity_id))
        logger.info("outbox_key=%s, activity_id=%s | notice card posted", key, activity_id)
        return str(activity_id)


def with_notices(sender: Sender) -> Sender:
    """``sender`` able to deliver notice cards: a Teams :class:`OutboxSender` gets a :class:`NoticeSender`
    in front of it; any other sender (a test double) is used as it is."""
    return NoticeSender(sender) if isinstance(sender, OutboxSender) else sender


class OutboxWorker:
    """One delivery loop over a ticket store's outbox.

    Args:
        tickets: the ticket store whose outbox is delivered.
        sender: the outbox sender (:class:`bot.teams.sender.OutboxSender`; notices are added to it, see
            :func:`with_notices`).
        clock: current time (timezone-aware).
        faq: when given, :meth:`FaqService.expire_faqs` runs once per poll.
    """

    def __init__(
        self,
        tickets: TicketStore,
        sender: Sender,
        *,
        clock: Callable[[], dt.datetime],
        faq: FaqService | None = None,
    ) -> None:
        self.tickets = tickets
        self.sender = with_notices(sender)
        self.clock = clock
        self.faq = faq
        self._wake = asyncio.Event()
        self._soon: asyncio.Task[None] | None = None
        self._again = False

    def run_once(self) -> DeliveryResult:
        """Deliver everything due now (blocking; call it off the event loop the sender bridges to)."""
        result = self.tickets.outbox.deliver_pending(self.sender, self.clock())
        if result.delivered or result.failed or result.dead:
            logger.info(
                "delivered=%d, failed=%d, dead=%d | outbox run",
                len(result.delivered),
                len(result.failed),
                len(result.dead),
            )
        return result

    async def flush(self) -> DeliveryResult:
        """Deliver what is due now from async code (runs :meth:`run_once` in a thread)."""
        return await asyncio.to_thread(self.run_once)

    def flush_soon(self) -> None:
        """Deliver in the background, now (after a card action or a new ticket); never waits.

        Single flight: a request while a delivery runs makes exactly one more run after it (so a change
        made during a run is delivered), however many requests came in.  Call from the event loop.
        """
        if self._soon is not None and not self._soon.done():
            self._again = True
            return
        self._soon = asyncio.get_running_loop().create_task(self._flush_until_quiet())

    async def _flush_until_quiet(self) -> None:
        while True:
            self._again = False
            try:
                await self.flush()
            except Exception as exc:  # the message stays pending; the next run retries it
                logger.warning("error=%s | background outbox run failed", type(exc).__name__)
            if not self._again:
                return

    @property
    def busy(self) -> bool:
        """A background delivery started by :meth:`flush_soon` is running."""
        return self._soon is not None and not self._soon.done()

    async def idle(self) -> None:
        """Wait until no background delivery started by :meth:`flush_soon` is running."""
        while self._soon is not None and not self._soon.done():
            await asyncio.wait({self._soon})

    def wake(self) -> None:
        """Ask the background loop for an immediate run (after a card action)."""
        self._wake.set()

    async def run_forever(self, poll_seconds: float, stop: asyncio.Event) -> None:
        """Poll until ``stop`` is set; failures are logged and retried next poll (never crash the bot)."""
        while not stop.is_set():
            try:
                await self.flush()
                if self.faq is not None:
                    await asyncio.to_thread(self.faq.expire_faqs, self.clock())
            except Exception as exc:
                logger.warning("error=%s | outbox worker run failed", type(exc).__name__)
            self._wake.clear()
            waiter = asyncio.ensure_future(self._wake.wait())
            stopper = asyncio.ensure_future(stop.wait())
            await asyncio.wait({waiter, stopper}, timeout=poll_seconds, return_when=asyncio.FIRST_COMPLETED)
            for fut in (waiter, stopper):
                fut.cancel()
