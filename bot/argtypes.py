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
