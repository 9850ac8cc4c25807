"""Subprocess entry point for the crash test: one outbox delivery pass from ``DASAR_*`` settings.

``python -m tests.teams.crash_worker crash|normal NOW_ISO``.  In ``crash`` mode the process dies with
``os._exit`` right after the Bot Connector POST of a card returned (and was journalled) but BEFORE the
outbox marks the message delivered -- the worst moment for at-least-once delivery.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import os
import sys

from bot.settings import load_settings
from bot.teams.app import run_worker as run
from tickets import OutboxMessage

CRASH_EXIT = 17


def main() -> None:
    mode, now_text = sys.argv[1], sys.argv[2]
    now = dt.datetime.fromisoformat(now_text)

    def after_send(msg: OutboxMessage, ref: str) -> None:
        if mode == "crash" and msg.kind == "post_card":
            os._exit(CRASH_EXIT)  # no cleanup, no mark_delivered: like a kill -9

    result = asyncio.run(run(load_settings(), once=True, after_send=after_send, clock=lambda: now))
    assert result is not None
    print(json.dumps({"delivered": list(result.delivered), "failed": list(result.failed)}))


if __name__ == "__main__":
    main()
