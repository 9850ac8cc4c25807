"""Chunker for internal documents (memo, policy, procedure, faq) written in Markdown.

The body (front matter already stripped) is cut at ``#`` headings: each section is a
``section`` chunk located by its heading path ("Bagian 3 > 3.2 Dokumen vendor asing").  Long
sections are packed by paragraphs; Markdown tables are never cut.

Memos follow Issue / Facts / Analysis / Conclusion / Limitation (or the Indonesian names).  A
conclusion quoted without its facts and limitations misleads, so Conclusion chunks carry
``links`` to the Facts and Limitation chunks and retrieval can pull them in together.
"""

from __future__ import annotations

import re
from typing import Any

from kb.chunking.textspan import looks_like_example, trim
from kb.model import DocumentMeta, ParsedChunk, Reference
from kb.refs import find_doc_refs

INTERNAL_TYPES: frozenset[str] = frozenset({"memo", "policy", "procedure", "faq"})

#: Soft size of a packed part of a long section.
SECTION_MAX = 1500

_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t#]*$")
_FENCE = re.compile(r"^[ \t]*(```|~~~)")
_TABLE_LINE = re.compile(r"^[ \t]*\|")

_CANONICAL: dict[str, tuple[str, ...]] = {
    "Issue": (
        "issue",
        "issues",
        "isu",
        "permasalahan",
        "masalah",
        "pokok permasalahan",
        "question",
        "pertanyaan",
    ),
    "Facts": ("facts", "fact", "fakta", "fakta-fakta", "latar belakang fakta", "background"),
    "Analysis": ("analysis", "analisis", "analisa", "pembahasan"),
    "Conclusion": ("conclusion", "conclusions", "kesimpulan", "simpulan"),
    "Limitation": ("limitation", "limitations", "batasan", "keterbatasan", "caveat", "caveats"),
}
_ALIASES = {alias: name for name, aliases in _CANONICAL.items() for alias in aliases}


def canonical_section(heading: str) -> str | None:
    """``"3. Kesimpulan"`` -> ``"Conclusion"``; None when the heading is not a memo section."""
    h = re.sub(r"^[\s\d.IVX)]+(?=\S)", "", heading.strip().lower()) if heading else ""
    h = re.sub(r"[*_`:]+", "", h).strip()
    h = re.split(r"\s*[/(\-–]\s*", h)[0].strip() if h not in _ALIASES else h
    return _ALIASES.get(h)


def _slug(s: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")
    return s[:60] or "bagian"


def _paragraph_blocks(text: str, start: int, end: int) -> list[tuple[int, int, bool]]:
    """Paragraphs (blank-line separated) and table blocks of ``[start, end)``; tables flagged."""
    blocks: list[tuple[int, int, bool]] = []
    pos = start
    cur_s: int | None = None
    cur_table = False
    while pos < end:
        nl = text.find("\n", pos, end)
        le = end if nl < 0 else nl
        line = text[pos:le]
        is_table = bool(_TABLE_LINE.match(line))
        blank = not line.strip()
        if (blank or (cur_s is not None and is_table != cur_table)) and cur_s is not None:
            blocks.append((cur_s, pos, cur_table))
            cur_s = None
        if not blank and cur_s is None:
            cur_s, cur_table = pos, is_table
        pos = le + 1
    if cur_s is not None:
        blocks.append((cur_s, end, cur_table))
    return blocks


def _pack_section(text: str, start: int, end: int) -> list[tuple[int, int, bool]]:
    parts: list[tuple[int, int, bool]] = []
    for bs, be, table in _paragraph_blocks(text, start, end):
        if parts and not table and not parts[-1][2] and be - parts[-1][0] <= SECTION_MAX:
            parts[-1] = (parts[-1][0], be, False)
        else:
            parts.append((bs, be, table))
    out = []
    for ps, pe, table in parts:
        ps, pe = trim(text, ps, pe)
        if ps < pe:
            out.append((ps, pe, table))
    return out


def chunk_internal(text: str, meta: DocumentMeta) -> list[ParsedChunk]:
    """Chunk a Markdown body by headings; pure and deterministic."""
    # 1. headings outside code fences
    heads: list[tuple[int, int, int, str]] = []  # line start, line end, level, title
    pos = 0
    in_fence = False
    while pos <= len(text):
        nl = text.find("\n", pos)
        le = len(text) if nl < 0 else nl
        line = text[pos:le]
        if _FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence:
            m = _HEADING.match(line)
            if m:
                heads.append((pos, le, len(m.group(1)), m.group(2).strip()))
        if nl < 0:
            break
        pos = nl + 1

    # 2. sections: (start, body_start, end, path)
    sections: list[tuple[int, int, int, tuple[str, ...]]] = []
    if not heads or heads[0][0] > 0:
        first = heads[0][0] if heads else len(text)
        sections.append((0, 0, first, ()))
    stack: list[tuple[int, str]] = []
    for i, (hs, he, level, title) in enumerate(heads):
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, title))
        end = heads[i + 1][0] if i + 1 < len(heads) else len(text)
        sections.append((hs, he, end, tuple(t for _, t in stack)))

    # 3. chunks
    chunks: list[dict[str, Any]] = []
    used: dict[str, int] = {}

    def unique(key: str) -> str:
        n = used.get(key, 0) + 1
        used[key] = n
        return key if n == 1 else f"{key}~{n}"

    for start, body_start, end, path in sections:
        bs, be = trim(text, body_start, end)
        if bs >= be:
            continue  # a heading directly followed by a sub-heading: it lives on in heading_path
        heading = path[-1] if path else None
        canon = canonical_section(heading) if heading else None
        section = canon or heading
        location = " > ".join(path) if path else (meta.title or "Pendahuluan")
        base = "/".join(_slug(p) for p in path) if path else "pembuka"
        s, e = trim(text, start, end)
        pieces = [(s, e, False)] if e - s <= SECTION_MAX else _pack_section(text, s, e)
        parent = None
        if len(pieces) > 1:
            parent = unique(base)
            chunks.append(
                dict(
                    key=parent,
                    kind="section",
                    location=location,
                    start=s,
                    end=e,
                    section=section,
                    heading_path=path,
                    indexed=False,
                    parent_key=None,
                    canon=canon,
                )
            )
        for i, (ps, pe, table) in enumerate(pieces, 1):
            key = unique(base if len(pieces) == 1 else f"{base}/part-{i}")
            chunks.append(
                dict(
                    key=key,
                    kind="table" if table else "section",
                    location=location,
                    start=ps,
                    end=pe,
                    section=section,
                    heading_path=path,
                    indexed=True,
                    parent_key=parent,
                    canon=canon,
                )
            )

    facts_limits = tuple(c["key"] for c in chunks if c["canon"] in ("Facts", "Limitation") and c["indexed"])
    out = []
    for c in chunks:
        t = text[c["start"] : c["end"]]
        refs = (
            tuple(Reference("doc", doc=d.key, text=d.text) for d in find_doc_refs(t)) if c["indexed"] else ()
        )
        out.append(
            ParsedChunk(
                key=c["key"],
                kind=c["kind"],
                location=c["location"],
                text=t,
                start=c["start"],
                end=c["end"],
                parent_key=c["parent_key"],
                heading_path=c["heading_path"],
                indexed=c["indexed"],
                is_example=looks_like_example(t),
                references=refs,
                section=c["section"],
                links=facts_limits if c["canon"] == "Conclusion" else (),
            )
        )
    return out
