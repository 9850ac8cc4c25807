"""Page furniture of printed regulations, removed before chunking.

An official regulation is printed page by page, and its extracted text keeps what the printer put on every
page: the page number ("- 6 -"), the State Secretariat's copy number ("SK No 171633 A"), the running head
"PRESIDEN / REPUBLIK INDONESIA", a "jdih.kemenkeu.go.id" watermark, and the catchword -- the first words of
the next page repeated at the foot of this one ("3. dalam ..."). None of it is the rule's text, yet it sat
inside the passages: the PPh 22 import rates of PMK 51/2025 Pasal 3 read "... angka pengenal impor; - 6 -
b) barang tertentu lainnya ...", and UU 6/2023's restated UU PPh Pasal 2 ayat (3) carried "3.dalam... SK No
171633 A PRESIDEN REPUELIK INDONESIA -624-" between its items, so quotes showed it to the asker and search
scored it.

Only what is unambiguous goes: a line that is nothing but a page number or a copy number, the running head
next to one of them, the watermark, a catchword only when the text after the page break starts with the
same words, and a running head OCR ran into a line just before a Pasal or Ayat heading (it hid the heading
from the chunker: PP 44/2022's elucidation of Pasal 15 was cited as Pasal 14's).  A changed text changes
nothing else: the chunkers slice the cleaned text, and it is what the knowledge base stores as the document.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

#: "- 6 -", "-624-", "-4,-" (OCR read a comma), "– 12 –"
_PAGE_NUMBER = re.compile(r"[-–—]\s*\d{1,4}\s*[,.]?\s*[-–—]")
_PAGE_NUMBER_LINE = re.compile(rf"^\s*{_PAGE_NUMBER.pattern}\s*$")
#: the State Secretariat's copy number of a certified copy (salinan): "SK No 171633 A", "SK No 171,636 A"
_COPY_NUMBER_LINE = re.compile(r"^\s*SK\s*No\.?\s*[\dOlI][\dOlI.,\s]*[A-Z]?\s*\.?\s*$")
#: the Ministry of Finance's legal-information watermark, printed on every page of a PMK or PP copy
_WATERMARK = re.compile(r"[ \t]*\b(?:www\.)?jdih\.kemenkeu\.go\.id\b")
#: an ayat heading ("(5) Dalam hal ...") where a page starts inside a line
_AYAT_HEADING = r"\(\d{1,2}[a-z]?\)[ \t]+[A-Z]"
#: the watermark where a page began with an ayat: "... perpajakan suami. jdih.kemenkeu.go.id (5) Dalam hal"
_WATERMARK_BEFORE_AYAT = re.compile(_WATERMARK.pattern + r"[ \t]+(?=" + _AYAT_HEADING + ")")
#: the running head's words; OCR misreads them ("REPUELIK", "TNDONESTA", "FRESIDEN")
_HEAD_WORDS = ("PRESIDEN", "REPUBLIK", "INDONESIA")
#: a catchword's ellipsis: "...", ". . .", ". ..", "…"
_ELLIPSIS = re.compile(r"(?:\.\s?){2}\.|…")
_ENDS_IN_ELLIPSIS = re.compile(rf"(?:{_ELLIPSIS.pattern})\s*$")
_CATCHWORD_LINE = re.compile(rf"^(?P<lead>.*?)(?P<cw>\S(?:.{{0,60}}?\S)?)\s*(?:{_ELLIPSIS.pattern})\s*$")
#: an ellipsis inside a line, where a page break fell in a text whose lines were joined ("Ayat (8)… Ayat (8)")
_INNER_ELLIPSIS = re.compile(r"(?:…|\.\.\.)[ \t]+(?=\S)")
_SPACE = re.compile(r"\s")
#: at most this many furniture lines in one page break (a head, a copy number, a page number, blank lines)
_MAX_BLOCK = 12


@dataclass(frozen=True)
class Cleaned:
    """A text without its page furniture, and how much of each kind was removed."""

    text: str
    furniture_lines: int
    catchwords: int
    watermarks: int


def _is_anchor(line: str) -> bool:
    return bool(_PAGE_NUMBER_LINE.match(line) or _COPY_NUMBER_LINE.match(line))


def _is_head(line: str) -> bool:
    """The running head "PRESIDEN" / "REPUBLIK INDONESIA" as OCR read it, maybe with the page number.

    One word must be close to a head word (``REPUELIK``, ``TNDONESTA``); the others close too, or short
    fragments OCR cut from one (``BUK INDONESIA``, ``UI( INDONESIA``)."""
    if line.rstrip().endswith((",", ":")):
        return False  # "PRESIDEN REPUBLIK INDONESIA," opens the enactment or signs it
    words = [re.sub(r"[^A-Za-z]", "", w) for w in _PAGE_NUMBER.sub(" ", line).split()]
    if not words or len(words) > 3 or not all(w.isupper() for w in words):
        return False
    closeness = [max(difflib.SequenceMatcher(None, w, head).ratio() for head in _HEAD_WORDS) for w in words]
    return max(closeness) >= 0.75 and all(
        c >= 0.6 or len(w) <= 3 for w, c in zip(words, closeness, strict=True)
    )


def _is_stray(line: str) -> bool:
    """A margin mark OCR read beside a page break: one or two letters or digits alone on a line."""
    s = line.strip()
    return 0 < len(s) <= 2 and s.isalnum()


def _comparable(text: str) -> str:
    """Letters and digits only, with the OCR confusions l/I/1 -> i, for telling a catchword by its words."""
    return re.sub(r"[^a-z0-9]", "", text.lower().replace("l", "i").replace("1", "i"))


def _starts_with(following: str, catchword: str) -> bool:
    cw = _comparable(catchword)
    return len(cw) >= 2 and _comparable(following[: len(catchword) * 2 + 20]).startswith(cw)


def _repeated_tail(words: str, following: str) -> int | None:
    """Where the shortest tail of ``words`` (from a word start) begins whose words begin ``following``: the
    catchword, printed before the page break and again after it; None when no tail does."""
    starts = [0] + [i + 1 for i, ch in enumerate(words) if ch.isspace()]
    return next((s for s in reversed(starts) if _starts_with(following, words[s:])), None)


def _catchword_end(line: str, following: str) -> int | None:
    """Where the catchword at the end of ``line`` starts (with a page number before it), or None.

    ``following`` is the text after the page break; the catchword must be its first words."""
    m = _CATCHWORD_LINE.match(line)
    if m is None:
        return None
    tail = _repeated_tail(m.group("cw"), following)
    if tail is None:
        return None
    cut = len(m.group("lead")) + tail
    # "... negara. 6 27. Pemeriksaan...": the page number printed before the catchword goes too
    number = re.search(r"\s\d{1,3}\s+$", line[:cut])
    if number:
        cut = number.start()
    return len(line[:cut].rstrip())


def _inner_catchwords(line: str) -> tuple[str, int]:
    """``line`` without catchwords repeated inside it ("8. Ketentuan… 8. Ketentuan Pasal 7 diubah")."""
    removed = 0
    pos = 0
    while True:
        m = _INNER_ELLIPSIS.search(line, pos)
        if m is None:
            return line, removed
        start = max(0, m.start() - 62)
        if start:  # a window cut inside the line starts at its first whole word
            space = _SPACE.search(line, start, m.start())
            start = space.end() if space else m.start()
        tail = _repeated_tail(line[start : m.start()], line[m.end() :])
        if tail is None:
            pos = m.end()
            continue
        line = line[: start + tail] + line[m.end() :]
        removed += 1
        pos = start + tail


def remove_page_furniture(text: str) -> Cleaned:
    """``text`` without page numbers, copy numbers, running heads, watermarks and verified catchwords."""
    lines = text.split("\n")
    drop = [False] * len(lines)
    furniture = 0
    for i, line in enumerate(lines):
        if not _is_anchor(line) or drop[i]:
            continue
        # the page break around the anchor: blank lines, running heads, margin marks, other anchors
        lo = i
        while lo > 0 and i - lo < _MAX_BLOCK and _in_block(lines[lo - 1]):
            lo -= 1
        hi = i
        while hi + 1 < len(lines) and hi - i < _MAX_BLOCK and _in_block(lines[hi + 1]):
            hi += 1
        while lo < i and not lines[lo].strip():
            lo += 1  # blank lines before the break stay (they may end a paragraph)
        for j in range(lo, hi + 1):
            if lines[j].strip():
                furniture += 1
            drop[j] = True
    kept: list[str] = []
    catchwords = 0
    for i, line in enumerate(lines):
        if drop[i]:
            continue
        line, inner = _inner_catchwords(line)
        catchwords += inner
        # the text after the break is gathered only for a line ending like a catchword (a few per document)
        following = _next_text(lines, drop, i) if _ENDS_IN_ELLIPSIS.search(line) else ""
        if following:
            end = _catchword_end(line, following)
            if end is not None:
                catchwords += 1
                line = line[:end]
                if not line.strip():
                    continue
        kept.append(line)
    # the watermark goes with the blanks before it; the text around it keeps its own spacing, except that an
    # ayat heading after it starts its line (left inside the line, the chunker read it as text of the ayat
    # before: PP 50/2022 Pasal 2 ayat (5) was quoted as part of ayat (4))
    cleaned, before_ayat = _WATERMARK_BEFORE_AYAT.subn("\n", "\n".join(kept))
    cleaned, watermarks = _WATERMARK.subn("", cleaned)
    watermarks += before_ayat
    cleaned, inline = _inline_heads(cleaned)
    return Cleaned(cleaned, furniture + inline, catchwords, watermarks)


#: a structural heading inside a line, where OCR ran the page's running head into the text before it
#: ("... Cukup jelas. REPUE|JK IHDONESIA Pasal 12 Ayat (1) ...", "I]RES IDEN REPU BLII( INDONESIA Pasal 6
#: Mengingat ...", "... kurang disetor. FRESIDEhI REPUBLIK INDONESIA - 11- (4) Pemungut ...", a list
#: item: "... perikanan; FRES IDEN REPUBLIK INDONESIA f. pakan ternak ...")
_HEADING_INSIDE = re.compile(
    r"(?<=\S)[ \t]+(?=Pasal[ \t]+[0-9]|Ayat[ \t]*\(|" + _AYAT_HEADING + r"|[a-z]\.[ \t]+[a-z])"
)
_WORD = re.compile(r"\S+")
#: the page number printed beside the running head, as OCR split it: "-29-", "-", "11-" (a bare number is
#: none: "atau 2 (9) Direktur ...")
_PAGE_TOKEN = re.compile(r"(?=\S*[-–—])[-–—]*\d{0,4}[,.]?[-–—]*")


def _head_words(tokens: list[str]) -> bool:
    """Whether ``tokens`` read as the running head: words of at least two letters, upper case (one misread
    letter allowed per word), the last close to "INDONESIA" or "PRESIDEN"."""
    words = [re.sub(r"[^A-Za-z]", "", t) for t in tokens]
    if any(len(w) < 2 or sum(not c.isupper() for c in w) > 1 for w in words):
        return False  # "+", "Rp333.000.000,00" or "Mewah." before the head stay
    last = words[-1].upper()
    return max(difflib.SequenceMatcher(None, last, h).ratio() for h in ("INDONESIA", "PRESIDEN")) >= 0.75


def _inline_heads(text: str) -> tuple[str, int]:
    """``text`` with each running head (and the page number beside it) read into a line before a Pasal, an
    elucidation's Ayat, an ayat or a list item replaced by a line break: left there, it hides the heading from
    the chunker (an elucidation's "Pasal 15" after "REI'UEUK INDONESIA" was read as part of Pasal 14's, and
    cited under its label), and it reads as words of the passage before it.  At most five words go, and only
    with text before them on the line."""
    out: list[str] = []
    pos = count = 0
    for m in _HEADING_INSIDE.finditer(text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        words = list(_WORD.finditer(text, line_start, m.start()))
        while len(words) > 1 and _PAGE_TOKEN.fullmatch(words[-1].group()):
            words.pop()  # the page number goes with the head
        for k in (5, 4, 3, 2, 1):
            if len(words) > k and _head_words([w.group() for w in words[-k:]]):
                start = words[-k].start()
                out.append(text[pos:start].rstrip(" \t"))
                out.append("\n")
                pos = m.end()
                count += 1
                break
    out.append(text[pos:])
    return "".join(out), count


def _in_block(line: str) -> bool:
    return not line.strip() or _is_anchor(line) or _is_head(line) or _is_stray(line)


def _next_text(lines: list[str], drop: list[bool], i: int, size: int = 160) -> str:
    """The text after line ``i`` (furniture skipped), enough to compare a catchword with."""
    out: list[str] = []
    total = 0
    for j in range(i + 1, min(len(lines), i + 20)):
        if drop[j] or not lines[j].strip():
            continue
        out.append(lines[j])
        total += len(lines[j])
        if total >= size:
            break
    return " ".join(out)
