"""PTKP statuses as a question writes them ("TK/0", "K/1", "kawin dengan 2 tanggungan") and as the regulations
write them out ("tidak kawin tanpa tanggungan", "kawin dengan jumlah tanggungan sebanyak 1 (satu) orang").

Why one module: the composer prefers the rule that writes out the asker's status (``bot.answer.extractive``)
and retrieval reads the rate category an act assigns it (``kb.brackets.class_of_status``); both must read a
code the same way."""

from __future__ import annotations

import functools
import re

#: A PTKP status written as its code ("K/1", "TK/0"): the regulations write it out, so the item for the
#: asker's status shares no word with the code.
STATUS_CODE = re.compile(r"(?<![\w/])(TK|K)\s*/\s*([0-3])(?![\w/])", re.I)
_DEPENDANTS = ("", "satu", "dua", "tiga")


@functools.lru_cache(maxsize=64)
def status_pattern(code: str, n: int) -> re.Pattern[str]:
    """How the regulations write status ``code``/``n`` out ("K", 1 -> "kawin dengan jumlah tanggungan
    sebanyak 1 (satu) orang"); "kawin" never matches inside "tidak kawin"."""
    married = r"(?<!tidak\s)\bkawin" if code == "K" else r"\btidak\s+kawin"
    tail = (
        r"\s+tanpa\s+tanggungan"
        if n == 0
        else rf"\s+dengan\s+jumlah\s+tanggungan\s+sebanyak\s+\S+\s*\({_DEPENDANTS[n]}\)"
    )
    return re.compile(married + tail, re.I)


#: the number of dependants a status counts, in digits and words (no status has more than 3)
_COUNTS = {
    word: n
    for n, words in enumerate(
        (("0", "nol"), ("1", "satu", "one"), ("2", "dua", "two"), ("3", "tiga", "three"))
    )
    for word in words
}
_COUNT = rf"\b(?:{'|'.join(_COUNTS)})\b(?![.,]\d)"
_DEPENDANT = r"(?:tanggungan|anak|dependants?|dependents?|children|child|kids?)"
_SINGLE = r"(?:(?:tidak|belum)\s+(?:kawin|menikah)|lajang|single|unmarried|not\s+married)"
_MARRIED = (
    r"(?<!tidak\s)(?<!belum\s)(?<!not\s)\b(?:kawin|menikah|married)"
    r"(?:\s+(?:taxpayer|employee|person|couple))?"
)
_HOW_MANY = (
    rf"(?:\s*,)?\s+(?:(?:dengan|dan|with|and|punya|has|having)\s+)?(?:"
    rf"(?:tanpa|without|no|tidak\s+ada)\s+{_DEPENDANT}"
    rf"|(?:jumlah\s+)?{_DEPENDANT}\s+(?:sebanyak\s+)?{_COUNT}"
    rf"|{_COUNT}\s+(?:orang\s+)?{_DEPENDANT})"
)
#: A PTKP status written in words, as staff write it ("kawin dengan 2 tanggungan", "belum menikah tanpa
#: tanggungan", "married with two children"): only with the number of dependants (or "tanpa"), which the
#: status needs; "kawin" alone says nothing about them.
STATUS_WORDS = re.compile(rf"\b(?P<single>{_SINGLE})\b{_HOW_MANY}|{_MARRIED}\b{_HOW_MANY}", re.I)
_COUNT_WORD = re.compile(_COUNT, re.I)


# read per candidate passage and unit of one question (bot.answer.extractive)
@functools.lru_cache(maxsize=256)
def statuses_named(text: str) -> tuple[tuple[str, int], ...]:
    """The PTKP statuses the text names, by code ("K/2") or in words ("kawin dengan 2 tanggungan"), each
    once, in the order named."""
    found: list[tuple[int, tuple[str, int]]] = [
        (m.start(), (m.group(1).upper(), int(m.group(2)))) for m in STATUS_CODE.finditer(text)
    ]
    for m in STATUS_WORDS.finditer(text):
        count = _COUNT_WORD.search(m.group(0))
        n = _COUNTS[count.group(0).lower()] if count else 0  # no count: "tanpa tanggungan"
        found.append((m.start(), ("TK" if m.group("single") else "K", n)))
    return tuple(dict.fromkeys(status for _, status in sorted(found)))


def status_patterns(text: str) -> tuple[re.Pattern[str], ...]:
    """How the regulations write each PTKP status the text names (:func:`statuses_named`)."""
    return tuple(status_pattern(code, n) for code, n in statuses_named(text))


#: How the income tax act writes the items a PTKP adds up (UU PPh Pasal 7 ayat (1), every wording since 2008):
#: "a. Rp54.000.000,00 ... untuk diri Wajib Pajak orang pribadi", "b. Rp4.500.000,00 ... tambahan untuk Wajib
#: Pajak yang kawin", "d. Rp4.500.000,00 ... tambahan untuk setiap anggota keluarga sedarah ... yang menjadi
#: tanggungan sepenuhnya, paling banyak 3 (tiga) orang".  (Item c, a wife whose income is joined to her
#: husband's, is no part of a status code.)
PTKP_ITEMS = {
    "self": re.compile(r"\buntuk\s+diri\s+Wajib\s+Pajak\b", re.I),
    "married": re.compile(r"\btambahan\s+untuk\s+Wajib\s+Pajak\s+yang\s+kawin\b", re.I),
    "dependants": re.compile(r"\btambahan\s+untuk\s+setiap\s+anggota\s+keluarga\b", re.I),
}


def ptkp_items_taken(text: str) -> tuple[str, ...]:
    """The PTKP items (``PTKP_ITEMS``) the status the text names (:func:`statuses_named`) takes: TK/0 the
    taxpayer's own, K/2 the taxpayer's, being married and dependants.  Empty when the text names no status
    or several."""
    statuses = statuses_named(text)
    if len(statuses) != 1:
        return ()
    ((code, n),) = statuses
    return ("self", *(("married",) if code == "K" else ()), *(("dependants",) if n else ()))
