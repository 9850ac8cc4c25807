"""argparse value types shared by every ``dasar`` subcommand (one place for one message)."""

from __future__ import annotations

import argparse
import datetime as dt


def iso_date(value: str) -> dt.date:
    """``--as-of 2022-05-01``; a clear error naming the expected format otherwise."""
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a date YYYY-MM-DD, got {value!r}") from None


def question_text(value: str) -> str:
    """A question or search text: empty or blank is a usage error, not an out-of-scope question."""
    if not value.strip():
        raise argparse.ArgumentTypeError('is empty; write the question in quotes, e.g. "Berapa tarif PPN?"')
    return value


def positive_int(value: str) -> int:
    """A count such as ``--questions 120`` or ``--top-k 5``."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {value!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, got {number}")
    return number
