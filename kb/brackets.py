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

import re
from dataclasses import dataclass
from decimal import Decimal

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


def _amount(written: str | None) -> Decimal | None:
    if written is None:
        return None
    value = parse_number(written.translate(_DIGITS))
    return value if value is not None and value > 0 else None


def bracket_rows(text: str) -> list[BracketRow]:
    """The table rows of ``text`` in order; empty when it has fewer than :data:`MIN_ROWS`.

    Bounds and rates are paired in the order written.  Where the scan read a table's columns apart (three
    rows' bounds, then their three rates) each column keeps its order, so the n-th bounds still go with the
    n-th rate.  A row is kept only when its lower bound is the upper bound of the row before it (or it opens
    the table under its column header) and its rate is not below the row before's: a row the scan lost or
    garbled breaks the sequence there rather than shifting the rates of the rows after it."""
    # (token index, start, end, low, high, readable) and (token index, start, end, rate)
    bounds: list[tuple[int, int, int, Decimal | None, Decimal | None, bool]] = []
    rates: list[tuple[int, int, int, str | None]] = []
    pairs: list[
        tuple[tuple[int, int, int, Decimal | None, Decimal | None, bool], tuple[int, int, int, str | None]]
    ]
    pairs = []
    for index, m in enumerate(_TOKEN.finditer(text)):
        if m.group("bounds"):
            low, high = m.group("low"), m.group("high") or m.group("only")
            low_value, high_value = _amount(low), _amount(high)
            readable = (low is None or low_value is not None) and (high is None or high_value is not None)
            bounds.append((index, m.start(), m.end(), low_value, high_value, readable))
        else:
            written = _RATE_VALUE.search(m.group("rate") or "")
            rates.append(
                (index, m.start(), m.end(), re.sub(r"\s", "", written.group(0)) if written else None)
            )
        while bounds and rates:
            pairs.append((bounds.pop(0), rates.pop(0)))
    last_bounds = max([b[0] for b, _ in pairs] + [b[0] for b in bounds], default=-1)
    rows: list[BracketRow] = []
    synced = True  # no broken row since the last row whose bounds and rate stand side by side
    for (b_index, b_start, b_end, low, high, readable), (r_index, r_start, r_end, rate) in pairs:
        start, end = min(b_start, r_start), max(b_end, r_end)
        beside = abs(b_index - r_index) == 1
        ok = (
            readable
            and rate is not None
            and end - start <= _ROW_REACH
            and (low is None or high is None or high > low)
            # an open first row opens the table under its column header; an open last row ends the text
            and (low is not None or (not rows and synced and bool(_HEADER.search(text, 0, start))))
            and (high is not None or b_index == last_bounds)
            # the row continues the one before: its lower bound is that row's upper one, its rate no lower
            and (not rows or rows[-1].high != low or _rate_value(rate) >= _rate_value(rows[-1].rate))
            and (synced or beside)
        )
        if ok and rows and low != rows[-1].high and not beside:
            ok = False  # after a gap only a row read side by side is sure of its rate
        if ok:
            said = " ".join(
                re.sub(r"\s+", " ", text[a:b]).strip()
                for a, b in sorted([(b_start, b_end), (r_start, r_end)])
            )
            rows.append(BracketRow(start, end, low, high, rate or "", said))
        synced = bool(ok and (synced or beside))
    return rows if len(rows) >= MIN_ROWS else []


def _rate_value(rate: str) -> Decimal:
    return parse_number(rate.rstrip("%")) or Decimal(0)


def row_holding(text: str, amounts: tuple[Decimal, ...]) -> BracketRow | None:
    """The first row of ``text``'s table whose bracket holds one of ``amounts`` (None when none does)."""
    for row in bracket_rows(text):
        if any(row.holds(a) for a in amounts):
            return row
    return None


def classes_named(text: str) -> frozenset[str]:
    """The categories a question or a heading names ("kategori B" -> {"B"})."""
    return frozenset(m.group(1).upper() for m in _CLASS.finditer(text))
