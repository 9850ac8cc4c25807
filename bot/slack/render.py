"""Render a :class:`~bot.messages.Reply` as Slack Block Kit, within Slack's limits.

Order (what the reader needs first): the direct answer; clarifying questions with quick-reply
buttons; each claim with its verbatim quote and a citation line (number, title, Pasal/ayat,
effective dates, status, link) plus an OCR warning where the source text is noisy; claims the
sources do not support, labelled as such; conflicts and warnings; escalation state; the
"based on sources as of" / confidence footer; the feedback and "Ask the tax team" buttons.

Slack limits respected here: at most 50 blocks per message, 3000 characters per section text,
75 characters per button label, 2000 per button value.  Text from the answer is escaped (``&``,
``<``, ``>``) so it can never form a link, a mention or ``<!channel>``; links are only built from
``http(s)`` source URLs.  What does not fit becomes "show more" pages, stored by the front end
and posted in the thread on demand.

Pure functions, no Slack SDK import: the tests read the blocks directly.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.messages import Reply
from bot.slack.strings import t

MAX_BLOCKS = 50
MAX_SECTION_CHARS = 3000
MAX_BUTTON_TEXT = 75
MAX_BUTTON_VALUE = 2000
MAX_FALLBACK_CHARS = 3000
MAX_ACTIONS_PER_BLOCK = 25
MAX_OPTIONS_PER_QUESTION = 10

ACTION_HELPFUL = "dasar_feedback_helpful"
ACTION_NOT_HELPFUL = "dasar_feedback_not_helpful"
ACTION_ESCALATE = "dasar_escalate"
ACTION_SHOW_MORE = "dasar_show_more"
#: Prefix of quick-reply buttons; full id ``dasar_clarify:<question>:<option>`` (unique per message).
ACTION_CLARIFY_PREFIX = "dasar_clarify:"

Block = dict[str, Any]


@dataclass(frozen=True)
class RenderedMessage:
    """One Slack message (``text`` fallback + ``blocks``) and the "show more" pages after it.

    ``pages[i]`` must be stored under ``f"{page_key}:{i + 1}"``: the show-more button of the
    message (and of page ``i``) carries that key as its value.
    """

    text: str
    blocks: list[Block]
    pages: list[list[Block]] = field(default_factory=list)


# -- text helpers -------------------------------------------------------------------------------


def escape(text: object) -> str:
    """Slack mrkdwn escaping: ``&``, ``<``, ``>`` -- no link, mention or ``<!here>`` from content."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def link(url: object, label: str) -> str:
    """``<url|label>`` for an http(s) URL; just the escaped label otherwise."""
    safe_label = escape(label).replace("|", "/")
    if (
        isinstance(url, str)
        and url.startswith(("https://", "http://"))
        and not any(c in url for c in "<>| \n")
    ):
        return f"<{url}|{safe_label}>"
    return safe_label


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, ending in an ellipsis when cut."""
    return text if len(text) <= limit else text[: max(0, limit - 1)].rstrip() + "\u2026"


def split_text(text: str, limit: int = MAX_SECTION_CHARS) -> list[str]:
    """Split ``text`` into pieces of at most ``limit`` chars, preferring paragraph, line, then word breaks."""
    pieces: list[str] = []
    rest = text.strip()
    while len(rest) > limit:
        cut = -1
        for sep in ("\n\n", "\n", " "):
            cut = rest.rfind(sep, 0, limit)
            if cut > limit // 2:
                break
        if cut <= 0:
            cut = limit
        pieces.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    if rest:
        pieces.append(rest)
    return pieces


def quote(text: str) -> str:
    """Escaped ``text`` as a Slack blockquote (every line starts with ``>``)."""
    return "\n".join("> " + escape(line) for line in text.strip().splitlines() or [""])


def _section(text: str) -> Block:
    return {"type": "section", "text": {"type": "mrkdwn", "text": clip(text, MAX_SECTION_CHARS)}}


def _context(texts: Iterable[str]) -> Block:
    return {
        "type": "context",
        "elements": [{"type": "mrkdwn", "text": clip(x, MAX_SECTION_CHARS)} for x in list(texts)[:10]],
    }


def _button(label: str, action_id: str, value: str, style: str | None = None) -> Block:
    button: Block = {
        "type": "button",
        "text": {"type": "plain_text", "text": clip(label, MAX_BUTTON_TEXT), "emoji": True},
        "action_id": action_id,
        "value": value[:MAX_BUTTON_VALUE],
    }
    if style:
        button["style"] = style
    return button


def button_value(thread_ts: str, reference: str, **extra: str) -> str:
    """The JSON value our buttons carry: thread and turn reference (ids only)."""
    return json.dumps({"t": thread_ts, "r": reference, **extra}, separators=(",", ":"), sort_keys=True)


# -- pieces of an answer -----------------------------------------------------------------------


def citation_line(source: Mapping[str, Any], layer: str, language: str) -> str:
    """``*PMK 168/2023* · title · Pasal 7 ayat (1) · in force ... · status · <url|source>``."""
    parts: list[str] = []
    layer_label = t(f"layer.{layer}" if layer in ("regulation", "policy") else "layer.unknown", language)
    number = source.get("number") or source.get("doc_id") or "?"
    parts.append(f"{escape(layer_label)}: *{escape(number)}*")
    if source.get("title"):
        parts.append(escape(clip(str(source["title"]), 300)))
    if source.get("location"):
        parts.append(escape(source["location"]))
    start, end = source.get("effective_from"), source.get("effective_to")
    if start and end:
        parts.append(escape(t("effective_range", language, start=start, end=end)))
    elif start:
        parts.append(escape(t("effective_from", language, start=start)))
    if source.get("status"):
        parts.append(escape(clip(str(source["status"]), 200)))
    if source.get("url"):
        parts.append(link(source["url"], t("source_link", language)))
    return " \u00b7 ".join(parts)


def claim_blocks(index: int, claim: Mapping[str, Any], language: str) -> list[Block]:
    """A claim: its text and verbatim quote, the citation line, and an OCR warning when relevant."""
    source = claim.get("source") or {}
    label = f" _({t('example_label', language)})_" if claim.get("is_example") else ""
    head = f"*{index}.* {escape(claim.get('text', ''))}{label}"
    body = head
    if claim.get("quote"):
        room = MAX_SECTION_CHARS - len(head) - 1
        body = head + "\n" + clip(quote(str(claim["quote"])), room)
    blocks = [_section(body), _context([citation_line(source, str(claim.get("layer", "unknown")), language)])]
    if source.get("ocr_noisy"):
        doc = source.get("number") or source.get("doc_id") or "?"
        blocks.append(_context([t("ocr_warning", language, doc=escape(doc))]))
    return blocks


def _reason_text(reasons: object) -> str:
    if isinstance(reasons, str):
        return reasons
    if isinstance(reasons, Sequence):
        out = []
        for r in reasons:
            out.append(str(r.get("code") or r.get("message") or r) if isinstance(r, Mapping) else str(r))
        return ", ".join(out)
    return ""


def unsupported_blocks(claims: Sequence[Mapping[str, Any]], language: str) -> list[Block]:
    """Claims that failed verification, shown as such (never as part of the answer)."""
    if not claims:
        return []
    lines = [t("unsupported_heading", language)]
    for claim in claims:
        line = f"\u2022 {escape(claim.get('text', ''))}"
        reasons = _reason_text(claim.get("reasons"))
        if reasons:
            line += f" _({escape(t('reasons', language, reasons=reasons))})_"
        lines.append(line)
    return [_section(piece) for piece in split_text("\n".join(lines))]


def _conflict_text(conflict: object) -> str:
    if isinstance(conflict, Mapping):
        for key in ("description", "text", "message", "summary"):
            if conflict.get(key):
                return str(conflict[key])
        return ", ".join(f"{k}: {v}" for k, v in sorted(conflict.items()) if isinstance(v, str | int | float))
    return str(conflict)


def clarify_blocks(
    questions: Sequence[Mapping[str, Any]], language: str, thread_ts: str, reference: str
) -> list[Block]:
    """Clarifying questions as text, each followed by quick-reply buttons when its options are known."""
    if not questions:
        return []
    blocks: list[Block] = [_section(t("clarify_heading", language))]
    for qi, question in enumerate(questions):
        blocks.append(_section(f"\u2022 {escape(question.get('question', ''))}"))
        options = [str(o) for o in (question.get("options") or []) if str(o).strip()][
            :MAX_OPTIONS_PER_QUESTION
        ]
        if options:
            buttons = [
                _button(
                    option,
                    f"{ACTION_CLARIFY_PREFIX}{qi}:{oi}",
                    button_value(
                        thread_ts, reference, l=language, slot=str(question.get("slot", "")), option=option
                    ),
                )
                for oi, option in enumerate(options)
            ]
            blocks.append(
                {
                    "type": "actions",
                    "block_id": f"dasar_clarify_{qi}",
                    "elements": buttons[:MAX_ACTIONS_PER_BLOCK],
                }
            )
    return blocks


def footer_blocks(answer: Mapping[str, Any], language: str) -> list[Block]:
    """ "Based on sources as of <date>" and the confidence band."""
    parts: list[str] = []
    if answer.get("as_of"):
        as_of = t("as_of", language, date=escape(answer["as_of"]))
        if answer.get("corpus_version"):
            as_of += f" ({escape(t('corpus_version', language, version=answer['corpus_version']))})"
        parts.append(as_of)
    band = (answer.get("confidence") or {}).get("band")
    if band in ("high", "medium", "low"):
        parts.append(t("confidence", language, band=t(f"band.{band}", language)))
    return [_context(parts)] if parts else []


def action_blocks(answer: Mapping[str, Any], language: str, thread_ts: str, reference: str) -> list[Block]:
    """Helpful / not helpful, and "Ask the tax team" unless a ticket exists or the request was refused."""
    value = button_value(thread_ts, reference, l=language)
    elements = [
        _button(":thumbsup: " + t("button.helpful", language), ACTION_HELPFUL, value),
        _button(":thumbsdown: " + t("button.not_helpful", language), ACTION_NOT_HELPFUL, value),
    ]
    escalation = answer.get("escalation") or {}
    status = answer.get("status")
    if status != "refused" and not escalation.get("ticket_id"):
        elements.append(_button(t("button.escalate", language), ACTION_ESCALATE, value, style="primary"))
    return [{"type": "actions", "block_id": "dasar_feedback", "elements": elements}]


def body_blocks(
    answer: Mapping[str, Any], language: str, thread_ts: str, reference: str, fallback_text: str = ""
) -> list[Block]:
    """Everything above the footer, in reading order."""
    status = answer.get("status")
    text = str(answer.get("answer") or fallback_text or "").strip()
    if not text:
        text = t("refused" if status == "refused" else "no_answer_text", language)
    blocks = [_section(escape(piece)) for piece in split_text(text, MAX_SECTION_CHARS - 200)]
    blocks += clarify_blocks(answer.get("clarifying_questions") or [], language, thread_ts, reference)
    claims = answer.get("claims") or []
    if claims:
        blocks.append(_section(t("sources_heading", language)))
        for i, claim in enumerate(claims, start=1):
            blocks += claim_blocks(i, claim, language)
    blocks += unsupported_blocks(answer.get("unsupported_claims") or [], language)
    conflicts = answer.get("conflicts") or []
    if conflicts:
        lines = [t("conflicts_heading", language)] + [
            f"\u2022 {escape(_conflict_text(c))}" for c in conflicts
        ]
        blocks += [_section(p) for p in split_text("\n".join(lines))]
    warnings = [w.get("message", w) if isinstance(w, Mapping) else w for w in answer.get("warnings") or []]
    if warnings:
        lines = [t("warnings_heading", language)] + [f"\u2022 {escape(w)}" for w in warnings]
        blocks += [_section(p) for p in split_text("\n".join(lines))]
    escalation = answer.get("escalation") or {}
    if escalation.get("ticket_id"):
        blocks.append(_section(t("escalated", language, ticket=escape(escalation["ticket_id"]))))
    elif escalation.get("offered"):
        blocks.append(_section(t("escalation_offered", language)))
    return blocks


# -- whole message -----------------------------------------------------------------------------


def _show_more(language: str, key: str, thread_ts: str) -> list[Block]:
    return [
        _context([t("truncated", language)]),
        {
            "type": "actions",
            "block_id": "dasar_show_more",
            "elements": [
                _button(
                    t("button.show_more", language),
                    ACTION_SHOW_MORE,
                    button_value(thread_ts, key, l=language),
                )
            ],
        },
    ]


def paginate(
    body: list[Block], tail: list[Block], language: str, page_key: str, thread_ts: str
) -> tuple[list[Block], list[list[Block]]]:
    """First message (``body`` head + ``tail``) and the overflow pages, each within :data:`MAX_BLOCKS`.

    Each show-more button's value is a :func:`button_value` whose reference ``r`` is the page key.
    """
    if len(body) + len(tail) <= MAX_BLOCKS:
        return body + tail, []
    room = MAX_BLOCKS - len(tail) - 2
    first = body[:room] + _show_more(language, f"{page_key}:1", thread_ts) + tail
    rest = body[room:]
    pages: list[list[Block]] = []
    while rest:
        n = len(pages) + 1
        if len(rest) <= MAX_BLOCKS:
            pages.append(rest)
            break
        chunk_room = MAX_BLOCKS - 2
        pages.append(rest[:chunk_room] + _show_more(language, f"{page_key}:{n + 1}", thread_ts))
        rest = rest[chunk_room:]
    return first, pages


def render_answer(
    answer: Mapping[str, Any],
    *,
    language: str,
    thread_ts: str,
    reference: str,
    fallback_text: str = "",
    with_actions: bool = True,
    extra_body: Sequence[Block] = (),
) -> RenderedMessage:
    """Block Kit for one answer object (``dasar ask --json`` shape); ``extra_body`` follows the body."""
    body = body_blocks(answer, language, thread_ts, reference, fallback_text) + list(extra_body)
    tail = footer_blocks(answer, language)
    if with_actions:
        tail += action_blocks(answer, language, thread_ts, reference)
    blocks, pages = paginate(body, tail, language, reference or thread_ts, thread_ts)
    text = clip(
        str(answer.get("answer") or fallback_text or t("no_answer_text", language)), MAX_FALLBACK_CHARS
    )
    return RenderedMessage(text=text, blocks=blocks, pages=pages)


def render_reply(reply: Reply, *, language: str, thread_ts: str, reference: str = "") -> RenderedMessage:
    """The public message for a reply; when a private answer exists, a note that it was sent privately.

    The private answer itself is rendered with :func:`render_private` and never enters these blocks.
    """
    ref = reference or reply.reference_id or thread_ts
    extra = [_context([t("private_offer", language)])] if reply.private_answer is not None else []
    return render_answer(
        reply.answer,
        language=language,
        thread_ts=thread_ts,
        reference=ref,
        fallback_text=reply.text,
        extra_body=extra,
    )


def render_private(
    reply: Reply, *, language: str, thread_ts: str, reference: str = ""
) -> list[RenderedMessage]:
    """The asker-only full answer as one or more messages (posted ephemerally, all at once).

    WHY no "show more" here: a stored page would later be posted by whoever clicks; private pages
    are sent immediately, to the asker only.
    """
    if reply.private_answer is None:
        return []
    ref = (reference or reply.reference_id or thread_ts) + ":private"
    answer = reply.private_answer
    body = [_section(t("private_intro", language)), *body_blocks(answer, language, thread_ts, ref)]
    body += footer_blocks(answer, language)
    text = clip(str(answer.get("answer") or t("no_answer_text", language)), MAX_FALLBACK_CHARS)
    chunks = [body[i : i + MAX_BLOCKS] for i in range(0, len(body), MAX_BLOCKS)]
    return [RenderedMessage(text=text, blocks=chunk) for chunk in chunks]


def render_notice(text: str) -> RenderedMessage:
    """A one-section message (rate limit, apology, confirmation); ``text`` is trusted mrkdwn."""
    return RenderedMessage(text=clip(text, MAX_FALLBACK_CHARS), blocks=[_section(text)])
