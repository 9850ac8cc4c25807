"""Adaptive Card JSON for the tax team: the ticket card and the FAQ approval card (plain dicts).

Why plain dicts and no SDK: cards are data; tests compare them directly and the Bot Framework SDK can
be swapped without touching them.  Schema 1.4 (Universal Actions): every button is an ``Action.Execute``
with a ``verb`` and ``data`` (-> ``adaptiveCard/action`` invoke), with an ``Action.Submit`` ``fallback``
carrying the same data for clients without Universal Actions (-> message activity with ``value``).
Both paths end in :func:`bot.teams.actions.parse_action`.

Cards are rendered from the CURRENT ticket, never from an event snapshot, so a re-delivered or
reordered update can only make the card more current.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.faq import FaqDoc
from bot.teams import strings as S
from tickets.model import Ticket

CARD_CONTENT_TYPE = "application/vnd.microsoft.card.adaptive"
SCHEMA = "http://adaptivecards.io/schemas/adaptive-card.json"
VERSION = "1.4"
#: Marks data as ours (``value["dasar"]``), so other Submit payloads are not mistaken for card actions.
DATA_TAG = "dasar"
DATA_VERSION = 1

# Verbs (Action.Execute ``verb``; also ``data["verb"]`` for the Submit fallback).
CLAIM, ANSWER, ASK_INFO, CLOSE, REJECT, PROPOSE_FAQ, APPROVE_FAQ = (
    "claim",
    "answer",
    "ask_info",
    "close",
    "reject",
    "propose_faq",
    "approve_faq",
)
VERBS: tuple[str, ...] = (CLAIM, ANSWER, ASK_INFO, CLOSE, REJECT, PROPOSE_FAQ, APPROVE_FAQ)

# Input ids (their values are merged into the action data by the client).
IN_ANSWER, IN_SOURCES, IN_ASK, IN_REJECT = "answer_text", "answer_sources", "info_question", "reject_reason"

People = Callable[[str], str]
"""Display name for an actor id (email); identity by default."""


def _text(text: str, **kw: Any) -> dict[str, Any]:
    return {"type": "TextBlock", "text": text, "wrap": True, **kw}


def _heading(text: str) -> dict[str, Any]:
    return _text(text, weight="Bolder", spacing="Medium")


def action_data(verb: str, **fields: str) -> dict[str, Any]:
    """The ``data`` of a button: our tag, the verb, and what it acts on."""
    return {DATA_TAG: DATA_VERSION, "verb": verb, **fields}


def execute(title: str, verb: str, style: str | None = None, **fields: str) -> dict[str, Any]:
    """``Action.Execute`` with an ``Action.Submit`` fallback carrying identical data."""
    data = action_data(verb, **fields)
    act: dict[str, Any] = {
        "type": "Action.Execute",
        "title": title,
        "verb": verb,
        "data": data,
        "fallback": {"type": "Action.Submit", "title": title, "data": data},
    }
    if style:
        act["style"] = style
    return act


def _show_card(title: str, body: list[dict[str, Any]], submit: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "Action.ShowCard",
        "title": title,
        "card": {"type": "AdaptiveCard", "body": body, "actions": [submit]},
    }


def _input(input_id: str, label: str, required: bool, multiline: bool = True) -> dict[str, Any]:
    return {
        "type": "Input.Text",
        "id": input_id,
        "label": label,
        "isMultiline": multiline,
        "isRequired": required,
        "errorMessage": label,
    }


def _fmt_ts(ts: dt.datetime) -> str:
    return ts.astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


def _citation(item: Mapping[str, Any]) -> str:
    ref = str(
        item.get("number") or item.get("ref") or item.get("doc_id") or item.get("source_id") or "source"
    )
    if item.get("location"):
        ref += f" {item['location']}"
    url = item.get("url") or item.get("source_url")
    return f"[{ref}]({url})" if url else ref


def _evidence_blocks(ticket: Ticket) -> list[dict[str, Any]]:
    ev = ticket.evidence
    if not ev.claims and not ev.citations:
        return [_text(S.NO_EVIDENCE, isSubtle=True)]
    blocks: list[dict[str, Any]] = []
    for claim in ev.claims:
        blocks.append(_text(f"- {claim.get('text', '')}"))
        if claim.get("quote"):
            blocks.append(
                _text(f"\u201c{' '.join(str(claim['quote']).split())}\u201d", isSubtle=True, spacing="None")
            )
        blocks.append(_text(_citation(claim), size="Small", spacing="None"))
    for cit in ev.citations:
        blocks.append(_text(f"- {_citation(cit)}", size="Small"))
    return blocks


def ticket_actions(ticket: Ticket) -> list[dict[str, Any]]:
    """Buttons for the ticket's status (the store re-checks every click against the state machine)."""
    tid = ticket.id
    answer = _show_card(
        S.BTN_ANSWER,
        [_input(IN_ANSWER, S.INPUT_ANSWER, True), _input(IN_SOURCES, S.INPUT_SOURCES, False)],
        execute(S.BTN_SEND_ANSWER, ANSWER, "positive", ticket_id=tid),
    )
    ask = _show_card(
        S.BTN_ASK, [_input(IN_ASK, S.INPUT_ASK, True)], execute(S.BTN_SEND_ASK, ASK_INFO, ticket_id=tid)
    )
    reject = _show_card(
        S.BTN_REJECT,
        [_input(IN_REJECT, S.INPUT_REJECT, True)],
        execute(S.BTN_SEND_REJECT, REJECT, "destructive", ticket_id=tid),
    )
    faq = execute(S.BTN_PROPOSE_FAQ, PROPOSE_FAQ, ticket_id=tid)
    by_status: dict[str, list[dict[str, Any]]] = {
        "open": [execute(S.BTN_CLAIM, CLAIM, "positive", ticket_id=tid), ask, reject],
        "claimed": [answer, ask, reject],
        "needs_info": [reject],
        "answered": [execute(S.BTN_CLOSE, CLOSE, ticket_id=tid), faq],
        "closed": [faq],
        "rejected": [],
    }
    return by_status.get(ticket.status, [])


def ticket_card(ticket: Ticket, now: dt.datetime, people: People | None = None) -> dict[str, Any]:
    """The tax team's card for ``ticket`` as of ``now`` (deterministic for equal inputs)."""
    name = people or (lambda actor: actor)
    req = ticket.requester
    who = req.display_name or req.user_id
    if req.email:
        who += f" <{req.email}>"
    age = (now - ticket.created_at).total_seconds()
    facts = [
        {"title": S.LABEL_STATUS, "value": S.STATUS_LABELS.get(ticket.status, ticket.status)},
        {"title": S.LABEL_REASON, "value": S.REASON_LABELS.get(ticket.reason, ticket.reason)},
        {"title": S.LABEL_REQUESTER, "value": who},
        {
            "title": S.LABEL_AGE,
            "value": S.AGE_FORMAT.format(opened=_fmt_ts(ticket.created_at), age=S.duration_text(age)),
        },
        {"title": S.LABEL_ASSIGNEE, "value": name(ticket.assignee) if ticket.assignee else S.NOBODY},
    ]
    if ticket.topic:
        facts.append({"title": S.LABEL_TOPIC, "value": ticket.topic})
    body: list[dict[str, Any]] = [
        _text(
            S.CARD_TITLE.format(
                ticket_id=ticket.id, status=S.STATUS_LABELS.get(ticket.status, ticket.status)
            ),
            size="Large",
            weight="Bolder",
        ),
        {"type": "FactSet", "facts": facts},
        _heading(S.HEADING_QUESTION),
        _text(ticket.question_masked),
        _heading(S.HEADING_FACTS),
        *([_text(f"- {f}") for f in ticket.facts] or [_text(S.NONE_GIVEN, isSubtle=True)]),
        _heading(S.HEADING_EVIDENCE),
        *_evidence_blocks(ticket),
        _heading(S.HEADING_MISSING),
        _text(ticket.gap or S.NONE_GIVEN),
    ]
    if ticket.answer:
        body.append(
            _heading(
                S.HEADING_ANSWER.format(
                    responder=name(ticket.answer_by or "?"),
                    date=_fmt_ts(ticket.status_since or ticket.updated_at),
                )
            )
        )
        body.append(_text(ticket.answer))
        if ticket.answer_sources:
            body.append(
                _text(
                    S.HEADING_ANSWER_SOURCES + ": " + "; ".join(_citation(s) for s in ticket.answer_sources),
                    size="Small",
                )
            )
    return {
        "type": "AdaptiveCard",
        "$schema": SCHEMA,
        "version": VERSION,
        "body": body,
        "actions": ticket_actions(ticket),
        # Lets a client show the card for every viewer (no per-user refresh); version aids debugging.
        "metadata": {"webUrl": f"dasar://tickets/{ticket.id}?v={ticket.version}"},
    }


def faq_card(doc: FaqDoc, people: People | None = None) -> dict[str, Any]:
    """Approval card of an FAQ draft (an Approve button while it is a draft)."""
    name = people or (lambda actor: actor)
    facts = [
        {"title": S.FAQ_LABEL_SOURCE_TICKET, "value": doc.ticket_id},
        {"title": S.FAQ_LABEL_OWNER, "value": name(doc.owner) if doc.owner else "-"},
        {"title": S.FAQ_LABEL_REVIEW_BY, "value": doc.review_by.isoformat() if doc.review_by else "-"},
        {"title": S.FAQ_LABEL_ACCESS, "value": ", ".join(doc.access)},
    ]
    if doc.approved_by:
        facts.append({"title": S.FAQ_LABEL_APPROVED_BY, "value": name(doc.approved_by)})
    body: list[dict[str, Any]] = [
        _text(S.FAQ_CARD_TITLE.format(doc_id=doc.doc_id, status=doc.status), size="Large", weight="Bolder"),
        {"type": "FactSet", "facts": facts},
        _heading(S.FAQ_HEADING_QUESTION),
        _text(doc.question),
        _heading(S.FAQ_HEADING_ANSWER),
        _text(doc.answer),
    ]
    if doc.sources:
        body.append(_heading(S.HEADING_ANSWER_SOURCES))
        body += [_text(f"- {s}", size="Small") for s in doc.sources]
    actions = (
        [execute(S.BTN_APPROVE_FAQ, APPROVE_FAQ, "positive", doc_id=doc.doc_id)]
        if doc.status == "draft"
        else []
    )
    return {"type": "AdaptiveCard", "$schema": SCHEMA, "version": VERSION, "body": body, "actions": actions}


def attachment(card: Mapping[str, Any]) -> dict[str, Any]:
    """Activity attachment wrapping a card."""
    return {"contentType": CARD_CONTENT_TYPE, "content": dict(card)}


def card_invoke_response(card: Mapping[str, Any]) -> dict[str, Any]:
    """``adaptiveCard/action`` response that replaces the card for the clicker."""
    return {"statusCode": 200, "type": CARD_CONTENT_TYPE, "value": dict(card)}


def message_invoke_response(text: str) -> dict[str, Any]:
    """``adaptiveCard/action`` response that shows ``text`` to the clicker and leaves the card alone."""
    return {"statusCode": 200, "type": "application/vnd.microsoft.activity.message", "value": text}


def texts_of(card: Mapping[str, Any]) -> list[str]:
    """All TextBlock texts and FactSet values of a card, depth-first (for tests and logs)."""
    out: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, Mapping):
            if node.get("type") == "TextBlock":
                out.append(str(node.get("text", "")))
            if node.get("type") == "FactSet":
                out.extend(f"{f['title']}: {f['value']}" for f in node.get("facts", ()))
            for key in ("body", "card", "items", "columns"):
                if key in node:
                    walk(node[key])
        elif isinstance(node, Sequence) and not isinstance(node, str):
            for item in node:
                walk(item)

    walk(card)
    return out


def verbs_of(card: Mapping[str, Any]) -> list[str]:
    """Verbs of every Action.Execute on a card, including those inside ShowCards (for tests)."""
    out: list[str] = []

    def walk(actions: Sequence[Mapping[str, Any]]) -> None:
        for act in actions:
            if act.get("type") == "Action.Execute":
                out.append(str(act["verb"]))
            elif act.get("type") == "Action.ShowCard":
                walk(act["card"].get("actions", ()))

    walk(card.get("actions", ()))
    return out
