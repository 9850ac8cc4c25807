"""What the tools of one turn may touch, built by the bot (``tools`` never imports ``bot``).

Identity is deliberately absent: the principal is passed separately to :func:`tools.build_tools` and
lives only in the tools' closures, so nothing here can be re-pointed at another user.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from kb.retrieve import Mode, Retriever
from kb.scope import ReaderScope
from kb.store.protocol import KnowledgeStore
from tickets.model import Requester, ThreadRef
from tickets.protocol import TicketStore

#: Hard bounds for the number of passages one ``search_kb`` call returns (whatever deps ask for).
MIN_TOP_K = 1
MAX_TOP_K = 10


@dataclass(frozen=True)
class ToolDeps:
    """Services and per-turn facts the tools need.

    Attributes:
        retriever: Shared filter-first retriever over the knowledge base.
        store: The KB store (document lookups for ``check_document_access``).
        default_as_of: Date used when the model gives no ``as_of`` (the question's date, else today).
        question_masked: The user's question after PII masking (goes onto escalation tickets).
        tickets: Ticket store; None disables ``create_ticket``/``update_ticket`` (they answer "unavailable").
        thread: The conversation this turn belongs to (tickets are idempotent per thread).
        requester: How to reach the asker (built from the principal by the bot).
        mode: Retrieval mode override (None: the retriever's configured mode).
        top_k: Passages per search, clamped to [MIN_TOP_K, MAX_TOP_K].
        audience: The common scope of everyone the reply reaches (a shared channel's members); the tools
            read with the principal's scope narrowed to it (:func:`tools.access.reader_scope`), never wider.
        facts: Facts the asker gave earlier in the conversation (masked), carried onto a ticket.
        topic: A short topic for the ticket card (e.g. the lead document's number), optional.
        ticket_audience: Who reads an escalation ticket (the tax team); its evidence shows only what this
            scope opens (default: the ``tax-team`` group with the asker's entities).
    """

    retriever: Retriever
    store: KnowledgeStore
    default_as_of: dt.date
    question_masked: str = ""
    tickets: TicketStore | None = None
    thread: ThreadRef | None = None
    requester: Requester | None = None
    mode: Mode | None = None
    top_k: int = 5
    audience: ReaderScope | None = None
    ticket_audience: ReaderScope | None = None
    facts: tuple[str, ...] = ()
    topic: str | None = None

    @property
    def clamped_top_k(self) -> int:
        """``top_k`` forced into the allowed range (a misconfiguration cannot flood the model)."""
        return max(MIN_TOP_K, min(MAX_TOP_K, int(self.top_k)))
