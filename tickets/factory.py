"""Pick the ticket backend from configuration: a PostgreSQL URL wins, else the SQLite file.

Why one factory: the Slack bot, the Teams worker and `dasar tickets` must open the *same* store, or a
ticket opened in Slack would never reach the tax team's card.  PostgreSQL is for several replicas;
SQLite for one host.
"""

from __future__ import annotations

from pathlib import Path

from tickets.outbox import OutboxPolicy
from tickets.protocol import TicketStore
from tickets.sql import Clock


def open_ticket_store(
    path: str | Path,
    url: str | None = None,
    *,
    clock: Clock | None = None,
    policy: OutboxPolicy | None = None,
) -> TicketStore:
    """The configured store: ``url`` (PostgreSQL, ``DASAR_TICKETS_URL``) if set, else the SQLite ``path``."""
    if url:
        from tickets.postgres import PostgresTicketStore

        return PostgresTicketStore(url, clock=clock, policy=policy)
    from tickets.sqlite import SqliteTicketStore

    Path(path).parent.mkdir(parents=True, exist_ok=True)
    return SqliteTicketStore(path, clock=clock, policy=policy)
