"""Composition root: builds each client once from ``Settings`` and hands them to the front ends.

Nothing else constructs stores, embedders or directories, so swapping a backend is a settings change.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from bot.settings import Settings
from identity.principal import Principal
from kb.embed import Embedder, make_embedder
from kb.query import AliasDictionary
from kb.retrieve import RetrievalConfig, Retriever
from kb.store.protocol import SearchFilter
from kb.store.sqlite import SqliteStore

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
    _embedder: Embedder | None = field(default=None, init=False)

    @cached_property
    def embedder(self) -> Embedder | None:
        if self.settings.retrieval_mode == "deterministic" and self.settings.embedder == "none":
            return None
        return make_embedder(self.settings.embedder)

    @cached_property
    def store(self) -> SqliteStore:
        return SqliteStore(self.settings.kb, embedder_name=self.embedder.name if self.embedder else None)

    @cached_property
    def aliases(self) -> AliasDictionary:
        return AliasDictionary.load(self.settings.aliases) if self.settings.aliases else AliasDictionary.load()

    @cached_property
    def retriever(self) -> Retriever:
        return Retriever(self.store, self.embedder, aliases=self.aliases,
                         config=RetrievalConfig(mode=self.settings.retrieval_mode))

    @cached_property
    def directory(self):  # noqa: ANN201 - identity.Directory
        from identity.directory import YamlDirectory

        return YamlDirectory(Path(self.settings.directory))

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
    """Access comes from the principal only; the date from the caller; narrowing is optional."""
    return SearchFilter(groups=frozenset(principal.groups), as_of=as_of, **narrow)  # type: ignore[arg-type]
