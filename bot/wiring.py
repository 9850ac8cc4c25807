"""Composition root: builds each client once from ``Settings`` and hands them to the front ends.

Nothing else constructs stores, embedders or directories, so swapping a backend is a settings change.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from bot.settings import Settings, secret_or_none
from identity.principal import Principal
from kb.embed import Embedder, make_embedder
from kb.query import AliasDictionary
from kb.retrieve import RetrievalConfig, Retriever
from kb.store.factory import open_store
from kb.store.protocol import KnowledgeStore, SearchFilter

logger = logging.getLogger(__name__)


def injection_flagger(text: str) -> Sequence[str]:
    """Ingest-time scan for instruction-like text inside documents (documents are data)."""
    from guardrails.injection import scan_injection

    verdict = scan_injection(text)
    return tuple(verdict.rule_ids) if verdict.flagged else ()


@dataclass
class Services:
    """Lazily-built clients shared by every turn of one process."""

    settings: Settings

    @cached_property
    def embedder(self) -> Embedder | None:
        if self.settings.retrieval_mode == "deterministic" and self.settings.embedder == "none":
            return None
        return make_embedder(self.settings.embedder)

    #: Only ``dasar ingest`` may create a new knowledge base; every other command needs an existing one.
    create_kb: bool = False

    @cached_property
    def store(self) -> KnowledgeStore:
        """PostgreSQL when ``DASAR_KB_URL`` is set, else the SQLite file; only ingest may create one."""
        embedder_name = self.embedder.name if self.embedder else None
        return open_store(
            self.settings.kb, secret_or_none(self.settings.kb_url), embedder_name, create=self.create_kb
        )

    @cached_property
    def aliases(self) -> AliasDictionary:
        return (
            AliasDictionary.load(self.settings.aliases) if self.settings.aliases else AliasDictionary.load()
        )

    @cached_property
    def retriever(self) -> Retriever:
        return Retriever(
            self.store,
            self.embedder,
            aliases=self.aliases,
            config=RetrievalConfig(mode=self.settings.retrieval_mode),
        )

    @cached_property
    def directory(self):
        from identity.directory import YamlDirectory

        return YamlDirectory(Path(self.settings.directory))

    @cached_property
    def principal_cache(self):
        from identity.cache import MemoryPrincipalCache

        if self.settings.redis_url is not None:
            from identity.redis_cache import RedisPrincipalCache

            return RedisPrincipalCache.from_url(self.settings.redis_url.get_secret_value())
        return MemoryPrincipalCache()

    def resolver(self, slack_user_info: object | None = None):
        from identity.resolver import PrincipalResolver

        return PrincipalResolver(self.directory, self.principal_cache, slack_user_info=slack_user_info)

    @cached_property
    def tickets(self):
        """PostgreSQL when ``DASAR_TICKETS_URL`` is set, else the SQLite file ``DASAR_TICKETS_DB``."""
        from tickets.factory import open_ticket_store

        return open_ticket_store(self.settings.tickets_db, secret_or_none(self.settings.tickets_url))

    @cached_property
    def history(self):
        from bot.history import MemoryHistory, RedisHistory

        if self.settings.redis_url is not None:
            return RedisHistory.from_url(self.settings.redis_url.get_secret_value())
        return MemoryHistory()

    def turn(self, *, slack_user_info: object | None = None, audit: object | None = None):
        """The channel-neutral turn over these services (one per front end process)."""
        from bot.audit import JsonlAuditLog
        from bot.turn import Turn

        log = audit if audit is not None else JsonlAuditLog(self.settings.audit_log)
        return Turn(
            self,
            resolver=self.resolver(slack_user_info),
            tickets=self.tickets,
            history=self.history,
            audit=log,
            composer_factory=self.composer_factory(),
        )

    def composer_factory(self):
        """None for the direct extractive composer; otherwise a per-turn strands ``AgentComposer``.

        ``agent`` runs the same extractive composer as a deterministic strands model over the same tools
        (offline); ``bedrock`` / ``openai`` put an LLM in that seat. Every path ends in the same gates.
        """
        kind = self.settings.composer
        if kind == "extractive":
            return None
        from bot.agent import AgentComposer
        from bot.llm.extractive import ExtractiveModel
        from bot.llm.factory import make_model
        from tools.deps import ToolDeps

        def factory(principal: Principal):
            model = ExtractiveModel() if kind == "agent" else make_model(self.settings)
            deps = ToolDeps(retriever=self.retriever, store=self.store, default_as_of=dt.date.today())
            return AgentComposer(model, principal, deps)

        return factory

    def cli_principal(self, email: str | None) -> Principal:
        """The CLI's principal: the directory entry for ``--user``, a guest when unknown or absent."""
        from identity.cache import MemoryPrincipalCache
        from identity.principal import VerifiedEnvelope
        from identity.resolver import PrincipalResolver

        if not email:
            return Principal.guest("cli", "local", "anonymous")
        resolver = PrincipalResolver(self.directory, MemoryPrincipalCache())
        return resolver.resolve(VerifiedEnvelope(platform="cli", tenant="local", user_id=email))


def search_filter(principal: Principal, as_of: dt.date, **narrow: object) -> SearchFilter:
    """Access from the principal's reader scope (groups and entities, never relaxed); narrowing optional.

    Compatibility wrapper over :meth:`kb.store.protocol.SearchFilter.of`; ``narrow`` takes the
    :class:`kb.scope.Narrowing` fields (``tax_types``, ``language``, ``jurisdiction``, ``doc_ids``).
    """
    from kb.scope import Narrowing
    from tools.access import reader_scope

    narrow.pop("entities", None)  # entities are access, taken from the principal only
    return SearchFilter.of(reader_scope(principal, as_of), Narrowing(**narrow))  # type: ignore[arg-type]
