"""Render a :class:`~bot.messages.Reply` as Slack Block Kit (mrkdwn), within Slack's limits.

Reading order: the short answer first (Markdown converted to mrkdwn); clarifying questions with
quick-reply buttons; each claim ONCE, with its verbatim quote as a blockquote under it and its citation
link; one compact "sources" context line; claims withheld by the verifier with the reasons in words
(``messages``); conflicting sources in words ("UU 7/2021 applies because it took effect later");
warnings; escalation state; one footer line (sources as of / corpus version / confidence); then the
``feedback_buttons`` element (in a ``context_actions`` block) and "Ask the tax team".

Every text we did not write (answer, claims, quotes, titles, messages, relayed tax-team answers, the
notification ``text``) is escaped (``&``, ``<``, ``>``) by :mod:`bot.slack.mrkdwn`, so ``<!channel>``,
``<!here>`` or ``<url|label>`` never reach Slack raw; links are only built from ``http(s)`` URLs.

Limits (Slack's documented ones; checked in the tests with slack_sdk's block models): at most 50
blocks per message, 3000 characters per section text, 75 per button label, 2000 per button value,
and -- as a practical cap well under Slack's 12k-character ``blocks`` budget -- at most
:data:`MAX_MESSAGE_CHARS` characters of serialized blocks per message.  What does not fit becomes
"show more" pages (stored by the front end, posted on demand); private answers and relays are split
into several messages in order instead.

Pure functions, no Slack SDK import: the tests read the blocks directly.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.answer.model import claim_heading
from bot.messages import Reply
from bot.slack import mrkdwn
from bot.slack.strings import t

MAX_BLOCKS = 50
MAX_SECTION_CHARS = 3000
MAX_BUTTON_TEXT = 75
MAX_BUTTON_VALUE = 2000
MAX_FALLBACK_CHARS = 3000
MAX_ACTIONS_PER_BLOCK = 25
MAX_OPTIONS_PER_QUESTION = 10
MAX_CONTEXT_ELEMENTS = 10
#: Serialized blocks per message (JSON characters): a margin under Slack's ~12k practical cap.
MAX_MESSAGE_CHARS = 11_000
#: A relay part's text (the rest of the 3000-character section is left for our labels).
RELAY_CHUNK_CHARS = 2_600

#: ``feedback_buttons`` element (one action id; the value says up or down).
ACTION_FEEDBACK = "dasar_feedback"
# Kept for the legacy two-button handlers still registered by the front end.
ACTION_HELPFUL = "dasar_feedback_helpful"
ACTION_NOT_HELPFUL = "dasar_feedback_not_helpful"
ACTION_ESCALATE = "dasar_escalate"
ACTION_SHOW_MORE = "dasar_show_more"
#: Prefix of quick-reply buttons; full id ``dasar_clarify:<question>:<option>`` (unique per message).
ACTION_CLARIFY_PREFIX = "dasar_clarify:"
FEEDBACK_UP, FEEDBACK_DOWN = "up", "down"

Block = dict[str, Any]

escape = mrkdwn.escape
link = mrkdwn.link


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


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, ending in an ellipsis when cut."""
    return text if len(text) <= limit else text[: max(0, limit - 1)].rstrip() + "\u2026"


def split_text(text: str, limit: int = MAX_SECTION_CHARS) -> list[str]:
    """Split ``text`` into pieces of at most ``limit`` chars, preferring paragraph, line, then word breaks.

    A cut never falls inside an ``&amp;``-style escape.
    """
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
            amp = rest.rfind("&", max(0, cut - 5), cut)
            if amp != -1 and ";" not in rest[amp:cut]:
                cut = amp
        pieces.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    if rest:
        pieces.append(rest)
    return pieces


def quote(text: str) -> str:
    """Escaped ``text`` as a Slack blockquote (every line starts with ``>``)."""
    return mrkdwn.blockquote(text)


def _section(text: str) -> Block:
    return {"type": "section", "text": {"type": "mrkdwn", "text": clip(text, MAX_SECTION_CHARS)}}


def _context(texts: Iterable[str]) -> Block:
    return {
        "type": "context",
        "elements": [
            {"type": "mrkdwn", "text": clip(x, MAX_SECTION_CHARS)} for x in list(texts)[:MAX_CONTEXT_ELEMENTS]
        ],
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


def block_chars(blocks: Sequence[Block]) -> int:
    """Serialized size of ``blocks`` (what :data:`MAX_MESSAGE_CHARS` bounds)."""
    return len(json.dumps(list(blocks), ensure_ascii=False, separators=(",", ":")))


# -- the short answer ---------------------------------------------------------------------------

# Section headings of the pipeline's text whose content this renderer shows from the structured
# fields (claims with quotes, conflicts, withheld claims, warnings, as-of): dropped from the text so
# nothing appears twice.  Matched on the bold label (both languages).
_STRUCTURED_HEADINGS = frozenset(
    {
        "dasar hukum",
        "legal basis",
        "kebijakan perusahaan",
        "company policy",
        "sumber yang berbeda",
        "sources that disagree",
        "klaim tidak didukung (tidak ditampilkan sebagai jawaban)",
        "claims not supported (not shown as the answer)",
        "catatan",
        "notes",
    }
)
_ANSWER_HEADINGS = frozenset({"jawaban", "answer"})
_BOLD_LINE = re.compile(r"^\s*\*\*(.+?)\*\*\s*:?\s*$")
_AS_OF_LINE = re.compile(r"^\s*\((berdasarkan sumber per|based on sources as of) [^)]*\)\s*$", re.IGNORECASE)


def short_answer(text: str) -> str:
    """The answer text without the sections rendered from structured fields (see above).

    A one-line answer passes unchanged; the older long text loses its "Jawaban" heading, the claim
    lists (whose quotes appear under each claim), conflicts, withheld claims, notes and the as-of line.
    """
    out: list[str] = []
    skipping = False
    for line in text.splitlines():
        heading = _BOLD_LINE.match(line)
        if heading:
            name = heading.group(1).strip().lower()
            if name in _ANSWER_HEADINGS:
                skipping = False
                continue
            skipping = name in _STRUCTURED_HEADINGS
            if skipping:
                continue
        if skipping or _AS_OF_LINE.match(line):
            continue
        out.append(line)
    return "\n".join(out).strip()


# -- pieces of an answer -----------------------------------------------------------------------


def _doc_label(source: Mapping[str, Any]) -> str:
    return str(source.get("number") or source.get("doc_id") or "?")


def citation_link(source: Mapping[str, Any]) -> str:
    """``<url|UU 7/2021 Pasal 7 ayat (1)>`` (escaped label; a link only for http(s) URLs).

    The link opens dasar's page of the law as it stood on the answer's date, at the cited Pasal, when the
    deployment serves one (``law_url``); else the official text.
    """
    label = " ".join(x for x in (_doc_label(source), str(source.get("location") or "")) if x).strip()
    return mrkdwn.link(source.get("law_url") or source.get("url"), clip(label, 200))


def source_summary(source: Mapping[str, Any], language: str) -> str:
    """``*UU 7/2021* Harmonisasi ... (berlaku sejak 2021-10-29; berlaku)`` for the sources line."""
    parts = [f"*{escape(_doc_label(source))}*"]
    if source.get("title"):
        parts.append(escape(clip(str(source["title"]), 80)))
    details: list[str] = []
    start, end = source.get("effective_from"), source.get("effective_to")
    if start and end:
        details.append(t("effective_range", language, start=escape(start), end=escape(end)))
    elif start:
        details.append(t("effective_from", language, start=escape(start)))
    if source.get("status"):
        details.append(escape(clip(str(source["status"]), 60)))
    text = " ".join(parts)
    return f"{text} ({'; '.join(details)})" if details else text


def citation_line(source: Mapping[str, Any], layer: str, language: str) -> str:
    """``Peraturan · <url|UU 7/2021 Pasal 7 ayat (1)>``: the line under a claim's quote."""
    layer_label = t(f"layer.{layer}" if layer in ("regulation", "policy") else "layer.unknown", language)
    return f"\u2014 _{escape(layer_label)}_ \u00b7 {citation_link(source)}"


def claim_blocks(index: int, claim: Mapping[str, Any], language: str) -> list[Block]:
    """One section: the claim, its quote as a blockquote, its citation (and an OCR warning)."""
    source = claim.get("source") or {}
    tags: list[str] = []
    role = claim.get("role")
    if role in ("condition", "exception", "definition"):
        tags.append(t(f"role.{role}", language))
    if claim.get("is_example"):
        tags.append(t("example_label", language))
    if claim.get("applies"):
        tags.append(t("applies_period", language, period=escape(claim["applies"])))
    tag = f" _({escape(', '.join(tags))})_" if tags else ""
    words = str(claim.get("text", ""))
    if claim.get("quote"):
        words = claim_heading(words, str(claim["quote"]))  # the quote follows: do not print it twice
    head = f"*{index}.*" + (f" {escape(words)}" if words else "") + tag
    tail = citation_line(source, str(claim.get("layer", "unknown")), language)
    if source.get("ocr_noisy"):
        tail += "\n" + t("ocr_warning", language, doc=escape(_doc_label(source)))
    body = head
    if claim.get("quote"):
        room = MAX_SECTION_CHARS - len(head) - len(tail) - 2
        body += "\n" + clip(quote(str(claim["quote"])), max(room, 10))
    return [_section(body + "\n" + tail)]


def sources_line(claims: Sequence[Mapping[str, Any]], language: str) -> str:
    """One compact line naming each cited document once (in order of first citation)."""
    seen: dict[str, str] = {}
    for claim in claims:
        source = claim.get("source") or {}
        key = str(source.get("doc_id") or source.get("number") or "")
        if key and key not in seen:
            seen[key] = source_summary(source, language)
    return t("sources_line", language, sources=" \u00b7 ".join(seen.values())) if seen else ""


def _withheld_reason(claim: Mapping[str, Any], language: str) -> str:
    for key in ("explanation", "messages"):
        value = claim.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
        if isinstance(value, Sequence) and not isinstance(value, str):
            texts = [str(v).strip() for v in value if str(v).strip()]
            if texts:
                return "; ".join(dict.fromkeys(texts))
    return t("withheld_no_reason", language)


def unsupported_blocks(claims: Sequence[Mapping[str, Any]], language: str, summary: str = "") -> list[Block]:
    """Claims withheld by the verifier, with the reasons in words (never as part of the answer).

    ``summary`` (the answer's ``withheld_summary``, when the pipeline gives one) replaces the generic
    heading's wording.
    """
    if not claims:
        return []
    heading = t("unsupported_heading", language)
    if summary.strip():
        heading = f"*{escape(' '.join(summary.split()))}*"
    lines = [heading]
    for claim in claims:
        reason = _withheld_reason(claim, language)
        lines.append(f"\u2022 {escape(claim.get('text', ''))} \u2014 _{escape(reason)}_")
    return [_section(piece) for piece in split_text("\n".join(lines))]


def conflict_text(conflict: object, language: str) -> str:
    """A conflict in words: who says what, and which rule decided (escaped mrkdwn)."""
    if not isinstance(conflict, Mapping):
        return escape(conflict)
    for key in ("explanation", "description", "text", "message", "summary"):
        if isinstance(conflict.get(key), str) and conflict[key].strip():
            return escape(conflict[key].strip())
    sources = [s for s in conflict.get("sources") or [] if isinstance(s, Mapping)]

    def said(s: Mapping[str, Any]) -> str:
        name = " ".join(x for x in (_doc_label(s), str(s.get("location") or "")) if x)
        figures = ", ".join(str(f) for f in s.get("figures") or [])
        return f"{name} ({figures})" if figures else name

    text = ""
    if len(sources) >= 2:
        text = t(
            "conflict.pair",
            language,
            a=escape(said(sources[0])),
            b=escape(", ".join(said(s) for s in sources[1:])),
        )
    preferred = str(conflict.get("preferred") or "")
    doc = next((_doc_label(s) for s in sources if s.get("doc_id") == preferred), preferred)
    rule = str(conflict.get("decided_by") or "")
    key = f"conflict.{rule}"
    try:
        decision = t(key, language, doc=f"*{escape(doc)}*")
    except KeyError:
        decision = t("conflict.other", language, doc=f"*{escape(doc)}*") if doc else ""
    return " ".join(x for x in (text, decision) if x)


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
    """One context block: the cited documents (once), "sources as of", the confidence band (with claims)."""
    parts: list[str] = []
    line = sources_line(answer.get("claims") or [], language)
    if line:
        parts.append(line)
    if answer.get("as_of"):
        as_of = t("as_of", language, date=escape(answer["as_of"]))
        if answer.get("corpus_version"):
            as_of += f" ({escape(t('corpus_version', language, version=answer['corpus_version']))})"
        parts.append(as_of)
    band = (answer.get("confidence") or {}).get("band")
    # a confidence describes claims; a refusal or "no source" has none to be confident about
    if band in ("high", "medium", "low") and answer.get("claims"):
        parts.append(t("confidence", language, band=t(f"band.{band}", language)))
    return [_context(parts)] if parts else []


def feedback_value(
    answer: Mapping[str, Any], thread_ts: str, reference: str, language: str, verdict: str
) -> str:
    """Value of a feedback button: the answer reference plus what the feedback report groups by."""
    confidence = answer.get("confidence") or {}
    return button_value(
        thread_ts,
        reference,
        l=language,
        v=verdict,
        s=str(answer.get("status") or "")[:20],
        b=str(confidence.get("band") or "")[:10],
        c=str(answer.get("corpus_version") or "")[:64],
    )


def feedback_block(answer: Mapping[str, Any], language: str, thread_ts: str, reference: str) -> Block:
    """``context_actions`` with one ``feedback_buttons`` element (thumbs up / down)."""

    def button(emoji: str, verdict: str, label_key: str) -> Block:
        return {
            "text": {"type": "plain_text", "text": emoji, "emoji": True},
            "accessibility_label": clip(t(label_key, language), MAX_BUTTON_TEXT),
            "value": feedback_value(answer, thread_ts, reference, language, verdict)[:MAX_BUTTON_VALUE],
        }

    return {
        "type": "context_actions",
        "block_id": "dasar_feedback",
        "elements": [
            {
                "type": "feedback_buttons",
                "action_id": ACTION_FEEDBACK,
                "positive_button": button(":thumbsup:", FEEDBACK_UP, "feedback.positive"),
                "negative_button": button(":thumbsdown:", FEEDBACK_DOWN, "feedback.negative"),
            }
        ],
    }


def action_blocks(answer: Mapping[str, Any], language: str, thread_ts: str, reference: str) -> list[Block]:
    """Feedback buttons, and "Ask the tax team" unless a ticket exists or the request was refused."""
    blocks = [feedback_block(answer, language, thread_ts, reference)]
    escalation = answer.get("escalation") or {}
    if answer.get("status") != "refused" and not escalation.get("ticket_id"):
        value = button_value(thread_ts, reference, l=language)
        blocks.append(
            {
                "type": "actions",
                "block_id": "dasar_actions",
                "elements": [
                    _button(t("button.escalate", language), ACTION_ESCALATE, value, style="primary")
                ],
            }
        )
    return blocks


def body_blocks(
    answer: Mapping[str, Any], language: str, thread_ts: str, reference: str, fallback_text: str = ""
) -> list[Block]:
    """Everything above the footer, in reading order."""
    status = answer.get("status")
    parts = [p for p in answer.get("parts") or [] if isinstance(p, Mapping)]
    claims = answer.get("claims") or []
    if parts:
        blocks = part_blocks(parts, claims, language, questions=status != "clarify")
        # what the turn added after the parts' lines ("Tiket T-... dibuat ..."), separated by a blank line
        _lines, _sep, added = str(answer.get("answer") or "").partition("\n\n")
        if added.strip():
            blocks += [
                _section(p) for p in split_text(mrkdwn.to_mrkdwn(added.strip()), MAX_SECTION_CHARS - 200)
            ]
        if status == "clarify":  # nothing answered and a part needs facts: its quick replies
            blocks += clarify_blocks(answer.get("clarifying_questions") or [], language, thread_ts, reference)
    else:
        text = short_answer(str(answer.get("answer") or fallback_text or ""))
        if not text:
            text = t("refused" if status == "refused" else "no_answer_text", language)
        blocks = [_section(piece) for piece in split_text(mrkdwn.to_mrkdwn(text), MAX_SECTION_CHARS - 200)]
        blocks += clarify_blocks(answer.get("clarifying_questions") or [], language, thread_ts, reference)
        if claims:
            blocks.append(_section(t("sources_heading", language)))
            for i, claim in enumerate(claims, start=1):
                blocks += claim_blocks(i, claim, language)
    blocks += unsupported_blocks(
        answer.get("unsupported_claims") or [], language, str(answer.get("withheld_summary") or "")
    )
    conflicts = answer.get("conflicts") or []
    if conflicts:
        lines = [t("conflicts_heading", language)] + [
            f"\u2022 {conflict_text(c, language)}" for c in conflicts
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


def part_blocks(
    parts: Sequence[Mapping[str, Any]],
    claims: Sequence[Mapping[str, Any]],
    language: str,
    *,
    questions: bool = True,
) -> list[Block]:
    """One numbered section per part of a multi-part message: the part's question (short) and its answer
    line, its clarifying questions (unless ``questions`` is False: the message's quick replies follow),
    then its claims with quotes and citations (``claim_numbers`` index the message's ``claims``; a passage
    an earlier part printed is referred to by its number, not repeated)."""
    from bot.answer.render import part_claims, part_question, quoted_above

    blocks: list[Block] = []
    printed: set[int] = set()
    for i, part in enumerate(parts, start=1):
        index = part.get("index") or i
        head = f"*{escape(index)}. {escape(part_question(str(part.get('question') or '')))}*"
        line = mrkdwn.to_mrkdwn(str(part.get("line") or ""))
        own = part.get("answer")
        if not isinstance(own, Mapping):
            own = {}
        asks = [q for q in own.get("clarifying_questions") or [] if isinstance(q, Mapping) and questions]
        lines = [head, clip(line, MAX_SECTION_CHARS - 400)]
        lines += [f"\u2022 {escape(q.get('question', ''))}" for q in asks]
        new, above = part_claims(part.get("claim_numbers") or [], len(claims), printed)
        shown = [b for n in new for b in claim_blocks(n, claims[n - 1], language)]
        if above:
            lines.append(f"_{escape(quoted_above(above, language))}_")
        blocks += [_section(p) for p in split_text("\n".join(lines))]
        blocks += shown
    return blocks


# -- paging -----------------------------------------------------------------------------------


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


def _take(blocks: list[Block], max_blocks: int, max_chars: int) -> int:
    """How many leading ``blocks`` fit in ``max_blocks`` and ``max_chars`` (at least one)."""
    used = 2  # the enclosing "[]"
    for i, block in enumerate(blocks):
        size = block_chars([block])
        if i >= max_blocks or (i > 0 and used + size > max_chars):
            return max(i, 1)
        used += size + 1
    return len(blocks)


def paginate(
    body: list[Block], tail: list[Block], language: str, page_key: str, thread_ts: str
) -> tuple[list[Block], list[list[Block]]]:
    """First message (``body`` head + ``tail``) and the overflow pages, each within the block AND
    character limits.  Each show-more button's value is a :func:`button_value` whose reference ``r``
    is the page key.
    """
    if len(body) + len(tail) <= MAX_BLOCKS and block_chars(body + tail) <= MAX_MESSAGE_CHARS:
        return body + tail, []
    more_size = block_chars(_show_more(language, f"{page_key}:99", thread_ts))
    n = _take(body, MAX_BLOCKS - len(tail) - 2, MAX_MESSAGE_CHARS - block_chars(tail) - more_size)
    first = body[:n] + _show_more(language, f"{page_key}:1", thread_ts) + tail
    rest = body[n:]
    pages: list[list[Block]] = []
    while rest:
        if len(rest) <= MAX_BLOCKS and block_chars(rest) <= MAX_MESSAGE_CHARS:
            pages.append(rest)
            break
        k = _take(rest, MAX_BLOCKS - 2, MAX_MESSAGE_CHARS - more_size)
        pages.append(rest[:k] + _show_more(language, f"{page_key}:{len(pages) + 2}", thread_ts))
        rest = rest[k:]
    return first, pages


def split_messages(blocks: list[Block]) -> list[list[Block]]:
    """``blocks`` cut, in order, into messages within the block and character limits."""
    out: list[list[Block]] = []
    rest = list(blocks)
    while rest:
        k = _take(rest, MAX_BLOCKS, MAX_MESSAGE_CHARS)
        out.append(rest[:k])
        rest = rest[k:]
    return out


def _fallback(answer: Mapping[str, Any], fallback_text: str, language: str) -> str:
    """Notification text: the short answer, plain, clipped and escaped."""
    text = short_answer(str(answer.get("answer") or fallback_text or "")) or t("no_answer_text", language)
    text = re.sub(r"(\*\*|__|~~|`)", "", text)
    return escape(clip(" ".join(text.split()), MAX_FALLBACK_CHARS))


# -- whole messages ---------------------------------------------------------------------------


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
    return RenderedMessage(text=_fallback(answer, fallback_text, language), blocks=blocks, pages=pages)


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
    """The asker-only full answer as one or more messages (posted ephemerally, all at once, in order).

    WHY no "show more" here: a stored page would later be posted by whoever clicks; private pages
    are sent immediately, to the asker only.
    """
    if reply.private_answer is None:
        return []
    ref = (reference or reply.reference_id or thread_ts) + ":private"
    answer = reply.private_answer
    body = [_section(t("private_intro", language)), *body_blocks(answer, language, thread_ts, ref)]
    body += footer_blocks(answer, language)
    text = _fallback(answer, "", language)
    return [RenderedMessage(text=text, blocks=chunk) for chunk in split_messages(body)]


def render_relay(
    text: str,
    *,
    ticket_id: str | None,
    language: str = "id",
    header: str = "",
    footer: str = "",
) -> list[RenderedMessage]:
    """A relayed tax-team message, split in order into as many messages as it needs.

    ``text`` is untrusted (the tax team's words): converted from Markdown and escaped.  ``header`` and
    ``footer`` are OUR mrkdwn (labels, responder, sources already escaped by the caller); the header
    opens the first part, the footer closes the last.  When split, every part names the ticket and
    its number ("Ticket T-000042, part 2/3") and every part but the last ends "(continued)".
    """
    body = mrkdwn.to_mrkdwn(text)
    chunks = split_text(body, RELAY_CHUNK_CHARS) or [""]
    total = len(chunks)
    out: list[RenderedMessage] = []
    for i, chunk in enumerate(chunks, start=1):
        lines = []
        if i == 1 and header:
            lines.append(header)
        lines.append(chunk)
        blocks = [_section("\n".join(lines))]
        notes: list[str] = []
        if i < total:
            notes.append(t("continued", language))
        if total > 1 and ticket_id:
            notes.append(t("relay_part", language, ticket=escape(ticket_id), n=i, total=total))
        if i == total and footer:
            blocks.append(_section(footer))
        if notes:
            blocks.append(_context(notes))
        plain = re.sub(r"[*_~`]", "", chunk)
        out.append(RenderedMessage(text=clip(" ".join(plain.split()), MAX_FALLBACK_CHARS), blocks=blocks))
    return out


def render_notice(text: str) -> RenderedMessage:
    """A one-section message (rate limit, apology, confirmation); ``text`` is trusted mrkdwn."""
    return RenderedMessage(text=clip(text, MAX_FALLBACK_CHARS), blocks=[_section(text)])
