"""Rows of a rate table that brackets an amount: "di atas Rp9.650.000,00 ... sampai dengan Rp10.050.000,00 ...
2% (dua persen)".

A table of effective rates (PP 58/2023's Lampiran: the monthly PPh 21 rate of each category by gross monthly
income) states one rate per bracket of an amount.  Asked "TER kategori A gaji 10 juta berapa?", the answer is
the one row whose bracket holds 10,000,000 -- not the table read as a progressive scale ("0%, 0,25%, ... 2,5%
menurut lapisan Penghasilan Kena Pajak", which the answer said until session 65), and not the first rows of
whichever part of the table the search found.  Retrieval (``kb.retrieve``) moves to the part of the table
whose rows hold the asked amount; the answer (``bot.answer.extractive``) quotes that row.

A row is read from the text as written: its lower bound after "di atas Rp", its upper bound after "sampai
dengan Rp", then its percentage and the percentage in words.  Amounts the scan misread (``Rp10.TOO.OOO,OO``)
are read with the usual digit confusions (O/o -> 0, l/I/! -> 1, S -> 5, T -> 7, B -> 8); a row whose bounds
still cannot be read is no row.  Only a text with at least :data:`MIN_ROWS` rows is a table.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import NamedTuple

from kb.amounts import parse_number

#: fewer rows than this are a sentence with a bound, not a table
MIN_ROWS = 3

_AMOUNT = r"Rp\s?(?P<{name}>\d[0-9OoIl!STB]*(?:[.,][0-9OoIl!STB]+)*)"
_WORDS = r"(?:\s*[({][^(){}]{1,160}\))?"
#: a row's bounds ("di atas Rp... (words) sampai dengan Rp... (words)", or one of them), or a rate: a
#: percentage with its words, or the words alone where the scan garbled the numeral ("2oo/o (dua puluh
#: persen)": a rate of its own, whose value is not read)
_TOKEN = re.compile(
    r"(?P<bounds>(?:di\s+atas\s+" + _AMOUNT.format(name="low") + _WORDS + r"\s*)"
    r"(?:sampai\s+dengan\s+" + _AMOUNT.format(name="high") + _WORDS + r")?"
    r"|sampai\s+dengan\s+" + _AMOUNT.format(name="only") + _WORDS + r")"
    r"|(?P<rate>(?<![\d,])\d{1,2}(?:,\d{1,2})?\s?%" + _WORDS + r")"
    r"|(?P<garbled>\((?:[a-z]+\s+){0,6}persen\))",
    re.IGNORECASE,
)
_RATE_VALUE = re.compile(r"\d{1,2}(?:,\d{1,2})?\s?%")
#: a row whose bounds and rate the scan printed further apart than this is not read
_ROW_REACH = 700
_DIGITS = str.maketrans({"O": "0", "o": "0", "I": "1", "l": "1", "!": "1", "S": "5", "T": "7", "B": "8"})
#: the column header a table's first row follows ("Penghasilan Bruto Bulanan Tarif Pajak")
_HEADER = re.compile(r"\bTarif\s+Pajak\s*$", re.IGNORECASE | re.MULTILINE)
#: a class the question or a table's heading names: "kategori B", "KATEGORIA" (OCR ran the letter on)
_CLASS = re.compile(r"\b(?:kategori|category)\s?([A-C])\b", re.IGNORECASE)


@dataclass(frozen=True)
class BracketRow:
    """One row: its span in the text, its bounds (None for an open end) and its rate as written."""

    start: int
    end: int
    low: Decimal | None  # the row holds amounts above this ("di atas")
    high: Decimal | None  # ... up to and including this ("sampai dengan")
    rate: str
    #: the row's bounds and rate as written, without what the scan printed between them (other rows'
    #: bounds or rates where it read the columns apart): what the row says
    statement: str = ""

    def holds(self, amount: Decimal) -> bool:
        return (self.low is None or amount > self.low) and (self.high is None or amount <= self.high)


class _Bounds(NamedTuple):
    place: int  # the token's place in the text, to tell bounds written beside their rate
    start: int
    end: int
    low: Decimal | None
    high: Decimal | None
    readable: bool


class _Rate(NamedTuple):
    place: int
    start: int
    end: int
    rate: str | None  # None: the scan garbled the numeral, only its words were read


def _amount(written: str | None) -> Decimal | None:
    if written is None:
        return None
    value = parse_number(written.translate(_DIGITS))
    return value if value is not None and value > 0 else None


@functools.lru_cache(maxsize=1024)  # read by retrieval, relevance and the answer's units, per hit
def bracket_rows(text: str) -> tuple[BracketRow, ...]:
    """The table rows of ``text`` in order; empty when it has fewer than :data:`MIN_ROWS`.

    Bounds and rates are paired in the order written.  Where the scan read a table's columns apart (three
    rows' bounds, then their three rates) each column keeps its order, so the n-th bounds still go with the
    n-th rate.  A row is kept only when it opens the table under its column header or continues the row
    before it (its lower bound that row's upper one, its rate no lower), and after a row that could not be
    kept only a row whose bounds and rate stand side by side is kept again: a row the scan lost or garbled
    breaks the sequence there rather than shifting the rates of the rows after it."""
    bounds: list[_Bounds] = []
    rates: list[_Rate] = []
    pairs: list[tuple[_Bounds, _Rate]] = []
    for index, m in enumerate(_TOKEN.finditer(text)):
        if m.group("bounds"):
            low, high = m.group("low"), m.group("high") or m.group("only")
            low_value, high_value = _amount(low), _amount(high)
            readable = (low is None or low_value is not None) and (high is None or high_value is not None)
            bounds.append(_Bounds(index, m.start(), m.end(), low_value, high_value, readable))
        else:
            written = _RATE_VALUE.search(m.group("rate") or "")
            rates.append(
                _Rate(index, m.start(), m.end(), re.sub(r"\s", "", written.group(0)) if written else None)
            )
        while bounds and rates:
            pairs.append((bounds.pop(0), rates.pop(0)))
    last_bounds = max([b.place for b, _ in pairs] + [b.place for b in bounds], default=-1)
    rows: list[BracketRow] = []
    synced = True  # no broken row since the last row whose bounds and rate stand side by side
    for b, r in pairs:
        start, end = min(b.start, r.start), max(b.end, r.end)
        beside = abs(b.place - r.place) == 1
        ok = (
            b.readable
            and r.rate is not None
            and end - start <= _ROW_REACH
            and (b.low is None or b.high is None or b.high > b.low)
            # an open first row opens the table under its column header; an open last row ends the text
            and (b.low is not None or (not rows and synced and bool(_HEADER.search(text, 0, start))))
            and (b.high is not None or b.place == last_bounds)
            # the row continues the one before: its lower bound is that row's upper one, its rate no lower
            and (not rows or rows[-1].high != b.low or _rate_value(r.rate) >= _rate_value(rows[-1].rate))
            and (synced or beside)
            # after a gap only a row read side by side is sure of its rate
            and (not rows or b.low == rows[-1].high or beside)
        )
        if ok:
            said = " ".join(
                re.sub(r"\s+", " ", text[a:z]).strip()
                for a, z in sorted([(b.start, b.end), (r.start, r.end)])
            )
            rows.append(BracketRow(start, end, b.low, b.high, r.rate or "", said))
        synced = bool(ok and (synced or beside))
    return tuple(rows) if len(rows) >= MIN_ROWS else ()


def _rate_value(rate: str) -> Decimal:
    return parse_number(rate.rstrip("%")) or Decimal(0)


def row_holding(text: str, amounts: tuple[Decimal, ...]) -> BracketRow | None:
    """The first row of ``text``'s table whose bracket holds one of ``amounts`` (None when none does)."""
    for row in bracket_rows(text):
        if any(row.holds(a) for a in amounts):
            return row
    return None


#: a question asking which category ("masuk kategori apa?", "which TER category")
ASKS_CATEGORY = re.compile(r"\b(?:kategori|category)\b", re.I)


def classes_named(text: str) -> frozenset[str]:
    """The categories a question or a heading names ("kategori B" -> {"B"})."""
    return frozenset(m.group(1).upper() for m in _CLASS.finditer(text))


def class_of_status(status: re.Pattern[str], text: str) -> str | None:
    """The category a text assigns a PTKP status to (``kb.ptkp.status_pattern``), when it assigns it to one:
    PP 58/2023 Pasal 2 ayat (4) "a. kategori A diterapkan atas penghasilan bruto bulanan ... dengan status
    Penghasilan Tidak Kena Pajak: 1. tidak kawin tanpa tanggungan; ..." puts TK/0 in category A.  A status is
    read in the span from one category's name to the next one's."""
    names = list(_CLASS.finditer(text))
    if not names:
        return None
    found = {
        m.group(1).upper()
        for m, after in zip(names, [*names[1:], None], strict=True)
        if status.search(text, m.end(), after.start() if after else len(text))
    }
    return found.pop() if len(found) == 1 else None
