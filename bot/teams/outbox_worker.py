"""Delivers the ticket outbox to Teams (cards) and to askers (relays); expires FAQs on the way.

Runs inside the Teams web app (a background task, woken after every card action) or as its own process
(:func:`bot.teams.app.run_worker`), e.g. beside a bot that only opens tickets.  Several workers may run
at once: the outbox leases each message, so a message is sent by one worker at a time; a worker killed
mid-send leaves the message pending, it becomes due again when the lease ends, and the sender's journal
turns the redelivery into an update (see :mod:`bot.teams.sender`).  This module never imports the app.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Callable

from bot.faq import FaqService
from tickets import DeliveryResult, TicketStore
from tickets.outbox import Sender

logger = logging.getLogger(__name__)


class OutboxWorker:
    """One delivery loop over a ticket store's outbox.

    Args:
        tickets: the ticket store whose outbox is delivered.
        sender: the outbox sender (:class:`bot.teams.sender.OutboxSender`).
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
        self.sender = sender
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
