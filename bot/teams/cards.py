"""Adaptive Card JSON: the tax team's ticket and FAQ cards, and the asker's answer card (plain dicts).

Why plain dicts and no SDK: cards are data; tests compare them directly (and validate them against the
Adaptive Cards JSON schema of the declared version) and the Bot Framework SDK can be swapped without
touching them.  Every card declares 1.5 and uses nothing newer.  Buttons are ``Action.Execute`` with a
``verb`` and ``data`` (-> ``adaptiveCard/action`` invoke) and an ``Action.Submit`` ``fallback`` carrying
the same data for clients without Universal Actions (-> message activity with ``value``).  Both paths end
in :func:`bot.teams.actions.parse_action`.

The answer card (:func:`answer_card`, :func:`answer_activity`): the short answer, each claim with its
quote and citation, withheld claims and conflicts in words, the sources line, feedback and "Ask the tax
team" actions; the activity carries Teams' AI-generated label and citation entities (``[n]`` in the
text = claim ``n``).  Cards are capped at :data:`MAX_CARD_BYTES` (Teams refuses messages over ~28 KB):
claims that do not fit are dropped from the end with a note.

Cards are rendered from the CURRENT ticket, never from an event snapshot, so a re-delivered or
reordered update can only make the card more current.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from bot.answer.model import claim_heading
from bot.faq import FaqDoc
from bot.teams import strings as S
from tickets.model import Ticket

CARD_CONTENT_TYPE = "application/vnd.microsoft.card.adaptive"
SCHEMA = "http://adaptivecards.io/schemas/adaptive-card.json"
VERSION = "1.5"
#: Serialized card limit (Teams rejects message payloads over about 28 KB).
MAX_CARD_BYTES = 27_000
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
# Verbs of the asker's answer card (carry the answer reference ``ref``, not a ticket id).
FEEDBACK, ASK_TAX_TEAM = "answer_feedback", "ask_tax_team"
ANSWER_VERBS: tuple[str, ...] = (FEEDBACK, ASK_TAX_TEAM)
VERBS: tuple[str, ...] = (CLAIM, ANSWER, ASK_INFO, CLOSE, REJECT, PROPOSE_FAQ, APPROVE_FAQ, *ANSWER_VERBS)

# Input ids (their values are merged into the action data by the client).
IN_ANSWER, IN_SOURCES, IN_ASK, IN_REJECT = "answer_text", "answer_sources", "info_question", "reject_reason"
IN_COMMENT = "feedback_comment"

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
    url = item.get("law_url") or item.get("url") or item.get("source_url")
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


# -- impact notices: a corpus change affected someone's FAQ or ticket -------------------------------

#: At most this many changed provisions / citations are listed on a notice card (the rest are counted).
MAX_NOTICE_ITEMS = 12


def mention_text(name: str) -> str:
    """The ``<at>name</at>`` markup a Teams mention entity points at (must match the card text exactly)."""
    return f"<at>{name}</at>"


def mention_entity(mention_id: str, name: str) -> dict[str, Any]:
    """A Teams mention (``msteams.entities`` of an Adaptive Card): ``mention_id`` is the person's Entra ID
    object id or UPN (e-mail), both accepted by Teams for bots' Adaptive Cards; it notifies the person."""
    return {"type": "mention", "text": mention_text(name), "mentioned": {"id": mention_id, "name": name}}


def _window_text(window: Sequence[Any] | None) -> str:
    """A ``[valid_from, valid_to)`` window (ISO dates or None) in words."""
    start, end = [*(window or ()), None, None][:2]
    if start and end:
        return S.NOTICE_WINDOW_FROM_TO.format(start=start, end=end)
    if start:
        return S.NOTICE_WINDOW_FROM.format(start=start)
    return S.NOTICE_WINDOW_TO.format(end=end) if end else S.NOTICE_WINDOW_OPEN


def change_text(change: Mapping[str, Any]) -> str:
    """One changed provision in words: where it is and what changed (wording, validity, removal)."""
    where = f"{change.get('location') or change.get('chunk_id')} ({change.get('doc_id')})"
    kind = change.get("change")
    if kind == "validity":
        return S.NOTICE_CHANGE_VALIDITY.format(
            where=where,
            before=_window_text(change.get("valid_before")),
            after=_window_text(change.get("valid_after")),
        )
    if kind == "removed":
        return S.NOTICE_CHANGE_REMOVED.format(where=where)
    return S.NOTICE_CHANGE_WORDING.format(where=where)


def _bullets(items: Sequence[str]) -> list[dict[str, Any]]:
    shown = [_text(f"- {safe_markdown(i)}", size="Small", spacing="None") for i in items[:MAX_NOTICE_ITEMS]]
    if len(items) > MAX_NOTICE_ITEMS:
        shown.append(_text(f"(+{len(items) - MAX_NOTICE_ITEMS})", size="Small", isSubtle=True))
    return shown


def impact_notice_card(notice: Mapping[str, Any]) -> dict[str, Any]:
    """The card telling one person that a corpus change affected their FAQ or ticket, @mentioning them.

    ``notice`` is what :mod:`bot.impact` queues (``payload["notice"]``): ``subject_kind`` (``faq`` or
    ``ticket``), ``subject_id``, ``title``, ``status``, ``mention`` (``id``, ``name``), ``documents``
    (what changed it), ``citations`` (what the subject cites), ``changes`` (the changed chunks, as
    :meth:`kb.impact.ChunkChange.to_json`), ``impact_id`` and ``at``.  The mention entity sits in the
    card's ``msteams`` property (Teams-only; not part of the Adaptive Cards schema).
    """
    mention = notice["mention"]
    name = str(mention["name"])
    who = mention_text(name) if mention.get("id") else safe_markdown(name)  # no id: named, not mentioned
    sid = str(notice["subject_id"])
    status = str(notice.get("status") or "")
    if notice["subject_kind"] == "faq":
        title = S.NOTICE_TITLE_FAQ.format(faq_id=sid)
        intro = S.NOTICE_INTRO_FAQ.format(
            mention=who, faq_id=sid, title=safe_markdown(notice.get("title") or "")
        )
        todo = S.NOTICE_TODO_FAQ.format(faq_id=sid)
        actions = [execute(S.BTN_APPROVE_FAQ, APPROVE_FAQ, "positive", doc_id=sid)]
    else:
        title = S.NOTICE_TITLE_TICKET.format(ticket_id=sid)
        intro = S.NOTICE_INTRO_TICKET.format(
            mention=who, ticket_id=sid, status=S.STATUS_LABELS.get(status, status)
        )
        todo = S.NOTICE_TODO_TICKET.format(ticket_id=sid)
        actions = []
    facts = [
        {"title": S.NOTICE_LABEL_CHANGED_WITH, "value": ", ".join(notice.get("documents") or ()) or "-"},
        {"title": S.NOTICE_LABEL_ASSESSED, "value": str(notice.get("at") or "-")},
    ]
    body: list[dict[str, Any]] = [
        _text(title, size="Large", weight="Bolder"),
        _text(intro),
        {"type": "FactSet", "facts": facts},
        _heading(S.NOTICE_HEADING_CHANGES),
        *_bullets([change_text(c) for c in notice.get("changes") or ()]),
        _heading(S.NOTICE_LABEL_CITES),
        *_bullets([str(c) for c in notice.get("citations") or ()]),
        _heading(S.NOTICE_HEADING_TODO),
        _text(todo),
        _text(S.NOTICE_FOOTER.format(impact_id=notice.get("impact_id", "")), size="Small", isSubtle=True),
    ]
    card: dict[str, Any] = {
        "type": "AdaptiveCard",
        "$schema": SCHEMA,
        "version": VERSION,
        "fallbackText": S.NOTICE_FALLBACK.format(title=title),
        "body": body,
        "actions": actions,
    }
    if mention.get("id"):
        card["msteams"] = {"entities": [mention_entity(str(mention["id"]), name)]}
    return card


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


# -- the asker's answer card ----------------------------------------------------------------------

#: Teams citation limits (bot messages with AI-generated content).
MAX_CITATIONS = 20
CITATION_NAME_CHARS = 80
CITATION_ABSTRACT_CHARS = 160
CITATION_KEYWORD_CHARS = 28
MAX_QUOTE_CHARS = 1500
_MD_LINK = re.compile(r"\[([^\]\n]+)\]\(([^)\s]+)\)")


def _clip(text: str, limit: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: max(0, limit - 1)].rstrip() + "\u2026"


def safe_markdown(text: object) -> str:
    """Untrusted text for a TextBlock: mention markup removed, links kept only for http(s) URLs."""
    plain = S.strip_mentions_keep_lines(str(text))
    return _MD_LINK.sub(
        lambda m: m.group(0) if m.group(2).startswith(("https://", "http://")) else m.group(1), plain
    )


def _doc(source: Mapping[str, Any]) -> str:
    return str(source.get("number") or source.get("doc_id") or "?")


def _cite_name(source: Mapping[str, Any]) -> str:
    return " ".join(x for x in (_doc(source), str(source.get("location") or "")) if x).strip()


def _cite_link(source: Mapping[str, Any]) -> str:
    name = _cite_name(source).replace("[", "(").replace("]", ")")
    url = source.get("law_url") or source.get("url")  # the law as it stood on the answer's date, at its Pasal
    ok = (
        isinstance(url, str)
        and url.startswith(("https://", "http://"))
        and not any(c in url for c in " ()<>")
    )
    return f"[{name}]({url})" if ok else name


def _claim_container(n: int, claim: Mapping[str, Any], language: str) -> dict[str, Any]:
    source = claim.get("source") or {}
    tags = []
    if claim.get("role") in ("condition", "exception", "definition"):
        tags.append(S.answer_text(f"role.{claim['role']}", language))
    if claim.get("is_example"):
        tags.append(S.answer_text("example", language))
    if claim.get("applies"):
        tags.append(str(claim["applies"]))
    tag = f" _({', '.join(tags)})_" if tags else ""
    layer = str(claim.get("layer") or "unknown")
    layer_label = S.answer_text(
        f"layer.{layer}" if layer in ("regulation", "policy") else "layer.unknown", language
    )
    words = str(claim.get("text", ""))
    if claim.get("quote"):
        words = claim_heading(words, str(claim["quote"]))  # the quote follows: do not print it twice
    items: list[dict[str, Any]] = [_text(f"**[{n}]**" + (f" {safe_markdown(words)}" if words else "") + tag)]
    if claim.get("quote"):
        quote = _clip(str(claim["quote"]).replace("\u201d", '"'), MAX_QUOTE_CHARS)
        items.append(_text(f"\u201c{quote}\u201d", isSubtle=True, spacing="Small"))
    items.append(_text(f"{layer_label} \u00b7 {_cite_link(source)}", size="Small", spacing="None"))
    if source.get("ocr_noisy"):
        items.append(
            _text("\u26a0 " + S.answer_text("ocr", language, doc=_doc(source)), size="Small", color="Warning")
        )
    return {"type": "Container", "items": items, "separator": True, "spacing": "Medium"}


def _withheld_reason(claim: Mapping[str, Any], language: str) -> str:
    for key in ("explanation", "messages"):
        value = claim.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
        if isinstance(value, Sequence) and not isinstance(value, str):
            texts = [str(v).strip() for v in value if str(v).strip()]
            if texts:
                return "; ".join(dict.fromkeys(texts))
    return S.answer_text("withheld_no_reason", language)


def conflict_words(conflict: Mapping[str, Any], language: str) -> str:
    """A conflict in words ("UU 7/2021 applies because it took effect later"), plain text."""
    for key in ("explanation", "description", "text", "message", "summary"):
        if isinstance(conflict.get(key), str) and conflict[key].strip():
            return str(conflict[key]).strip()
    sources = [s for s in conflict.get("sources") or [] if isinstance(s, Mapping)]

    def said(s: Mapping[str, Any]) -> str:
        figures = ", ".join(str(f) for f in s.get("figures") or [])
        return f"{_cite_name(s)} ({figures})" if figures else _cite_name(s)

    parts = []
    if len(sources) >= 2:
        parts.append(
            S.answer_text(
                "conflict.pair", language, a=said(sources[0]), b=", ".join(said(s) for s in sources[1:])
            )
        )
    preferred = str(conflict.get("preferred") or "")
    doc = next((_doc(s) for s in sources if s.get("doc_id") == preferred), preferred)
    rule = f"conflict.{conflict.get('decided_by') or ''}"
    if rule in S.ANSWER:
        parts.append(S.answer_text(rule, language, doc=f"**{doc}**"))
    elif doc:
        parts.append(S.answer_text("conflict.other", language, doc=f"**{doc}**"))
    return " ".join(parts)


def sources_summary(claims: Sequence[Mapping[str, Any]], language: str) -> str:
    """Each cited document once: ``Sumber: UU 7/2021 Harmonisasi ... (2021-10-29, berlaku) · ...``."""
    seen: dict[str, str] = {}
    for claim in claims:
        source = claim.get("source") or {}
        key = str(source.get("doc_id") or source.get("number") or "")
        if not key or key in seen:
            continue
        details = ", ".join(str(x) for x in (source.get("effective_from"), source.get("status")) if x)
        title = _clip(str(source.get("title") or ""), 80)
        seen[key] = f"{_doc(source)} {title}".strip() + (f" ({details})" if details else "")
    return f"{S.answer_text('sources_line', language)}: " + " \u00b7 ".join(seen.values()) if seen else ""


def _footer(answer: Mapping[str, Any], language: str) -> str:
    parts = []
    if answer.get("as_of"):
        as_of = S.answer_text("as_of", language, date=answer["as_of"])
        if answer.get("corpus_version"):
            as_of += f" ({S.answer_text('corpus_version', language, version=answer['corpus_version'])})"
        parts.append(as_of)
    band = (answer.get("confidence") or {}).get("band")
    if band in ("high", "medium", "low") and answer.get("claims"):  # a refusal has no claims to be sure of
        parts.append(S.answer_text("confidence", language, band=S.answer_text(f"band.{band}", language)))
    return " \u00b7 ".join(parts)


def answer_action_data(verb: str, reference: str, answer: Mapping[str, Any], **fields: str) -> dict[str, Any]:
    """Button data of the answer card: the answer reference and what the feedback report groups by."""
    confidence = answer.get("confidence") or {}
    return action_data(
        verb,
        ref=reference,
        s=str(answer.get("status") or ""),
        b=str(confidence.get("band") or ""),
        c=str(answer.get("corpus_version") or ""),
        l=str(answer.get("language") or "id"),
        **fields,
    )


def _execute_with(title: str, verb: str, data: dict[str, Any], style: str | None = None) -> dict[str, Any]:
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


def answer_actions(answer: Mapping[str, Any], reference: str, language: str) -> list[dict[str, Any]]:
    """Feedback (helpful; wrong with an optional comment) and "Ask the tax team" (unless a ticket exists)."""
    helpful = _execute_with(
        S.answer_text("btn.helpful", language),
        FEEDBACK,
        answer_action_data(FEEDBACK, reference, answer, v="helpful"),
    )
    wrong = {
        "type": "Action.ShowCard",
        "title": S.answer_text("btn.not_helpful", language),
        "card": {
            "type": "AdaptiveCard",
            "body": [
                {
                    "type": "Input.Text",
                    "id": IN_COMMENT,
                    "label": S.answer_text("input.comment", language),
                    "isMultiline": True,
                    "maxLength": 1000,
                }
            ],
            "actions": [
                _execute_with(
                    S.answer_text("btn.send", language),
                    FEEDBACK,
                    answer_action_data(FEEDBACK, reference, answer, v="not_helpful"),
                )
            ],
        },
    }
    actions = [helpful, wrong]
    escalation = answer.get("escalation") or {}
    if answer.get("status") != "refused" and not escalation.get("ticket_id"):
        actions.append(
            _execute_with(
                S.answer_text("btn.escalate", language),
                ASK_TAX_TEAM,
                answer_action_data(ASK_TAX_TEAM, reference, answer),
                style="positive",
            )
        )
    return actions


def _card_size(card: Mapping[str, Any]) -> int:
    return len(json.dumps(card, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def answer_card(
    answer: Mapping[str, Any],
    *,
    reference: str,
    language: str | None = None,
    private: bool = False,
    restricted: bool = False,
    with_actions: bool = True,
) -> dict[str, Any]:
    """The asker's Adaptive Card (1.5) for one answer object (``dasar ask --json`` shape).

    Args:
        reference: the turn's reference id (feedback and escalation carry it).
        private: this is the asker-only full answer (intro line, no actions).
        restricted: the public answer of a shared conversation whose asker may see more (adds the note
            that the full answer was sent privately).
    """
    lang = str(language or answer.get("language") or "id")
    from bot.slack.render import short_answer  # the same "short answer" rule as Slack

    text = short_answer(str(answer.get("answer") or "")) or S.answer_text("no_answer", lang)
    head: list[dict[str, Any]] = []
    if private:
        head.append(_text(S.answer_text("private_intro", lang), weight="Bolder", size="Medium"))
    claims = [c for c in answer.get("claims") or [] if isinstance(c, Mapping)]
    parts = [p for p in answer.get("parts") or [] if isinstance(p, Mapping)]
    if parts:
        # one section per part: its question and answer line head it, its claims follow it
        _lines, _sep, added = str(answer.get("answer") or "").partition("\n\n")
        if added.strip():  # what the turn added after the parts' lines ("Tiket ... dibuat ...")
            head.append(_text(safe_markdown(added.strip())))
        sections = _part_sections(parts, claims, lang)
    else:
        head.append(_text(safe_markdown(text)))
        sections = [([], [_claim_container(i, c, lang) for i, c in enumerate(claims, start=1)])]
    claim_items = [c for _, items in sections for c in items]
    tail: list[dict[str, Any]] = []
    withheld = [c for c in answer.get("unsupported_claims") or [] if isinstance(c, Mapping)]
    if withheld:
        summary = " ".join(str(answer.get("withheld_summary") or "").split())
        tail.append(_heading(safe_markdown(summary) if summary else S.answer_text("withheld_heading", lang)))
        tail += [
            _text(
                f"- {safe_markdown(c.get('text', ''))} \u2014 _{_withheld_reason(c, lang)}_", spacing="None"
            )
            for c in withheld
        ]
    conflicts = [c for c in answer.get("conflicts") or [] if isinstance(c, Mapping)]
    if conflicts:
        tail.append(_heading(S.answer_text("conflicts_heading", lang)))
        tail += [_text(f"- {conflict_words(c, lang)}", spacing="None") for c in conflicts]
    warnings = [w.get("message", w) if isinstance(w, Mapping) else w for w in answer.get("warnings") or []]
    if warnings:
        tail.append(_heading(S.answer_text("warnings_heading", lang)))
        tail += [_text(f"- {safe_markdown(w)}", spacing="None") for w in warnings]
    escalation = answer.get("escalation") or {}
    if escalation.get("ticket_id"):
        tail.append(_text(S.answer_text("escalated", lang, ticket=escalation["ticket_id"])))
    elif escalation.get("offered") and not private:
        tail.append(_text(S.answer_text("offered", lang)))
    if restricted and not private:
        tail.append(_text(S.answer_text("private_offer", lang), isSubtle=True, size="Small"))
    foot = [
        _text(x, isSubtle=True, size="Small", spacing="Small")
        for x in (sources_summary(claims, lang), _footer(answer, lang))
        if x
    ]

    def build(shown: list[dict[str, Any]], omitted: int) -> dict[str, Any]:
        body = list(head)
        if parts:  # every part's heading and line stay; its claims while they fit
            keep = {id(c) for c in shown}
            for top, items in sections:
                body += top
                body += [c for c in items if id(c) in keep]
        elif shown:
            body.append(_heading(S.answer_text("sources_heading", lang)))
            body += shown
        if omitted:
            body.append(_text(S.answer_text("omitted", lang, n=omitted), isSubtle=True))
        card: dict[str, Any] = {
            "type": "AdaptiveCard",
            "$schema": SCHEMA,
            "version": VERSION,
            "fallbackText": S.answer_text("fallback", lang),
            "body": body + tail + foot,
        }
        if with_actions and not private:
            card["actions"] = answer_actions(answer, reference, lang)
        return card

    shown = list(claim_items)
    card = build(shown, 0)
    while _card_size(card) > MAX_CARD_BYTES and shown:
        shown.pop()
        card = build(shown, len(claim_items) - len(shown))
    return card


def _part_sections(
    parts: Sequence[Mapping[str, Any]], claims: Sequence[Mapping[str, Any]], language: str
) -> list[tuple[list[dict[str, Any]], list[dict[str, Any]]]]:
    """Per part of a multi-part message: (its heading, line and clarifying questions; its claim containers).

    ``claim_numbers`` index the message's ``claims``; a passage an earlier part showed is referred to by its
    number ("[2]: quoted above"), never shown twice."""
    from bot.answer.render import part_claims, part_question, quoted_above

    out: list[tuple[list[dict[str, Any]], list[dict[str, Any]]]] = []
    printed: set[int] = set()
    for i, part in enumerate(parts, start=1):
        index = part.get("index") or i
        top = [
            _heading(f"{index}. {safe_markdown(part_question(str(part.get('question') or '')))}"),
            _text(safe_markdown(str(part.get("line") or ""))),
        ]
        own = part.get("answer")
        if not isinstance(own, Mapping):
            own = {}
        top += [
            _text(f"- {safe_markdown(q.get('question', ''))}", spacing="None")
            for q in own.get("clarifying_questions") or []
            if isinstance(q, Mapping)
        ]
        new, above = part_claims(part.get("claim_numbers") or [], len(claims), printed)
        items = [_claim_container(n, claims[n - 1], language) for n in new]
        if above:
            top.append(_text(quoted_above(above, language), isSubtle=True, size="Small"))
        out.append((top, items))
    return out


def citation_entity(claims: Sequence[Mapping[str, Any]], language: str = "id") -> dict[str, Any]:
    """The Teams message entity: AI-generated label + one ``Claim`` citation per claim (``[n]``)."""
    citations = []
    for n, claim in enumerate(list(claims)[:MAX_CITATIONS], start=1):
        source = claim.get("source") or {}
        layer = str(claim.get("layer") or "unknown")
        keywords = [
            _clip(
                S.answer_text(
                    f"layer.{layer}" if layer in ("regulation", "policy") else "layer.unknown", language
                ),
                28,
            )
        ]
        if source.get("status"):
            keywords.append(_clip(str(source["status"]), CITATION_KEYWORD_CHARS))
        appearance: dict[str, Any] = {
            "@type": "DigitalDocument",
            "name": _clip(_cite_name(source), CITATION_NAME_CHARS),
            "abstract": _clip(str(claim.get("quote") or claim.get("text") or ""), CITATION_ABSTRACT_CHARS),
            "keywords": keywords[:3],
        }
        url = source.get("law_url") or source.get("url")
        if isinstance(url, str) and url.startswith(("https://", "http://")):
            appearance["url"] = url
        citations.append({"@type": "Claim", "position": n, "appearance": appearance})
    entity: dict[str, Any] = {
        "type": "https://schema.org/Message",
        "@type": "Message",
        "@context": "https://schema.org",
        "@id": "",
        "additionalType": ["AIGeneratedContent"],
    }
    if citations:
        entity["citation"] = citations
    return entity


def answer_activity(
    answer: Mapping[str, Any],
    *,
    reference: str,
    language: str | None = None,
    private: bool = False,
    restricted: bool = False,
) -> dict[str, Any]:
    """A message activity (JSON dict) with the answer card, the AI label and citations.

    ``text`` is the short answer followed by ``[n] document`` references, so each citation entity's
    position appears in the text as Teams requires.  Send it with
    ``Activity().deserialize(...)`` / ``MessageFactory`` or post it as JSON through the connector.
    """
    lang = str(language or answer.get("language") or "id")
    from bot.slack.render import short_answer

    claims = [c for c in answer.get("claims") or [] if isinstance(c, Mapping)]
    text = S.strip_mentions_keep_lines(short_answer(str(answer.get("answer") or ""))) or S.answer_text(
        "no_answer", lang
    )
    refs = " ".join(
        f"[{n}] {_cite_name(c.get('source') or {})}" for n, c in enumerate(claims[:MAX_CITATIONS], 1)
    )
    if refs:
        text += f"\n\n{S.answer_text('sources_line', lang)}: {refs}"
    card = answer_card(answer, reference=reference, language=lang, private=private, restricted=restricted)
    return {
        "type": "message",
        "text": text,
        "textFormat": "markdown",
        "attachments": [attachment(card)],
        "entities": [citation_entity(claims, lang)],
    }


def to_bot_activity(activity: Mapping[str, Any]) -> Any:
    """:func:`answer_activity` as a botbuilder ``Activity`` that keeps the entity's schema.org fields.

    botbuilder's ``Entity`` model serializes only ``type``; the AI label and citations live in extra
    keys, so the entity is rebuilt on a subclass that serializes its additional properties.  The import
    is lazy: this module stays SDK-free.
    """
    from botbuilder.schema import Activity, Entity

    class _SchemaOrgEntity(Entity):  # type: ignore[misc]
        _attribute_map: ClassVar[dict[str, Any]] = {
            **Entity._attribute_map,
            "additional_properties": {"key": "", "type": "{object}"},
        }

    data = dict(activity)
    entities = []
    for raw in data.pop("entities", []) or []:
        entity = _SchemaOrgEntity(type=raw.get("type"))
        entity.additional_properties = {k: v for k, v in raw.items() if k != "type"}
        entities.append(entity)
    result = Activity().deserialize(data)
    result.entities = entities
    return result
