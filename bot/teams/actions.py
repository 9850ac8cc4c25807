"""What a card button does, independent of how the click arrived (invoke, Submit, a test).

Why separate from the bot class: the rules (who may click, what the ticket state machine allows, what
the clicker is told) are the product; the Bot Framework plumbing is replaceable.  Nothing here imports
botbuilder.

Order of checks for every click: the data is ours and well-formed -> the person has the role
(``tax_team`` for ticket actions, ``faq_approver`` to approve an FAQ) -> required inputs present -> the
ticket store applies the transition atomically (it raises :class:`tickets.TicketError` for illegal
transitions, a lost concurrent claim, or a non-assignee answering).  Every refusal becomes an
:class:`ActionOutcome` with ``ok=False`` and a message for the clicker; nothing is half-done.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.faq import FaqError, FaqService
from bot.teams import cards
from bot.teams import strings as S
from bot.teams.errors import ActionRejected, BadActionData, NotPermitted
from identity.principal import Principal
from kb.refs import find_doc_refs
from tickets import TicketError, TicketStore
from tickets.model import VERDICTS, Feedback

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class CardAction:
    """A parsed button click: verb, target, and the card's input values."""

    verb: str
    ticket_id: str | None = None
    doc_id: str | None = None
    inputs: dict[str, str] = field(default_factory=dict)
    #: Answer-card actions: the answer reference and its ``v``/``s``/``b``/``c``/``l`` fields.
    ref: str | None = None
    answer: dict[str, str] = field(default_factory=dict)


def is_card_data(value: object) -> bool:
    """True when an activity ``value`` (Submit) or action ``data`` (Execute) comes from our cards."""
    return isinstance(value, Mapping) and value.get(cards.DATA_TAG) == cards.DATA_VERSION


def parse_action(data: Mapping[str, Any], verb: str | None = None) -> CardAction:
    """Parse Execute ``data`` (+ its ``verb``) or a Submit ``value`` into a :class:`CardAction`.

    Raises:
        BadActionData: not our data, unknown verb, or the target id is missing.
    """
    if not is_card_data(data):
        raise BadActionData("this button does not belong to a dasar card")
    verb = verb or str(data.get("verb") or "")
    if verb not in cards.VERBS:
        raise BadActionData(S.UNKNOWN_ACTION.format(verb=verb or "-"))
    inputs = {
        k: str(data[k]).strip()
        for k in (cards.IN_ANSWER, cards.IN_SOURCES, cards.IN_ASK, cards.IN_REJECT, cards.IN_COMMENT)
        if data.get(k) not in (None, "")
    }
    if verb in cards.ANSWER_VERBS:
        ref = str(data.get("ref") or "")
        if not ref:
            raise BadActionData("the button lacks its answer reference; ask the question again")
        fields = {k: str(data[k])[:64] for k in ("v", "s", "b", "c", "l") if data.get(k) not in (None, "")}
        if verb == cards.FEEDBACK and fields.get("v") not in VERDICTS:
            raise BadActionData("the feedback button lacks its verdict")
        return CardAction(verb, inputs=inputs, ref=ref, answer=fields)
    ticket_id = str(data["ticket_id"]) if data.get("ticket_id") else None
    doc_id = str(data["doc_id"]) if data.get("doc_id") else None
    if verb == cards.APPROVE_FAQ and not doc_id:
        raise BadActionData("the FAQ button lacks its document id; re-open the FAQ card")
    if verb != cards.APPROVE_FAQ and not ticket_id:
        raise BadActionData("the button lacks its ticket id; re-open the ticket card")
    return CardAction(verb, ticket_id, doc_id, inputs)


@dataclass(frozen=True)
class ActionOutcome:
    """Result of one click: what to tell the clicker, the refreshed card, and cards to post."""

    ok: bool
    message: str
    card: dict[str, Any] | None = None
    post_cards: tuple[dict[str, Any], ...] = ()


def actor_id(principal: Principal) -> str:
    """How a person is recorded on tickets: their directory email (stable across Slack/Teams/CLI)."""
    return principal.email or principal.id


def parse_sources(
    text: str, lookup: Callable[[str], Mapping[str, Any] | None] | None = None
) -> list[dict[str, Any]]:
    """Cited-document input (one per line or ``;``) -> source dicts; KB documents are resolved by number.

    ``PMK 168/2023 Pasal 7`` -> ``{"ref": ..., "number": "PMK 168/2023", "location": "Pasal 7",
    "doc_id": "pmk-168-2023", "title": ..., "url": ...}`` when the KB knows the number.
    """
    out: list[dict[str, Any]] = []
    for raw in re.split(r"[\n;]+", text or ""):
        line = " ".join(raw.split())
        if not line:
            continue
        src: dict[str, Any] = {"ref": line}
        refs = find_doc_refs(line)
        if refs:
            src["number"] = refs[0].key
            rest = (line[: refs[0].start] + line[refs[0].end :]).strip(" ,-")
            if rest:
                src["location"] = rest
            found = lookup(refs[0].key) if lookup else None
            if found:
                src.update({k: v for k, v in found.items() if v})
        out.append(src)
    return out


class ActionHandler:
    """Applies card actions to the ticket store and the FAQ service.

    Args:
        tickets: the ticket store (its state machine is the authority).
        faq: reviewed-FAQ service; None disables Propose/Approve.
        doc_lookup: ``number -> {doc_id, title, url}`` for cited documents (from the KB), optional.
        clock: current time for card ages.
        people: actor id -> display name for cards.
        escalate: "Ask the tax team" from an answer card: ``(principal, action) -> message`` (the bot
            wires the turn's ``escalate`` for the clicked conversation); None -> the button explains
            how to ask instead.
        mask: PII masking of feedback comments before they are stored.
    """

    def __init__(
        self,
        tickets: TicketStore,
        *,
        faq: FaqService | None = None,
        doc_lookup: Callable[[str], Mapping[str, Any] | None] | None = None,
        clock: Callable[[], dt.datetime],
        people: cards.People | None = None,
        escalate: Callable[[Principal, CardAction], str] | None = None,
        mask: Callable[[str], str | None] | None = None,
    ) -> None:
        self.tickets = tickets
        self.escalate = escalate
        self.mask = mask
        self.faq = faq
        self.doc_lookup = doc_lookup
        self.clock = clock
        self.people = people

    def handle(self, principal: Principal, action: CardAction) -> ActionOutcome:
        """Apply ``action`` for ``principal``; never raises for a refusal (see :class:`ActionOutcome`)."""
        try:
            outcome = self._apply(principal, action)
        except (ActionRejected, TicketError, FaqError) as exc:
            logger.info(
                "verb=%s, ticket_id=%s, error=%s | card action refused",
                action.verb,
                action.ticket_id,
                type(exc).__name__,
            )
            card = self._current_card(action)
            message = str(exc) if isinstance(exc, ActionRejected) else S.TICKET_ERROR.format(error=exc)
            return ActionOutcome(False, message, card)
        logger.info("verb=%s, ticket_id=%s | card action applied", action.verb, action.ticket_id)
        return outcome

    def _current_card(self, action: CardAction) -> dict[str, Any] | None:
        try:
            if action.ticket_id:
                return cards.ticket_card(self.tickets.get(action.ticket_id), self.clock(), self.people)
            if action.doc_id and self.faq is not None:
                return cards.faq_card(self.faq.get(action.doc_id), self.people)
        except (TicketError, FaqError):
            return None
        return None

    def _require(self, value: str | None, message: str) -> str:
        if not value:
            raise BadActionData(message)
        return value

    def _answer_action(self, principal: Principal, action: CardAction) -> ActionOutcome:
        """Feedback / "Ask the tax team" from the asker's answer card (any identified user)."""
        language = action.answer.get("l", "id")
        if action.verb == cards.ASK_TAX_TEAM:
            if self.escalate is None:
                return ActionOutcome(False, S.answer_text("escalate_unavailable", language))
            return ActionOutcome(True, self.escalate(principal, action))
        record = getattr(self.tickets, "record_feedback", None)
        if record is None:
            raise BadActionData("feedback is not stored by this ticket backend")
        comment = action.inputs.get(cards.IN_COMMENT, "")
        mask = self.mask or _mask_comment
        record(
            Feedback(
                answer_ref=str(action.ref),
                user_id=principal.id,
                platform=principal.platform,
                tenant=principal.tenant,
                corpus_version=action.answer.get("c", ""),
                answer_status=action.answer.get("s", ""),
                confidence_band=action.answer.get("b", ""),
                verdict=action.answer["v"],
                comment_masked=mask(comment) if comment else None,
            )
        )
        return ActionOutcome(True, S.answer_text("feedback_thanks", language))

    def _apply(self, principal: Principal, action: CardAction) -> ActionOutcome:
        if action.verb in cards.ANSWER_VERBS:
            return self._answer_action(principal, action)
        if action.verb == cards.APPROVE_FAQ:
            if not principal.may_approve_faq:
                raise NotPermitted(S.NOT_APPROVER)
            if self.faq is None:
                raise BadActionData(S.FAQ_NOT_CONFIGURED)
            if action.doc_id is None:
                raise BadActionData("the FAQ button lacks its document id; re-open the FAQ card")
            doc = self.faq.approve_faq(action.doc_id, principal)
            return ActionOutcome(
                True, S.OK_FAQ_APPROVED.format(doc_id=doc.doc_id), cards.faq_card(doc, self.people)
            )
        if principal.is_guest or not principal.may_act_on_tickets:
            raise NotPermitted(S.NOT_TAX_TEAM)
        tid = action.ticket_id
        if tid is None:
            raise BadActionData("the button lacks its ticket id; re-open the ticket card")
        actor = actor_id(principal)
        post: tuple[dict[str, Any], ...] = ()
        if action.verb == cards.CLAIM:
            ticket = self.tickets.claim(tid, actor)
            message = S.OK_CLAIMED.format(ticket_id=tid)
        elif action.verb == cards.ANSWER:
            text = self._require(action.inputs.get(cards.IN_ANSWER), S.NEED_ANSWER_TEXT)
            sources = parse_sources(action.inputs.get(cards.IN_SOURCES, ""), self.doc_lookup)
            ticket = self.tickets.answer(tid, actor, text, sources)
            message = S.OK_ANSWERED.format(ticket_id=tid)
        elif action.verb == cards.ASK_INFO:
            question = self._require(action.inputs.get(cards.IN_ASK), S.NEED_ASK_TEXT)
            ticket = self.tickets.ask_info(tid, actor, question)
            message = S.OK_ASKED.format(ticket_id=tid)
        elif action.verb == cards.CLOSE:
            ticket = self.tickets.close(tid, actor)
            message = S.OK_CLOSED.format(ticket_id=tid)
        elif action.verb == cards.REJECT:
            reason = self._require(action.inputs.get(cards.IN_REJECT), S.NEED_REJECT_REASON)
            ticket = self.tickets.reject(tid, actor, reason)
            message = S.OK_REJECTED.format(ticket_id=tid)
        elif action.verb == cards.PROPOSE_FAQ:
            ticket = self.tickets.get(tid)
            if not ticket.answer or ticket.status not in ("answered", "closed"):
                raise BadActionData(S.NEED_ANSWERED_FOR_FAQ)
            if self.faq is None:
                raise BadActionData(S.FAQ_NOT_CONFIGURED)
            doc_id = self.faq.propose_faq(ticket, principal)
            post = (cards.faq_card(self.faq.get(doc_id), self.people),)
            message = S.OK_FAQ_PROPOSED.format(doc_id=doc_id, ticket_id=tid)
        else:  # pragma: no cover - parse_action admits only known verbs
            raise BadActionData(S.UNKNOWN_ACTION.format(verb=action.verb))
        return ActionOutcome(True, message, cards.ticket_card(ticket, self.clock(), self.people), post)


def _mask_comment(text: str) -> str | None:
    """Feedback comments are masked like every inbound text; a comment holding a secret is dropped."""
    from guardrails.inbound import inspect
    from guardrails.pii import MaskingSession

    inspection = inspect(text, MaskingSession())
    return None if inspection.refused else inspection.masked.strip() or None
