"""PTKP statuses as a question writes them ("TK/0", "K/1") and as the regulations write them out ("tidak
kawin tanpa tanggungan", "kawin dengan jumlah tanggungan sebanyak 1 (satu) orang").

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


def status_patterns(text: str) -> tuple[re.Pattern[str], ...]:
    """How the regulations write each PTKP status code the text names."""
    return tuple(status_pattern(m.group(1).upper(), int(m.group(2))) for m in STATUS_CODE.finditer(text))


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
    """The PTKP items (``PTKP_ITEMS``) the status code the text names takes: TK/0 the taxpayer's own, K/2 the
    taxpayer's, being married and dependants.  Empty when the text names no status or several."""
    codes = {(m.group(1).upper(), int(m.group(2))) for m in STATUS_CODE.finditer(text)}
    if len(codes) != 1:
        return ()
    ((code, n),) = codes
    return ("self", *(("married",) if code == "K" else ()), *(("dependants",) if n else ()))
