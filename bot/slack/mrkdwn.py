"""Standard Markdown (what the answer pipeline writes) -> Slack ``mrkdwn``, escaping everything else.

Slack's mrkdwn is not Markdown: bold is ``*x*``, italic ``_x_``, strike ``~x~``, links ``<url|label>``,
and ``&``, ``<``, ``>`` are control characters.  Every text we did not write ourselves (answers,
quotes, relayed tax-team answers, the notification ``text``) goes through :func:`to_mrkdwn` or
:func:`escape` so ``<!channel>``, ``<!here>``, ``<@U123>`` and ``<url|label>`` can never reach Slack
raw.  The only links produced are ``http(s)`` URLs from Markdown ``[label](url)`` or from source
metadata (:func:`link`).

Supported Markdown: ``**bold**``/``__bold__``, ``*italic*``/``_italic_``, ``~~strike~~``, inline
code and fenced code blocks (kept verbatim, escaped), ``# headings`` (-> bold line), ``- `` / ``* ``
/ ``+ `` bullets (-> ``•``), numbered lists (kept), ``> `` blockquotes (kept as Slack quotes), and
``[label](http...)`` links.  Anything else is plain text.
"""

from __future__ import annotations

import re

_BOLD = "\x01"
_ITALIC = "\x02"
_STRIKE = "\x03"

_CODE_SPAN = re.compile(r"`([^`\n]+)`")
_LINK = re.compile(r"\[([^\]\n]+)\]\(([^)\s]+)\)")
_BOLD_MD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*|__(?=\S)(.+?)(?<=\S)__")
_ITALIC_STAR = re.compile(r"(?<![\w*])\*(?=[^\s*])([^*\n]+?)(?<=[^\s*])\*(?![\w*])")
_ITALIC_UNDER = re.compile(r"(?<![\w_])_(?=[^\s_])([^_\n]+?)(?<=[^\s_])_(?![\w_])")
_STRIKE_MD = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^(\s*)[-*+]\s+(.*)$")
_QUOTE = re.compile(r"^\s*>\s?(.*)$")
_FENCE = re.compile(r"^\s*```")


def escape(text: object) -> str:
    """Slack escaping of ``&``, ``<``, ``>``: no link, mention or ``<!here>`` can come from ``text``."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def is_safe_url(url: object) -> bool:
    """An ``http(s)`` URL without characters that could break out of ``<url|label>``."""
    return (
        isinstance(url, str)
        and url.startswith(("https://", "http://"))
        and not any(c in url for c in "<>| \n\t")
    )


def link(url: object, label: object) -> str:
    """``<url|label>`` for a safe http(s) URL; just the escaped label otherwise."""
    safe_label = escape(label).replace("|", "/")
    return f"<{url}|{safe_label}>" if is_safe_url(url) else safe_label


def _inline(text: str) -> str:
    """One line of Markdown (no block syntax) -> mrkdwn, escaped."""
    # Protect code spans and links first: their content must not be re-formatted.
    protected: list[str] = []

    def keep(value: str) -> str:
        protected.append(value)
        return f"\x00{len(protected) - 1}\x00"

    text = _CODE_SPAN.sub(lambda m: keep("`" + escape(m.group(1)) + "`"), text)
    text = _LINK.sub(lambda m: keep(link(m.group(2), _plain(m.group(1)))), text)
    text = escape(text)
    text = _BOLD_MD.sub(lambda m: _BOLD + (m.group(1) or m.group(2)) + _BOLD, text)
    text = _STRIKE_MD.sub(lambda m: _STRIKE + m.group(1) + _STRIKE, text)
    text = _ITALIC_STAR.sub(lambda m: _ITALIC + m.group(1) + _ITALIC, text)
    text = _ITALIC_UNDER.sub(lambda m: _ITALIC + m.group(1) + _ITALIC, text)
    text = text.replace(_BOLD, "*").replace(_ITALIC, "_").replace(_STRIKE, "~")
    return re.sub("\x00(\\d+)\x00", lambda m: protected[int(m.group(1))], text)


def _plain(text: str) -> str:
    """Markdown emphasis markers removed (for link labels)."""
    return re.sub(r"(\*\*|__|~~|[*_`])", "", text)


def to_mrkdwn(markdown: object) -> str:
    """Markdown -> Slack mrkdwn (see module docstring); untrusted input is safe to pass."""
    out: list[str] = []
    in_fence = False
    for raw in str(markdown).replace("\r\n", "\n").split("\n"):
        if _FENCE.match(raw):
            in_fence = not in_fence
            out.append("```")
            continue
        if in_fence:
            out.append(escape(raw))
            continue
        heading = _HEADING.match(raw)
        if heading:
            body = _inline(heading.group(1)).strip("*")
            out.append(f"*{body}*" if body else "")
            continue
        quote = _QUOTE.match(raw)
        if quote:
            out.append("> " + _inline(quote.group(1)) if quote.group(1) else ">")
            continue
        bullet = _BULLET.match(raw)
        if bullet and not raw.lstrip().startswith("**"):
            indent = " " * min(len(bullet.group(1)), 8)
            out.append(f"{indent}\u2022 {_inline(bullet.group(2))}")
            continue
        out.append(_inline(raw))
    if in_fence:
        out.append("```")
    return "\n".join(out).strip("\n")


def blockquote(text: object) -> str:
    """Escaped ``text`` as a Slack blockquote (every line starts with ``>``), whitespace normalised."""
    lines = [" ".join(line.split()) for line in str(text).strip().splitlines()]
    return "\n".join("> " + escape(line) for line in lines if line) or ">"


def plain(text: object) -> str:
    """Escaped plain text (no formatting conversion): for labels and relayed snippets."""
    return escape(text)
