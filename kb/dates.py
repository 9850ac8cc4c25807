"""Dates as written in Indonesian regulations ("1 April 2022", "31 Desember 2023") and in English."""

from __future__ import annotations

import datetime as dt
import re

MONTHS: dict[str, int] = {
    "januari": 1,
    "january": 1,
    "jan": 1,
    "februari": 2,
    "pebruari": 2,
    "february": 2,
    "feb": 2,
    "peb": 2,
    "maret": 3,
    "march": 3,
    "mar": 3,
    "april": 4,
    "apr": 4,
    "mei": 5,
    "may": 5,
    "juni": 6,
    "june": 6,
    "jun": 6,
    "juli": 7,
    "july": 7,
    "jul": 7,
    "agustus": 8,
    "august": 8,
    "agu": 8,
    "agt": 8,
    "ags": 8,
    "aug": 8,
    "september": 9,
    "sep": 9,
    "sept": 9,
    "oktober": 10,
    "october": 10,
    "okt": 10,
    "oct": 10,
    "november": 11,
    "nopember": 11,
    "nov": 11,
    "nop": 11,
    "desember": 12,
    "december": 12,
    "des": 12,
    "dec": 12,
}
#: the month names as alternatives of one pattern, longest first ("januari" before "jan"): the one month
#: alternation of every pattern that reads a written date (kb.query, kb.lexical, bot.answer.extractive)
MONTH_PATTERN = "|".join(re.escape(name) for name in sorted(MONTHS, key=lambda n: (-len(n), n)))

_DAY_MONTH_YEAR = re.compile(r"\b(\d{1,2})\s+([A-Za-z]+?)\s*((?:19|20)\d\d)\b")


def parse_indonesian_date(text: str) -> dt.date | None:
    """``"1 April 2022" -> date(2022, 4, 1)``; None when the text holds no valid date."""
    m = _DAY_MONTH_YEAR.search(text)
    if not m:
        return None
    month = MONTHS.get(m.group(2).lower())
    if month is None:
        return None
    try:
        return dt.date(int(m.group(3)), month, int(m.group(1)))
    except ValueError:
        return None
