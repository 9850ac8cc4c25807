"""The channel-neutral turn as the turn tests build it: a SQLite ticket store, in-memory history and audit.

WHY: five tests built the same ``Turn(...)`` by hand (and shut its store down after); they differ only in the
date the turn answers for and, for the LLM path, the composer.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bot.audit import MemoryAuditLog
from bot.history import MemoryHistory
from bot.turn import Turn
from tickets.sqlite import SqliteTicketStore


@contextlib.contextmanager
def ticketed_turn(services: Any, db: Path, *, today: dt.date, **options: Any) -> Iterator[Turn]:
    """A :class:`Turn` over ``services`` pinned to ``today``, its tickets in ``db``; ``options`` go to
    :class:`Turn` (``composer_factory`` ...).  The ticket store is shut down on leaving."""
    store = SqliteTicketStore(db)
    try:
        yield Turn(
            services,
            resolver=services.resolver(),
            tickets=store,
            history=MemoryHistory(),
            audit=MemoryAuditLog(),
            today=lambda: today,
            **options,
        )
    finally:
        store.shutdown()
