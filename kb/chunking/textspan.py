"""Span helpers shared by the chunkers: trimming, packing long spans, tables, examples.

Every chunk must be an exact slice of the document, so the chunkers never build strings: they
move ``(start, end)`` offsets around and only slice at the very end.  These helpers keep that
discipline in one place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Soft target for a packed part; a part only exceeds it when a single unsplittable piece does.
PACK_TARGET = 1500

_SENTENCE_END = re.compile(r"(?<=[.;:])\s+(?=\S)")
_WS = re.compile(r"\s+")
_EXAMPLE = re.compile(
    r"(?:^|\n)[ \t]*Contoh\b|\bContoh\s*(?:\d+\s*)?:|\bContoh\s+(?:\d+\s*)?penghitungan", re.IGNORECASE
)


def trim(text: str, start: int, end: int) -> tuple[int, int]:
    """Shrink ``[start, end)`` so the slice has no surrounding whitespace (may become empty)."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def is_table_line(line: str) -> bool:
    """A line that looks like a table row: several ``|`` cells or tab-separated columns."""
    return line.count("|") >= 3 or line.count("\t") >= 2


def looks_like_example(chunk_text: str) -> bool:
    """True when the chunk carries a worked example ("Contoh:", "Contoh 1:", a line starting "Contoh")."""
    return bool(_EXAMPLE.search(chunk_text))


def example_start(chunk_text: str) -> int | None:
    """Where the worked example of a chunk begins (None without one): text before it is the rule."""
    m = _EXAMPLE.search(chunk_text)
    if m is None:
        return None
    return m.start() + (1 if chunk_text[m.start() : m.start() + 1] == "\n" else 0)


# a top-level section of an annex: "A. CONTOH PENGHITUNGAN ...", "B. DAFTAR IMPOR ...", "D. FORMAT
# FORMULIR DGT" (a capital letter, a dot, a heading in capitals; an amending annex's "A. Tetap." is none)
_ANNEX_SECTION = re.compile(r"^[ \t]*[A-Z]\.[ \t]+(?=[A-Z]{3,}\b)([^\n]*)", re.MULTILINE)
# a filled-in form inside a form section is a worked example: "III. Contoh Pengisian Kertas Kerja ..."
_FILLED_FORM = re.compile(
    r"^[ \t]*(?:(?:[IVX]+|\d+)\.[ \t]*)?Contoh[ \t]+(?:Pengisian|Penghitungan)\b",
    re.MULTILINE | re.IGNORECASE,
)
# a sub-heading of a form section: "I. Contoh Format Kertas Kerja ...", "II. Contoh Format Bukti ..."
_SUB_HEADING = re.compile(r"^[ \t]*[IVX]+\.[ \t]+\S", re.MULTILINE)


def _caps(line: str) -> bool:
    letters = [ch for ch in line if ch.isalpha()]
    return len(letters) >= 3 and sum(ch.isupper() for ch in letters) >= 0.8 * len(letters)


#: a heading cut short by a page break, printed again on the next page: "B. TARIF. . ," before "B. TARIF
#: EFEKTIF BULANAN KATEGORI B" (the catchword at a page's foot)
_CUT_HEADING = re.compile(r"(?:\.\s?){2,}[.,]?\s*$")


def annex_headings(text: str, start: int, end: int) -> list[tuple[int, str]]:
    """The lettered section headings of an annex ("A. TARIF EFEKTIF BULANAN KATEGORI A"), as (position,
    heading line), without a heading's catchword printed before it at a page break; ``AnnexSections`` and
    the rate tables' chunking (``regulation._rate_tables``) read the same headings."""
    return [
        (m.start(), m.group(0).strip())
        for m in _ANNEX_SECTION.finditer(text, start, end)
        if _caps(m.group(1)) and not _CUT_HEADING.search(m.group(0))
    ]


@dataclass(frozen=True)
class AnnexSections:
    """The lettered sections of an annex, each a rule, a worked example or a form template.

    An annex mixes what the act rules (the KLU table of who gets a facility, the list of import rates)
    with worked examples ("B. CONTOH PENGHITUNGAN ...") and form templates ("A. CONTOH FORMAT SURAT
    ...").  Whether a part of it is an example is decided by the section it lies in, not by the word
    "Contoh" anywhere in it: the annex title "KODE KLASIFIKASI ... DAN CONTOH PENGHITUNGAN" names both
    sections and makes neither an example.
    """

    text: str
    #: (section start, section end, kind) with kind "title", "rule", "example" or "form"
    sections: tuple[tuple[int, int, str], ...]

    @classmethod
    def of(cls, text: str, start: int, end: int) -> AnnexSections:
        heads = [(pos, cls._kind(line.split(".", 1)[1])) for pos, line in annex_headings(text, start, end)]
        if not heads:
            return cls(text, ())
        bounds = [(start, "title"), *heads]
        sections: list[tuple[int, int, str]] = []
        for i, (s, kind) in enumerate(bounds):
            e = bounds[i + 1][0] if i + 1 < len(bounds) else end
            sections.extend(cls._filled_forms(text, s, e) if kind == "form" else [(s, e, kind)])
        return cls(text, tuple(sec for sec in sections if sec[0] < sec[1]))

    @staticmethod
    def _filled_forms(text: str, start: int, end: int) -> list[tuple[int, int, str]]:
        """A form section cut at its sub-headings; "II. Contoh Pengisian ..." is an example up to the next."""
        cuts = sorted(
            {m.start() for m in _SUB_HEADING.finditer(text, start, end)}
            | {m.start() for m in _FILLED_FORM.finditer(text, start, end)}
        )
        bounds = [start, *(c for c in cuts if c > start)]
        out = []
        for i, s in enumerate(bounds):
            e = bounds[i + 1] if i + 1 < len(bounds) else end
            out.append((s, e, "example" if _FILLED_FORM.match(text, s, e) else "form"))
        return out

    @staticmethod
    def _kind(heading: str) -> str:
        words = _WS.sub(" ", heading).strip().upper()
        if words.startswith(("CONTOH FORMAT", "FORMAT")):
            return "form"
        return "example" if words.startswith("CONTOH") else "rule"

    def is_example(self, start: int, end: int) -> bool:
        """Whether the part ``[start, end)`` of the annex is a worked example.

        The kind holding most of the part's characters decides: an example section's part is one (a form
        section's "Contoh Pengisian ..." sub-section, a filled-in form, is one), a form template's is not, a
        rule section's only where it has an example of its own ("Contoh:").  An annex without lettered
        sections falls back to the part's own text.
        """
        if not self.sections:
            return looks_like_example(self.text[start:end])
        share: dict[str, int] = {}
        for s, e, kind in self.sections:
            overlap = min(e, end) - max(s, start)
            if overlap > 0:
                share[kind] = share.get(kind, 0) + overlap
        if not share:
            return False
        kind = max(sorted(share), key=lambda k: share[k])
        if kind == "example":
            return True
        if kind == "rule":
            own = "".join(self.text[max(s, start) : min(e, end)] for s, e, k in self.sections if k == "rule")
            return looks_like_example(own)
        return False


def _lines(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Line spans (without the newline) inside ``[start, end)``."""
    out = []
    pos = start
    while pos < end:
        nl = text.find("\n", pos, end)
        stop = end if nl < 0 else nl
        out.append((pos, stop))
        pos = stop + 1
    return out


def _split_long(text: str, start: int, end: int, target: int) -> list[tuple[int, int]]:
    """Split one over-long line at sentence ends, falling back to whitespace, then hard cuts."""
    cuts = [m.start() for m in _SENTENCE_END.finditer(text, start, end)]
    pieces: list[tuple[int, int]] = []
    cur = start
    last_ok = None
    for c in [*cuts, end]:
        if c - cur <= target:
            last_ok = c
            continue
        if last_ok is not None and last_ok > cur:
            pieces.append((cur, last_ok))
            cur = last_ok
            last_ok = c if c - cur <= target else None
        if last_ok is None:
            # a single sentence longer than the target: cut at whitespace
            while c - cur > target:
                ws = text.rfind(" ", cur + 1, cur + target)
                cut = ws if ws > cur else cur + target
                pieces.append((cur, cut))
                cur = cut
            last_ok = c
    if cur < end:
        pieces.append((cur, end))
    return pieces


def pack(text: str, start: int, end: int, target: int = PACK_TARGET) -> list[tuple[int, int, bool]]:
    """Cut ``[start, end)`` into parts of at most ``target`` chars at line (then sentence) boundaries.

    Returns ``(start, end, is_table)`` triples, trimmed and non-empty.  Runs of table-like lines
    are kept whole in their own part (``is_table=True``) whatever their length: a table cut in
    half cannot be quoted meaningfully.
    """
    units: list[tuple[int, int, bool]] = []
    for ls, le in _lines(text, start, end):
        table = is_table_line(text[ls:le])
        if table and units and units[-1][2]:
            units[-1] = (units[-1][0], le, True)
        elif not table and le - ls > target:
            units.extend((a, b, False) for a, b in _split_long(text, ls, le, target))
        else:
            units.append((ls, le, table))
    parts: list[tuple[int, int, bool]] = []
    for us, ue, table in units:
        if table or not parts or parts[-1][2] or ue - parts[-1][0] > target:
            parts.append((us, ue, table))
        else:
            parts[-1] = (parts[-1][0], ue, False)
    out = []
    for ps, pe, table in parts:
        ps, pe = trim(text, ps, pe)
        if ps < pe:
            out.append((ps, pe, table))
    return out


def squash(s: str, limit: int = 160) -> str:
    """Collapse whitespace for labels (heading paths); never used for chunk text."""
    s = _WS.sub(" ", s).strip()
    return s if len(s) <= limit else s[: limit - 3].rstrip() + "..."
