"""Markers inside a Pasal: ayat "(1)", list items "a." / "1." / "a)", sequence-checked.

Regulation text nests lists (huruf a. > angka 1. > huruf a. > a)), and OCR drops or garbles
markers.  Instead of trusting every line that looks like a marker, each finder only accepts a
marker that continues a sequence it is tracking, which is what keeps a nested "a." from being
mistaken for a new top-level item and a "(21" from being missed.
"""

from __future__ import annotations

import re

_AYAT_LINE = re.compile(r"^[ \t]*\((\d{1,2}[a-z]?|l|I)\)[ \t]*(?=\S)", re.MULTILINE)
# a reference the layout wrapped before its number ("sebagaimana dimaksud dalam Pasal 10 ayat\n(3) huruf c
# tidak perlu ...", PMK 112/2025 Pasal 11): the line-start "(3)" continues it and heads no ayat
_WRAPPED_REFERENCE = re.compile(r"\bayat[ \t]*\n[ \t]*$", re.IGNORECASE)
# OCR: "(21 Dalam" for "(2) Dalam", "(l)" for "(1)"
_AYAT_OCR = re.compile(r"^[ \t]*\((\d)[1l][ \t]+(?=[A-Z])", re.MULTILINE)
# (also behind a page number the scrape joined to the line: "... ekspor Jasa Kena Pajak. 3 (3) Tarif")
_AYAT_INLINE = re.compile(r"(?<=[.;:] )(?:\d{1,3}[ \t]+)?\((\d{1,2}[a-z]?)\)[ \t]+(?=[A-Z])")
# OCR "l" for the closing bracket of a lettered ayat, at a line start or run into the sentence before:
# "... ayat (1) huruf b. (2cl Tarif yang dikenakan atas penghasilan berupa dividen ..." (UU HPP's restated UU
# PPh Pasal 17 ayat (2c), the 10% dividend rate, was read as part of ayat (2b))
_AYAT_OCR_LETTER = re.compile(r"(?:^[ \t]*|(?<=[.;:] ))\((\d{1,2}[a-z])l[ \t]+(?=[A-Z])", re.MULTILINE)
# OCR "0" for "f)" run into the sentence before: "... kelebihan pajak. (40 Apabila berdasarkan hasil
# pemeriksaan" is ayat (4f) of UU PPN Pasal 9 as UU HPP restates it (accepted only right after ayat (4e))
_AYAT_OCR_F = re.compile(r"(?<=[.;:] )\((\d)0[ \t]+(?=[A-Z])")
# what a scrape leaves between a Pasal heading and its ayat (1): the heading again ("Pasal 42\nPasal 42 (1)"),
# a page number ("Pasal 4\n13 (1) Wajib Pajak"), a stray bracket ("Pasal 11\n[ (1) Biaya")
_RESIDUE = r"(?:Pasal[ \t]+\d{1,3}[A-Z]?[ \t]+|\d{1,3}[ \t]+|[\[\]|]+[ \t]*)"
HEADING_RESIDUE = re.compile(rf"[ \t\n]*{_RESIDUE}?")
# ayat (1) on the heading's own line ("Pasal 6 (l) Keuntungan", OCR "Pasal 3 (U Dikecualikan"), or on the next
# line behind heading residue
_AYAT_FIRST = re.compile(rf"(?:[ \t]*|[ \t]*\n[ \t]*{_RESIDUE})\((?:1\)|l\)|I\)|U(?=[ \t]))[ \t]*(?=[A-Z])")

_ITEM_LINE = re.compile(
    r"^[ \t]*(?:(?P<h>[a-z]{1,2})\.|(?P<n>\d{1,3})[ ]?\.|(?P<p>[a-z]{1,2}|\d{1,2})\))[ \t]+(?=\S)",
    re.MULTILINE,
)


def ayat_value(v: str) -> tuple[int, str]:
    """``"4a" -> (4, "a")`` for ordering ayat numbers."""
    m = re.fullmatch(r"(\d+)([a-z]?)", v)
    return (int(m.group(1)), m.group(2)) if m else (0, "")


def _ayat_expected(cur: tuple[int, str]) -> set[tuple[int, str]]:
    n, s = cur
    nxt = {(n + 1, "")}
    nxt.add((n, chr(ord(s) + 1) if s else "a"))
    return nxt


def find_ayat(text: str, start: int, end: int) -> list[tuple[int, str]]:
    """Positions and numbers of the ayat markers of one Pasal body ``[start, end)``.

    The first ayat must be (1); later clean line-start markers only need to be greater than
    the previous one; OCR-damaged or inline markers must be exactly the expected next one.
    """
    cands: list[tuple[int, str, bool]] = []  # pos, value, strict
    first = _AYAT_FIRST.match(text, start, end)
    if first:
        cands.append((text.index("(", first.start()), "1", True))
    for m in _AYAT_LINE.finditer(text, start, end):
        if _WRAPPED_REFERENCE.search(text, max(start, m.start() - 12), m.start()):
            continue
        v = m.group(1)
        cands.append((m.start(1) - 1, "1" if v in ("l", "I") else v, v in ("l", "I")))
    for m in _AYAT_OCR.finditer(text, start, end):
        cands.append((m.start(1) - 1, m.group(1), True))
    for m in _AYAT_INLINE.finditer(text, start, end):
        cands.append((m.start(1) - 1, m.group(1), True))
    for m in _AYAT_OCR_LETTER.finditer(text, start, end):
        cands.append((m.start(1) - 1, m.group(1), True))
    for m in _AYAT_OCR_F.finditer(text, start, end):
        cands.append((m.start(1) - 1, f"{m.group(1)}f", True))
    cands.sort()
    out: list[tuple[int, str]] = []
    cur: tuple[int, str] | None = None
    for pos, v, strict in cands:
        if out and pos <= out[-1][0]:
            continue
        val = ayat_value(v)
        if cur is None:
            ok = val == (1, "")
        elif strict:
            ok = val in _ayat_expected(cur)
        else:
            ok = val > cur
        if ok:
            out.append((pos, v))
            cur = val
    return out


def _next_value(kind: str, v: str) -> str:
    if v.isdigit():
        return str(int(v) + 1)
    if len(v) == 1:
        return "aa" if v == "z" else chr(ord(v) + 1)
    return chr(ord(v[0]) + 1) * 2 if v[0] < "z" else v + v[0]


# an item run into the previous one by OCR or layout: "... pemotongan; e. pengarang ...", also behind a page
# number the scrape joined to the line ("... bentuk usaha lain; 2 n. jasa penyediaan tempat parkir ..."): only
# the expected next top-level letter is accepted this way
_ITEM_INLINE = re.compile(r"(?<=[;:,] )(?:\d{1,3}[ \t]+)?(?P<h>[a-z])\.[ \t]+(?=[a-z(])")
# a numbered item run into the previous sentence, often behind a page number the scrape joined to the line
# ("... kemakmuran rakyat. 3 2. Wajib Pajak adalah ..."): again only the expected next number of a lone
# top-level list
_NUMBER_INLINE = re.compile(r"(?<=[.;:] )(?:\d{1,3}[ \t]+)?(?P<n>\d{1,2})\.[ \t]+(?=[A-Z])")


def _ends_an_item(text: str, pos: int) -> bool:
    """Whether the text before ``pos`` closes a list item ("...;", "...; dan") rather than opening a nested
    list ("... sebagai berikut:"): a "1." after it cannot be the first item of a list inside the last one."""
    before = text[:pos].rstrip()
    return before.endswith((";", "; dan", "; atau", "; dan/atau"))


def _is_first(v: str) -> bool:
    return v in ("a", "1")


def find_items(text: str, start: int, end: int) -> list[tuple[int, str, str]]:
    """Top-level list items of ``[start, end)`` as ``(pos, kind, value)``; kind ``huruf``/``angka``.

    Keeps a stack of open lists (type + last value); an item continues the deepest open list of
    its type whose expected next value it matches, else opens a nested list if it is a first
    item ("a", "1"), else it is ignored (a stray marker-looking line).
    """
    stack: list[list[str]] = []  # [type, last value]
    top: list[tuple[int, str, str]] = []
    cands: list[tuple[int, str, str, bool]] = []  # pos, type, value, inline
    for m in _ITEM_LINE.finditer(text, start, end):
        if m.group("h"):
            cands.append((m.start(), "h", m.group("h"), False))
        elif m.group("n"):
            cands.append((m.start(), "n", str(int(m.group("n"))), False))
        else:
            cands.append((m.start(), "p", m.group("p"), False))
    for m in _ITEM_INLINE.finditer(text, start, end):
        cands.append((m.start("h"), "h", m.group("h"), True))
    for m in _NUMBER_INLINE.finditer(text, start, end):
        cands.append((m.start("n"), "n", str(int(m.group("n"))), True))
    cands.sort()
    for pos, t, v, inline in cands:
        if (t, v) == ("n", "1") and len(stack) == 1 and stack[0] == ["h", "k"] and _ends_an_item(text, pos):
            t, v = "h", "l"  # OCR read huruf "l." as "1." after a closed huruf k (UU PPh Pasal 6 ayat (1))
        if inline:
            # only the next letter of a lone top-level huruf list, never a nested or a first item; a number
            # may also be one past the next (OCR lost the marker in between, as for line-start items below)
            nexts = {_next_value(t, stack[0][1])} if len(stack) == 1 else set()
            if t == "n" and nexts:
                nexts.add(_next_value(t, _next_value(t, stack[0][1])))
            if len(stack) == 1 and stack[0][0] == t and v in nexts:
                stack[0][1] = v
                top.append((pos, t, v))
            continue
        matched = False
        for i in range(len(stack) - 1, -1, -1):
            if stack[i][0] == t and _next_value(t, stack[i][1]) == v:
                del stack[i + 1 :]
                stack[i][1] = v
                matched = True
                if i == 0:
                    top.append((pos, t, v))
                break
        if (
            not matched
            and t in ("h", "n")
            and stack
            and stack[0][0] == t
            and (len(v) == 1 or t == "n")
            and all(level[0] != t for level in stack[1:])
            and _next_value(t, _next_value(t, stack[0][1])) == v
        ):
            # OCR lost one marker ("d." ... "f.", "1." ... "3."): a line-start letter or number one past the
            # expected one continues the top-level list, so the text after it keeps its own label
            del stack[1:]
            stack[0][1] = v
            top.append((pos, t, v))
            continue
        if not matched and _is_first(v):
            if t == "p" and not stack:
                continue  # "a)" lists are never a top level of their own here
            stack.append([t, v])
            if len(stack) == 1:
                top.append((pos, t, v))
    return [(pos, "huruf" if t == "h" else "angka", v) for pos, t, v in top]
