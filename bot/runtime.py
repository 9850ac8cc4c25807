"""The composition root: ``build_runtime(settings) -> Runtime`` builds every client once per process.

Nothing else constructs stores, embedders, directories, resolvers, Redis clients or ticket stores: front ends
(Slack, Teams, the CLI) receive a :class:`Runtime` (or the :class:`~bot.turn.Turn` it builds) and use its
clients.  Each client is built lazily on first use and then shared, so a command that never touches tickets
never opens the ticket database, and a process never holds two Redis connections pools or two resolvers.

``bot.wiring.Services`` is kept as a compatibility name for this class.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.settings import Settings, secret_or_none
from identity.principal import Principal
from kb.embed import Embedder, make_embedder
from kb.query import AliasDictionary
from kb.retrieve import RetrievalConfig, Retriever
from kb.store.factory import open_store
from kb.store.protocol import KnowledgeStore

if TYPE_CHECKING:
    from bot.turn import Turn

logger = logging.getLogger(__name__)


def injection_flagger(text: str) -> tuple[str, ...]:
    """Ingest-time scan for instruction-like text inside documents (documents are data)."""
    from guardrails.injection import scan_injection

    verdict = scan_injection(text)
    return tuple(verdict.rule_ids) if verdict.flagged else ()


@dataclass
class Runtime:
    """Every client of one process, each built once (lazily) from ``settings``.

    Attributes:
        settings: the one settings object.
        create_kb: only ``dasar ingest`` may create a knowledge base; every other command needs one.
        slack_client: a ``slack_sdk.WebClient`` to share (tests point it at a stand-in); built from the
            settings' bot token when None and Slack is configured.
    """

    settings: Settings
    create_kb: bool = False
    slack_client: Any = None

    # --- knowledge base -----------------------------------------------------------------------------
    @cached_property
    def embedder(self) -> Embedder | None:
        if self.settings.retrieval_mode == "deterministic" and self.settings.embedder == "none":
            return None
        return make_embedder(self.settings.embedder_name(), self.settings.embed_options())

    @cached_property
    def answer_cache(self) -> Any | None:
        """The Turn's answer cache (None with ``DASAR_ANSWER_CACHE=false``): Redis when configured."""
        from bot.answer_cache import answer_cache_for

        return answer_cache_for(self.settings, lambda: self.store, self.redis)  # the KB opens on first use

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

    # --- shared infrastructure ---------------------------------------------------------------------
    @cached_property
    def redis(self) -> Any | None:
        """The ONE Redis client of the process (None without ``DASAR_REDIS_URL``)."""
        if self.settings.redis_url is None:
            return None
        from bot.slack.redis_backends import redis_client

        return redis_client(self.settings.redis_url.get_secret_value())

    @cached_property
    def redis_health(self) -> Any:
        """The ONE :class:`~bot.slack.redis_backends.RedisHealth` of the process (outages, ``/healthz``)."""
        from bot.slack.redis_backends import RedisHealth

        return RedisHealth(self.redis)

    @cached_property
    def slack(self) -> Any | None:
        """The Slack Web API client (None when no bot token is configured)."""
        if self.slack_client is not None:
            if hasattr(self.slack_client, "retry_handlers"):  # a real WebClient: same retries as ours
                from bot.slack.client import with_retries

                with_retries(self.slack_client)
            return self.slack_client
        if self.settings.slack_bot_token is None:
            return None
        from bot.slack.client import make_web_client

        token = self.settings.slack_bot_token.get_secret_value()
        return make_web_client(token, self.settings.slack_api_base_url)

    # --- identity ----------------------------------------------------------------------------------
    @cached_property
    def directory(self) -> Any:
        from identity.yaml_directory import YamlDirectory

        return YamlDirectory(Path(self.settings.directory))

    @cached_property
    def principal_cache(self) -> Any:
        from identity.cache import MemoryPrincipalCache

        if self.redis is not None:
            from bot.slack.redis_backends import FallbackPrincipalCache
            from identity.redis_cache import RedisPrincipalCache

            # one WARNING per Redis outage (not per lookup), an in-process copy meanwhile
            return FallbackPrincipalCache(
                RedisPrincipalCache(self.redis), MemoryPrincipalCache(), self.redis_health
            )
        return MemoryPrincipalCache()

    @cached_property
    def shared_resolver(self) -> Any:
        """The process's one resolver: directory + cache, with the Slack e-mail fallback where configured."""
        from identity.resolver import PrincipalResolver

        user_info = None
        if self.slack is not None:
            from identity.slack_user_info import SlackWebClientUserInfo

            user_info = SlackWebClientUserInfo(self.slack)
        return PrincipalResolver(self.directory, self.principal_cache, slack_user_info=user_info)

    def resolver(self, slack_user_info: object | None = None) -> Any:
        """The shared resolver (compatibility: a different ``slack_user_info`` builds a separate one)."""
        if slack_user_info is None:
            return self.shared_resolver
        from identity.resolver import PrincipalResolver

        return PrincipalResolver(self.directory, self.principal_cache, slack_user_info=slack_user_info)  # type: ignore[arg-type]

    # --- tickets, history, limits ------------------------------------------------------------------
    @cached_property
    def tickets(self) -> Any:
        """PostgreSQL when ``DASAR_TICKETS_URL`` is set, else the SQLite file ``DASAR_TICKETS_DB``."""
        from tickets.factory import open_ticket_store

        return open_ticket_store(self.settings.tickets_db, secret_or_none(self.settings.tickets_url))

    @cached_property
    def history(self) -> Any:
        from bot.history import MemoryHistory, RedisHistory

        if self.redis is not None:
            return RedisHistory(self.redis, health=self.redis_health)
        return MemoryHistory()

    @cached_property
    def rate_limiter(self) -> Any:
        """Per-person question rate for every platform (Redis-backed when Redis is configured)."""
        from bot.slack.ratelimit import SlidingWindowLimiter

        limit, window = self.settings.slack_rate_limit, self.settings.slack_rate_window_seconds
        if self.redis is not None:
            from bot.slack.redis_backends import FallbackRateLimiter, RedisRateLimiter

            return FallbackRateLimiter(
                RedisRateLimiter(self.redis, limit, window),
                SlidingWindowLimiter(limit, window),
                self.redis_health,
            )
        return SlidingWindowLimiter(limit, window)

    # --- the turn ----------------------------------------------------------------------------------
    def composer_factory(self) -> Callable[[Principal], Any]:
        """A per-turn strands ``AgentComposer`` over the principal's closure tools, for every composer.

        ``extractive`` (default) and ``agent`` put the deterministic extractive model in the loop (offline);
        ``bedrock`` / ``openai`` put an LLM in the same seat. Every path ends in the same gates.
        """
        kind = self.settings.composer
        from bot.agent import AgentComposer, extractive_agent
        from bot.llm.factory import make_model
        from tools.deps import ToolDeps

        def factory(principal: Principal) -> Any:
            if kind in ("extractive", "agent"):
                return extractive_agent(principal, self, dt.date.today())
            deps = ToolDeps(retriever=self.retriever, store=self.store, default_as_of=dt.date.today())
            return AgentComposer(make_model(self.settings), principal, deps)

        return factory

    def turn(self, *, slack_user_info: object | None = None, audit: object | None = None) -> Turn:
        """The channel-neutral turn over these clients (one per front-end process)."""
        from bot.audit import JsonlAuditLog
        from bot.turn import Turn

        log = audit if audit is not None else JsonlAuditLog(self.settings.audit_log)
        return Turn(
            self,
            resolver=self.resolver(slack_user_info),
            tickets=self.tickets,
            history=self.history,
            audit=log,  # type: ignore[arg-type]
            composer_factory=self.composer_factory(),
            rate_limiter=self.rate_limiter,
            answer_cache=self.answer_cache,
        )

    def warm_up(self) -> dict[str, float]:
        """Load everything a first turn needs before a server says it is ready.

        Without this the first questions after start-up paid for building the PII analyzer, loading the
        embedding model and opening the stores (30 questions sent right after /healthz said ok all waited
        about 44 s).  Returns the milliseconds each part took (logged; no message text involved).
        """
        import time

        from guardrails.inbound import inspect
        from guardrails.pii import MaskingSession
        from kb.scope import ReaderScope
        from kb.store.protocol import SearchFilter

        took: dict[str, float] = {}

        def timed(name: str, step: Callable[[], object]) -> None:
            t = time.perf_counter()
            step()
            took[name] = round((time.perf_counter() - t) * 1000, 1)

        timed("guardrails", lambda: inspect("NPWP 01.234.567.8-901.000 tarif PPN?", MaskingSession()))
        timed("store", lambda: self.store.corpus_version())
        embedder = self.embedder
        if embedder is not None:
            timed("embedder", lambda: embedder.embed_query("tarif PPN"))
        flt = SearchFilter.of(ReaderScope.public(dt.date.today()))
        timed("retrieval", lambda: self.retriever.search("tarif PPN", flt))
        timed("directory", lambda: self.shared_resolver)
        logger.info(
            "%s | ready: warmed up before serving",
            ", ".join(f"{k}_ms={v}" for k, v in took.items()),
        )
        return took

    def cli_principal(self, email: str | None) -> Principal:
        """The CLI's principal: the directory entry for ``--user``, a guest when unknown or absent."""
        from identity.principal import VerifiedEnvelope

        if not email:
            return Principal.guest("cli", "local", "anonymous")
        resolver = self.shared_resolver
        principal: Principal = resolver.resolve(
            VerifiedEnvelope(platform="cli", tenant="local", user_id=email)
        )
        return principal


def build_runtime(settings: Settings, *, create_kb: bool = False, slack_client: Any = None) -> Runtime:
    """The process's runtime; clients are built on first use and shared afterwards."""
    return Runtime(settings, create_kb=create_kb, slack_client=slack_client)
