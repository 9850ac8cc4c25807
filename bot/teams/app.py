"""Composition of the Teams front end: ``TeamsDeps`` in, an aiohttp application out.

``build_teams_app(settings, deps)`` returns the ``aiohttp.web.Application`` serving ``POST /api/messages``
(Bot Framework activities), ``GET /healthz`` and ``GET /metrics`` (Prometheus, :mod:`bot.metrics`);
``serve(settings, deps, port=...)`` runs it.  The outbox worker runs as a background task of the app
(``deps.poll_seconds``; None = no background task, tests flush explicitly through :func:`runtime_of`).

Nothing slow runs inside a request (the Bot Service gives up after 10 to 15 s): a question is answered
after the HTTP response by :class:`~bot.teams.answering.Answerer` (typing indicator, answer worker pool,
proactive reply with retries), and a card click returns its refreshed card while the outbox delivery it
causes runs in the background (``OutboxWorker.flush_soon``).  ``TeamsRuntime.settle`` waits for both
(tests, graceful shutdown).  The adapter is botbuilder's ``CloudAdapter``
(``ConfigurationBotFrameworkAuthentication``).

Authentication: with ``DASAR_TEAMS_APP_ID`` + ``DASAR_TEAMS_APP_PASSWORD`` (+ ``DASAR_TEAMS_TENANT_ID``
for a single-tenant app) every inbound activity's ``Authorization: Bearer`` JWT is validated by the
Bot Framework adapter and outbound calls get AAD tokens.  ``DASAR_TEAMS_AUTH_DISABLED=true`` accepts
unauthenticated activities and sends anonymously; it exists for tests and the local emulator only and
is refused when an app id is configured.
"""

from __future__ import annotations

import asyncio
import binascii
import concurrent.futures
import contextlib
import datetime as dt
import json
import logging
import uuid
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from aiohttp import web
from botbuilder.core import TurnContext
from botbuilder.integration.aiohttp import CloudAdapter, ConfigurationBotFrameworkAuthentication
from botbuilder.schema import Activity, ActivityTypes

from bot import metrics
from bot.faq import FaqService
from bot.law_page import AIOHTTP_ROUTE, aiohttp_law_handler, store_of
from bot.messages import TurnService
from bot.settings import Settings
from bot.teams import strings as S
from bot.teams.actions import ActionHandler
from bot.teams.answering import Answerer, RetryPolicy
from bot.teams.bot import DasarTeamsBot
from bot.teams.connector import BotConnectorGateway
from bot.teams.errors import TeamsConfigError, exception_chain
from bot.teams.journal import DeliveryJournal
from bot.teams.outbox_worker import OutboxWorker
from bot.teams.relay import Relay, TeamsChannelNotifier, TeamsChatRelay
from bot.teams.sender import LoopBridge, OutboxSender
from identity.principal import Principal, VerifiedEnvelope
from tickets import DeliveryResult, OutboxMessage, TicketStore

logger = logging.getLogger(__name__)


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@dataclass(frozen=True)
class TaxChannel:
    """Where ticket cards go: the tax-team channel's conversation id on a Bot Connector service."""

    service_url: str
    conversation_id: str
    tenant_id: str | None = None


@dataclass
class TeamsDeps:
    """Everything the Teams front end needs, built once by the composition root (or a test).

    Attributes:
        tickets: ticket store (its outbox drives cards and relays).
        resolve_principal: verified envelope -> principal (``PrincipalResolver.resolve``).
        tax_channel: where cards are posted.
        journal: delivery journal (idempotent posts across crashes).
        relays: platform -> relay to askers (``slack``: :class:`SlackWebRelay`); ``teams`` is added
            automatically (Teams chat through the Bot Connector) unless given.
        faq: reviewed-FAQ service (Propose/Approve buttons, expiry in the worker), optional.
        people: actor id (email) -> display name for cards and relays, optional.
        doc_lookup: KB document number -> ``{doc_id, title, url}`` for cited documents, optional.
        clock: current time.
        turn: channel-neutral turn handler for ordinary Teams questions, optional.
        poll_seconds: background outbox polling interval; None disables the background worker.
        redis_health: the process's :class:`~bot.slack.redis_backends.RedisHealth` (``/healthz`` reports
            ``degraded`` while Redis is down), optional.
        answer_workers: size of the answer worker pool (questions answered at once; card clicks never
            wait for it).
        deduper: claims ``teams:conversation:activity`` keys so a redelivered activity is answered once
            (``claim(key) -> bool``); an in-process one when None.
        retry: retry policy of refused answer sends (429, 5xx), the default when None.
        drain_seconds: on shutdown, how long accepted answers may take to finish and be sent.
    """

    tickets: TicketStore
    resolve_principal: Callable[[VerifiedEnvelope], Principal]
    tax_channel: TaxChannel
    journal: DeliveryJournal
    relays: Mapping[str, Relay] = field(default_factory=dict)
    faq: FaqService | None = None
    people: Callable[[str], str] | None = None
    doc_lookup: Callable[[str], Mapping[str, Any] | None] | None = None
    clock: Callable[[], dt.datetime] = utc_now
    turn: TurnService | None = None
    poll_seconds: float | None = 5.0
    redis_health: Any = None
    answer_workers: int = 8
    drain_seconds: float = 60.0
    deduper: Any = None
    retry: RetryPolicy | None = None


def build_adapter(settings: Settings) -> CloudAdapter:
    """The Bot Framework ``CloudAdapter`` with credentials from settings (see module docstring on auth).

    Configuration as ``ConfigurationBotFrameworkAuthentication`` reads it: ``APP_ID``/``APP_PASSWORD``,
    and ``APP_TYPE=SingleTenant`` with ``APP_TENANTID`` when a tenant id is set.  With authentication
    disabled (tests only) the app id is empty: inbound activities without a token are accepted and
    outbound calls are anonymous.
    """
    app_id = settings.teams_app_id or ""
    password = settings.teams_app_password.get_secret_value() if settings.teams_app_password else ""
    if settings.teams_auth_disabled:
        if app_id:
            raise TeamsConfigError(
                "DASAR_TEAMS_AUTH_DISABLED is for tests only and cannot be combined with "
                "DASAR_TEAMS_APP_ID; unset one of them"
            )
        logger.warning("auth=disabled | teams bot accepts unauthenticated activities (tests only)")
        config = SimpleNamespace(APP_TYPE="MultiTenant", APP_ID=None, APP_PASSWORD=None)
        return CloudAdapter(ConfigurationBotFrameworkAuthentication(config))
    if not app_id or not password:
        raise TeamsConfigError(
            "the Teams bot needs DASAR_TEAMS_APP_ID and DASAR_TEAMS_APP_PASSWORD (Azure Bot "
            "registration); see infra/teams/README.md"
        )
    config = SimpleNamespace(
        APP_TYPE="SingleTenant" if settings.teams_tenant_id else "MultiTenant",
        APP_ID=app_id,
        APP_PASSWORD=password,
        APP_TENANTID=settings.teams_tenant_id,
    )
    return CloudAdapter(ConfigurationBotFrameworkAuthentication(config))


@dataclass
class TeamsRuntime:
    """The live objects behind one app/worker (exposed for tests and the standalone worker)."""

    adapter: CloudAdapter
    gateway: BotConnectorGateway
    sender: OutboxSender
    worker: OutboxWorker
    bot: DasarTeamsBot
    answerer: Answerer | None = None
    pool: concurrent.futures.ThreadPoolExecutor | None = None

    async def settle(self) -> None:
        """Wait until every answer and background outbox delivery started so far has finished."""
        while (self.answerer is not None and self.answerer.pending) or self.worker.busy:
            if self.answerer is not None:
                await self.answerer.drain()
            await self.worker.idle()


def runtime_for(
    settings: Settings,
    deps: TeamsDeps,
    *,
    loop: asyncio.AbstractEventLoop,
    after_send: Callable[[OutboxMessage, str], None] | None = None,
) -> TeamsRuntime:
    """Wire adapter, gateway, sender, worker, answerer and bot for an event loop."""
    adapter = build_adapter(settings)
    gateway = BotConnectorGateway(
        adapter,
        service_url=deps.tax_channel.service_url,
        app_id=None if settings.teams_auth_disabled else settings.teams_app_id,
        tenant_id=deps.tax_channel.tenant_id or settings.teams_tenant_id,
    )
    bridge = LoopBridge(loop)
    relays: dict[str, Relay] = {"teams": TeamsChatRelay(gateway.post_text, bridge)}
    relays.update(deps.relays)
    sender = OutboxSender(
        tickets=deps.tickets,
        gateway=gateway,
        run=bridge,
        tax_channel_id=deps.tax_channel.conversation_id,
        relays=relays,
        journal=deps.journal,
        clock=deps.clock,
        people=deps.people,
        after_send=after_send,
    )
    if deps.faq is not None and deps.faq.notifier is None:
        deps.faq.notifier = TeamsChannelNotifier(gateway.post_text, bridge, deps.tax_channel.conversation_id)
    worker = OutboxWorker(deps.tickets, sender, clock=deps.clock, faq=deps.faq)
    actions = ActionHandler(
        deps.tickets, faq=deps.faq, doc_lookup=deps.doc_lookup, clock=deps.clock, people=deps.people
    )
    answerer = None
    pool = None
    if deps.turn is not None:
        from bot.slack.dedupe import MemoryDeduper

        pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=max(1, deps.answer_workers), thread_name_prefix="teams-answer"
        )
        answerer = Answerer(
            gateway=gateway,
            turn=deps.turn,
            resolve_principal=deps.resolve_principal,
            clock=deps.clock,
            flush_soon=worker.flush_soon,
            pool=pool,
            deduper=deps.deduper if deps.deduper is not None else MemoryDeduper(),
            retry=deps.retry,
        )
    bot = DasarTeamsBot(
        tickets=deps.tickets,
        actions=actions,
        resolve_principal=deps.resolve_principal,
        flush_soon=worker.flush_soon,
        turn=deps.turn,
        answerer=answerer,
        clock=deps.clock,
    )
    return TeamsRuntime(adapter, gateway, sender, worker, bot, answerer, pool)


RUNTIME_KEY: web.AppKey[TeamsRuntime] = web.AppKey("dasar_teams_runtime", TeamsRuntime)


def runtime_of(app: web.Application) -> TeamsRuntime:
    """The runtime of a started app (available after startup)."""
    return app[RUNTIME_KEY]


def build_teams_app(settings: Settings, deps: TeamsDeps) -> web.Application:
    """aiohttp app serving the bot; the runtime is created on startup (it needs the running loop)."""
    build_adapter(settings)  # fail fast on bad credentials config, before the server starts
    app = web.Application(client_max_size=1024 * 1024)

    async def lifecycle(app: web.Application) -> AsyncIterator[None]:
        runtime = runtime_for(settings, deps, loop=asyncio.get_running_loop())
        runtime.adapter.on_turn_error = on_error  # a failing turn is logged and apologised for, never a 500
        app[RUNTIME_KEY] = runtime
        stop = asyncio.Event()
        task = None
        if deps.poll_seconds is not None:
            task = asyncio.create_task(runtime.worker.run_forever(deps.poll_seconds, stop))
        yield
        # graceful stop: answers already accepted are finished and sent before the loop closes
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(runtime.settle(), timeout=deps.drain_seconds)
        stop.set()
        if task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if runtime.pool is not None:
            runtime.pool.shutdown(wait=False, cancel_futures=True)

    async def messages(request: web.Request) -> web.Response:
        if "application/json" not in request.headers.get("Content-Type", ""):
            return web.Response(status=415, text="expected application/json")
        try:
            body = await request.json()
        except json.JSONDecodeError:
            return web.Response(status=400, text="malformed JSON")
        activity = Activity().deserialize(body) if isinstance(body, dict) else None
        if activity is None or not activity.type:
            return web.Response(status=400, text="not a Bot Framework activity")
        runtime = app[RUNTIME_KEY]
        try:
            response = await runtime.adapter.process_activity(
                request.headers.get("Authorization", ""), activity, runtime.bot.on_turn
            )
        except PermissionError:
            return web.Response(status=401, text="unauthorized")
        except Exception as exc:
            # turn errors are handled by on_error (attached below); what escapes is the token check of a
            # malformed header (PyJWT DecodeError, a bad base64 segment): that is 401, not a server error
            if _is_token_error(exc):
                logger.info("error=%s | teams request with a malformed token refused", type(exc).__name__)
                return web.Response(status=401, text="unauthorized")
            raise
        if response is not None:
            return web.json_response(data=response.body, status=response.status)
        return web.Response(status=201)

    async def healthz(_: web.Request) -> web.Response:
        if deps.redis_health is not None:
            healthy, reason = await asyncio.to_thread(deps.redis_health.status)
            if not healthy:  # still serving (in-process fallbacks): degraded, not dead
                return web.json_response({"ok": True, "status": "degraded", "reason": reason})
        return web.json_response({"ok": True, "status": "ok"})

    async def metrics_endpoint(_: web.Request) -> web.Response:
        """``GET /metrics``: Prometheus exposition (turns, answer latency, Bot Connector errors and retries,
        outbox depth/oldest/dead/uncertain, Redis and ticket database up), gauges probed at scrape time."""
        probe = SimpleNamespace(
            settings=SimpleNamespace(redis_url="configured" if deps.redis_health is not None else None),
            redis_health=deps.redis_health,
            tickets=deps.tickets,
        )
        await asyncio.to_thread(metrics.refresh_from, probe)
        body, content_type = metrics.render()
        return web.Response(body=body, headers={"Content-Type": content_type})

    async def on_error(ctx: TurnContext, error: Exception) -> None:
        """A turn failed inside the bot: log it (no message text) and apologise to the user.

        Proactive turns (the outbox's ``continue_conversation``) re-raise: their caller classifies the
        failure (retry, uncertain, dead) and must see it.
        """
        if ctx.activity is None or ctx.activity.type not in (ActivityTypes.message, ActivityTypes.invoke):
            raise error
        reference = uuid.uuid4().hex[:8]
        logger.error("error=%s, ref=%s | teams turn failed", type(error).__name__, reference, exc_info=error)
        if ctx.activity.type == ActivityTypes.message:
            with contextlib.suppress(Exception):  # the apology must never raise a second error
                await ctx.send_activity(S.TURN_FAILED.format(ref=reference))

    app.cleanup_ctx.append(lifecycle)
    app.router.add_post("/api/messages", messages)
    app.router.add_get("/healthz", healthz)
    app.router.add_get(metrics.METRICS_PATH, metrics_endpoint)
    app.router.add_get(AIOHTTP_ROUTE, aiohttp_law_handler(lambda: store_of(deps.turn)))  # public laws only
    return app


def deps_from_settings(
    settings: Settings,
    *,
    clock: Callable[[], dt.datetime] | None = None,
    services: Any = None,
    turn: TurnService | None = None,
) -> TeamsDeps:
    """Default wiring from settings: SQLite tickets, YAML directory, Slack relay if a bot token is set.

    Args:
        services: a :class:`bot.wiring.Services` to reuse (its KB becomes the FAQ target); built if None.
    """
    from bot.settings import secret_or_none
    from identity.cache import MemoryPrincipalCache
    from identity.resolver import PrincipalResolver
    from identity.yaml_directory import YamlDirectory
    from tickets.factory import open_ticket_store

    if not settings.teams_service_url or not settings.teams_tax_channel_id:
        raise TeamsConfigError(
            "set DASAR_TEAMS_SERVICE_URL and DASAR_TEAMS_TAX_CHANNEL_ID (the tax-team channel "
            "where ticket cards are posted); see infra/teams/README.md"
        )
    now = clock or utc_now
    if services is not None:  # the runtime's clients: one directory, resolver, ticket store per process
        directory = services.directory
        resolver = services.resolver()
    else:
        directory = YamlDirectory(Path(settings.directory))
        resolver = PrincipalResolver(directory, MemoryPrincipalCache())

    def people(actor: str) -> str:
        entry = directory.lookup_email(actor) if "@" in actor else None
        return entry.display_name if entry is not None else actor

    relays: dict[str, Relay] = {}
    slack_client = getattr(services, "slack", None) if services is not None else None
    if slack_client is None and settings.slack_bot_token is not None:
        from bot.slack.client import make_web_client

        token = settings.slack_bot_token.get_secret_value()
        slack_client = make_web_client(token, settings.slack_api_base_url)
    if slack_client is not None:
        from bot.teams.relay import SlackWebRelay

        relays["slack"] = SlackWebRelay(slack_client)
    journal_path = settings.teams_journal_db or Path(settings.tickets_db).with_suffix(".teams-journal.sqlite")
    faq = None
    doc_lookup = None
    if services is not None:
        from bot.runtime import injection_flagger

        cache = getattr(services, "answer_cache", None)  # FAQ approvals purge the answers resting on them
        faq = FaqService(
            settings.faq_dir,
            services.store,
            services.embedder,
            review_days=settings.faq_review_days,
            default_access=settings.faq_default_access,
            clock=now,
            flagger=injection_flagger,
            on_change=cache.purge_documents if cache is not None else None,
        )

        def doc_lookup(number: str) -> Mapping[str, Any] | None:
            stored = services.store.document_by_number(number)
            if stored is None:
                return None
            return {
                "doc_id": stored.meta.id,
                "title": stored.meta.title,
                "url": stored.meta.official_url or stored.meta.source_url,
            }

    tickets = (
        services.tickets
        if services is not None and clock is None
        else open_ticket_store(settings.tickets_db, secret_or_none(settings.tickets_url), clock=now)
    )
    return TeamsDeps(
        tickets=tickets,
        resolve_principal=resolver.resolve,
        tax_channel=TaxChannel(
            settings.teams_service_url, settings.teams_tax_channel_id, settings.teams_tenant_id
        ),
        journal=DeliveryJournal(journal_path),
        relays=relays,
        faq=faq,
        people=people,
        doc_lookup=doc_lookup,
        clock=now,
        turn=turn,
        poll_seconds=settings.outbox_poll_seconds,
        redis_health=services.redis_health if getattr(services, "redis", None) is not None else None,
    )


def serve(settings: Settings, deps: TeamsDeps, *, port: int) -> None:
    """Run the bot until interrupted (``dasar serve teams``)."""
    web.run_app(build_teams_app(settings, deps), host="0.0.0.0", port=port, print=None)  # noqa: S104


async def run_worker(
    settings: Settings,
    *,
    once: bool = False,
    after_send: Callable[[OutboxMessage, str], None] | None = None,
    clock: Callable[[], dt.datetime] | None = None,
) -> DeliveryResult | None:
    """The outbox worker as its own process, from settings (``once``: one delivery pass, then exit).

    Lives here, not in :mod:`bot.teams.outbox_worker`, so the worker module never imports the app (no
    import cycle).  ``after_send`` and ``clock`` exist for the crash/restart test; production passes neither.
    """
    deps = deps_from_settings(settings, clock=clock)
    runtime = runtime_for(settings, deps, loop=asyncio.get_running_loop(), after_send=after_send)
    if once:
        return await runtime.worker.flush()
    stop = asyncio.Event()
    await runtime.worker.run_forever(settings.outbox_poll_seconds, stop)
    return None


def _is_token_error(exc: BaseException) -> bool:
    """A failure of the inbound token check itself (malformed JWT or header), as opposed to a bot error."""
    return any(
        (type(err).__module__ or "").startswith("jwt") or isinstance(err, binascii.Error)
        for err in exception_chain(exc)
    )
