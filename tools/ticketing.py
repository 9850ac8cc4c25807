"""``create_ticket`` and ``update_ticket``: escalation to the tax team, acting only for this principal.

``create_ticket`` opens (idempotently per conversation thread) a ticket whose evidence is what the turn's
ledger gathered; the requester, thread and masked question come from :class:`tools.deps.ToolDeps`, never
from the model.  ``update_ticket`` adds a note only to a ticket of this requester's own thread, or to any
ticket for the tax team (``may_act_on_tickets``); every other case gets the same refusal text so ticket
ids cannot be probed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from identity.principal import Principal
from tickets.errors import TicketError, TicketNotFound
from tickets.model import REASONS
from tools.access import ticket_reader
from tools.deps import ToolDeps
from tools.ledger import Ledger, LedgerTicket
from tools.strict import ToolOutcome

logger = logging.getLogger(__name__)

NOT_YOURS = "no such ticket or not yours"
UNAVAILABLE = (
    "Error: escalation is not available in this conversation; tell the user to contact the tax team."
)

ReasonName = Literal[REASONS]  # type: ignore[valid-type]


class CreateTicketArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    summary: str = Field(
        min_length=1,
        max_length=1000,
        description="What could not be answered and what the tax team needs to decide (no personal data).",
    )
    reason: ReasonName = Field(
        description="Why you escalate: no_source (no passage answers), low_confidence, "
        "out_of_scope, advice, protected_determination, user_request."
    )


class UpdateTicketArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    ticket_id: str = Field(min_length=1, max_length=32, description="Ticket id such as 'T-000042'.")
    note: str = Field(min_length=1, max_length=2000, description="The note to add (no personal data).")


def make_create_ticket(
    principal: Principal, deps: ToolDeps, ledger: Ledger
) -> Callable[[CreateTicketArgs], ToolOutcome]:
    def create_ticket(args: CreateTicketArgs) -> ToolOutcome:
        """Escalate the user's question to the tax team as a ticket, with the passages found so far.

        Use it when the passages do not answer the question, when the user asks for advice or a
        determination only the tax team may give, or when the user asks for a human. Do not use it when
        the passages answer the question. Only one ticket is open per conversation: calling it again adds
        the new evidence to the same ticket. Answers with the ticket id, or an error when the user may not
        escalate.
        """
        if not principal.may_escalate:
            return ToolOutcome.error(
                "Error: this user may not open tickets; tell them to contact the tax team.", "denied"
            )
        if deps.tickets is None or deps.thread is None or deps.requester is None:
            return ToolOutcome.error(UNAVAILABLE, "unavailable")
        if deps.requester.principal_id != principal.id:
            # Mis-wired deps must not let a turn file a ticket in someone else's name.
            logger.warning("tool=create_ticket | requester does not match the principal, refusing")
            return ToolOutcome.error(UNAVAILABLE, "denied")
        readable = ticket_reader(principal, deps)
        restricted = ledger.restricted_sources(readable)
        gap = f"{args.summary}; {restricted} restricted sources" if restricted else args.summary
        ticket, created = deps.tickets.open_ticket(
            deps.thread,
            deps.requester,
            deps.question_masked,
            deps.facts,
            ledger.evidence(readable),
            gap,
            args.reason,
            topic=deps.topic,
        )
        ledger.record_ticket(LedgerTicket(ticket.id, "opened" if created else "evidence_added", args.reason))
        if created:
            return ToolOutcome(f"Ticket {ticket.id} opened; the tax team will answer in this conversation.")
        return ToolOutcome(
            f"Ticket {ticket.id} is already open for this conversation; the new evidence was added to it."
        )

    return create_ticket


def make_update_ticket(
    principal: Principal, deps: ToolDeps, ledger: Ledger
) -> Callable[[UpdateTicketArgs], ToolOutcome]:
    def update_ticket(args: UpdateTicketArgs) -> ToolOutcome:
        """Add a note to an existing ticket of this conversation (e.g. a detail the user just gave).

        Use it only for a ticket created in this conversation. Answers "note added to T-..." or
        "no such ticket or not yours".
        """
        if deps.tickets is None:
            return ToolOutcome.error(UNAVAILABLE, "unavailable")
        try:
            ticket = deps.tickets.get(args.ticket_id.strip())
        except TicketNotFound:
            return ToolOutcome.error(NOT_YOURS, "denied")
        own = (
            deps.thread is not None
            and ticket.thread.key == deps.thread.key
            and ticket.requester.principal_id == principal.id
        )
        if not (own or principal.may_act_on_tickets):
            return ToolOutcome.error(NOT_YOURS, "denied")
        try:
            deps.tickets.add_note(ticket.id, principal.id, args.note)
        except TicketError as exc:
            logger.info("tool=update_ticket, error=%s | note refused by the store", type(exc).__name__)
            return ToolOutcome.error(
                f"Error: the ticket cannot take notes now ({type(exc).__name__}).", "failed"
            )
        ledger.record_ticket(LedgerTicket(ticket.id, "note_added"))
        return ToolOutcome(f"note added to {ticket.id}")

    return update_ticket
