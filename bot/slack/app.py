"""Build and run the slack-bolt app: HTTP (Events API + interactivity) and Socket Mode from one code path.

WHY one ``App`` for both modes: the listeners, dedupe, rate limit and rendering are identical; only
the transport differs.  HTTP mode serves bolt's WSGI adapter (``POST /slack/events`` for events
*and* interactivity, ``GET /healthz``, ``GET /metrics``) from a threaded stdlib WSGI server -- the same
callable runs under gunicorn (``frontend.wsgi_app``).  Bolt's ``RequestVerification`` middleware checks the
signature and rejects timestamps older than five minutes with 401.  Socket Mode uses bolt's
built-in ``SocketModeHandler`` (no extra dependency).

Acks never wait behind answers: the app runs with ``process_before_response=True`` and every listener is
an ``ack`` function plus lazy listeners.  The ack function runs in the HTTP request's own thread (one
thread per request) or the Socket Mode envelope's, so Slack gets its 200 within milliseconds however many
answers are queued; the lazy listeners (the turns, button work) run in the bounded answer pool
(``listener_executor``, ``DASAR_SLACK_WORKERS`` threads).  With bolt's default
``process_before_response=False`` a button's ack function was itself submitted to that pool and, with
every worker busy answering, waited past Slack's 3 s (the click failed with HTTP 404 on Slack's side).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from bot import metrics
from bot.law_links import LAW_PATH
from bot.law_page import store_of, wsgi_law
from bot.messages import TurnService
from bot.settings import Settings
from bot.slack.assistant import AssistantDeps, register_assistant
from bot.slack.audience import ChannelAudience, Resolver
from bot.slack.client import make_web_client, silence_body_logging, with_retries
from bot.slack.dedupe import Deduper, MemoryDeduper
from bot.slack.errors import SlackConfigError
from bot.slack.frontend import SlackListeners
from bot.slack.ratelimit import RateDecision, RateLimiter, SlidingWindowLimiter
from bot.slack.redis_backends import RedisHealth
from bot.slack.state import MemoryThreadState, ThreadState

logger = logging.getLogger(__name__)

EVENTS_PATH = "/slack/events"
HEALTH_PATH = "/healthz"
METRICS_PATH = metrics.METRICS_PATH
DEFAULT_PORT = 3000


def require_settings(settings: Settings, *, socket: bool) -> dict[str, str]:
    """The secrets a mode needs, or :class:`SlackConfigError` naming every missing variable.

    HTTP mode needs the bot token and the signing secret; Socket Mode the bot token and the
    app-level token (``xapp-...``, scope ``connections:write``).
    """
    needed = {"slack_bot_token": "DASAR_SLACK_BOT_TOKEN"}
    needed.update(
        {"slack_app_token": "DASAR_SLACK_APP_TOKEN"}
        if socket
        else {"slack_signing_secret": "DASAR_SLACK_SIGNING_SECRET"}
    )
    values: dict[str, str] = {}
    missing: list[str] = []
    for name, env in needed.items():
        secret = getattr(settings, name)
        value = secret.get_secret_value().strip() if secret is not None else ""
        if value:
            values[name] = value
        else:
            missing.append(env)
    if missing:
        mode = "Socket Mode" if socket else "HTTP mode"
        raise SlackConfigError(
            f"cannot start the Slack app in {mode}: {', '.join(missing)} "
            f"{'is' if len(missing) == 1 else 'are'} not set (environment or settings file)"
        )
    if socket and not values["slack_app_token"].startswith("xapp-"):
        raise SlackConfigError("DASAR_SLACK_APP_TOKEN must be an app-level token starting with 'xapp-'")
    return values


@dataclass
class SlackFrontEnd:
    """The bolt ``App`` with its listeners, and ways to serve it.

    Attributes:
        app: The slack-bolt ``App``.
        listeners: Our listeners (``listeners.stats`` counts deliveries, duplicates, answers...).
        client: The Web API client the app posts with.
        executor: Where turns run after the ack.
    """

    app: Any
    listeners: SlackListeners
    client: Any
    executor: ThreadPoolExecutor
    redis_health: RedisHealth | None = None
    runtime: Any = None
    """The process's :class:`bot.runtime.Runtime` (``/metrics`` probes its Redis and ticket store)."""
    _closers: list[Callable[[], None]] = field(default_factory=list)

    def health(self) -> str:
        """``ok``, or ``degraded: <reason>`` while a shared dependency (Redis) is down and bypassed."""
        if self.redis_health is None:
            return "ok"
        ok, reason = self.redis_health.status()
        return "ok" if ok else f"degraded: {reason}"

    @property
    def health_wsgi_app(self) -> Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]:
        """WSGI callable serving only ``GET /healthz`` and ``GET /metrics`` (Socket Mode's health port:
        no Slack requests arrive over HTTP there, so nothing else is answered)."""
        return self._with_health(_not_found)

    @property
    def wsgi_app(self) -> Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]:
        """WSGI callable: bolt's handler on :data:`EVENTS_PATH` plus a health check."""
        from slack_bolt.adapter.wsgi import SlackRequestHandler

        return self._with_health(SlackRequestHandler(self.app, path=EVENTS_PATH))

    def _with_health(
        self, other: Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]
    ) -> Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]:
        """``GET /healthz``, ``GET /metrics`` and ``GET /law/...`` answered here, every other request by
        ``other``."""

        def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
            if environ.get("REQUEST_METHOD") == "GET" and environ.get("PATH_INFO") == HEALTH_PATH:
                # still 200 when degraded: the process answers (in-process fallbacks), do not restart it
                start_response("200 OK", [("Content-Type", "text/plain; charset=utf-8")])
                return [self.health().encode()]
            if environ.get("REQUEST_METHOD") == "GET" and environ.get("PATH_INFO") == METRICS_PATH:
                return [self.metrics_body(start_response)]
            if environ.get("REQUEST_METHOD") == "GET" and str(environ.get("PATH_INFO")).startswith(LAW_PATH):
                # the consolidated law, public statutes only (bot.law_page): a citation link target
                return wsgi_law(environ, start_response, lambda: store_of(self.runtime, self.listeners.turn))
            return other(environ, start_response)

        return application

    def metrics_body(self, start_response: Callable[..., Any]) -> bytes:
        """``GET /metrics``: refresh the gauges from the runtime (Redis, ticket store), then render."""
        if self.runtime is not None:
            metrics.refresh_from(self.runtime)
        elif self.redis_health is not None:
            ok, _ = self.redis_health.status()
            metrics.METRICS.redis_up.set(1 if ok else 0)
        body, content_type = metrics.render()
        start_response("200 OK", [("Content-Type", content_type), ("Content-Length", str(len(body)))])
        return body

    def start_http(self, host: str = "127.0.0.1", port: int = 0, *, health_only: bool = False) -> HttpServer:
        """Serve HTTP mode in a background thread (``port=0``: a free port); returns the running server.

        ``health_only``: serve just ``/healthz`` and ``/metrics`` (the health port of Socket Mode).
        """
        application = self.health_wsgi_app if health_only else self.wsgi_app
        server = make_server(
            host, port, application, server_class=_ThreadingWSGIServer, handler_class=_QuietHandler
        )
        thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.1}, name="dasar-slack-http", daemon=True
        )
        thread.start()
        running = HttpServer(server, thread)
        self._closers.append(running.close)
        if health_only:
            logger.info("host=%s, port=%d | slack health and metrics listening", host, running.port)
        else:
            logger.info(
                "host=%s, port=%d, path=%s | slack http mode listening", host, running.port, EVENTS_PATH
            )
        return running

    def socket_mode_handler(self, app_token: str, **kwargs: Any) -> Any:
        """Bolt's built-in ``SocketModeHandler`` for this app (call ``.connect()`` or ``.start()``)."""
        from slack_bolt.adapter.socket_mode import SocketModeHandler

        handler = SocketModeHandler(self.app, app_token=app_token, web_client=self.client, **kwargs)
        self._closers.append(handler.close)
        return handler

    def close(self) -> None:
        """Stop servers / socket connections started here, then the turn executor (waits for turns)."""
        while self._closers:
            closer = self._closers.pop()
            try:
                closer()
            except Exception:
                logger.exception("slack front end: a closer failed")
        self.executor.shutdown(wait=True)


def _not_found(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    start_response("404 Not Found", [("Content-Type", "text/plain; charset=utf-8")])
    return [b"not found"]


class HttpServer:
    """A running HTTP-mode server."""

    def __init__(self, server: WSGIServer, thread: threading.Thread):
        self.server = server
        self.thread = thread

    @property
    def port(self) -> int:
        """The bound port."""
        return int(self.server.server_address[1])

    @property
    def url(self) -> str:
        """``http://host:port/slack/events``."""
        host = self.server.server_address[0]
        host_text = host.decode() if isinstance(host, bytes) else host
        return f"http://{host_text}:{self.port}{EVENTS_PATH}"

    def close(self) -> None:
        """Stop accepting requests and close the socket."""
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


class _ThreadingWSGIServer(ThreadingMixIn, WSGIServer):
    """One thread per request so a slow client never delays another ack."""

    daemon_threads = True
    request_queue_size = 128


class _QuietHandler(WSGIRequestHandler):
    """Access lines to the debug log instead of stderr (they hold no user data, but are noisy)."""

    def log_message(self, format: str, *args: Any) -> None:
        logger.debug("client=%s | " + format, self.client_address[0], *args)


def build_slack_app(
    settings: Settings,
    turn: TurnService,
    *,
    web_client: Any = None,
    dedupe: Deduper | None = None,
    rate_limiter: RateLimiter | None = None,
    resolver: Resolver | None = None,
    history: ThreadState | None = None,
    socket: bool = False,
    redis_health: RedisHealth | None = None,
    runtime: Any = None,
) -> SlackFrontEnd:
    """The Slack front end over ``turn``; every backend is injectable, defaults are in-process.

    Args:
        settings: Tokens/secret and the ``slack_*`` knobs.
        turn: The channel-neutral turn service.
        web_client: A ``slack_sdk.WebClient`` (tests point ``base_url`` at a mock); default built from
            settings (``slack_api_base_url``).
        dedupe: Delivery/message dedupe (default :class:`MemoryDeduper`).
        rate_limiter: Per-user limiter (default :class:`SlidingWindowLimiter` from settings).
        resolver: Identity resolver for channel members (default: the YAML directory of ``settings``
            with Slack ``users.info`` email fallback).
        history: The bot's thread participation + "show more" pages (default :class:`MemoryThreadState`);
            conversation *text* history is the turn's masked store, not this.
        socket: Socket Mode (no signing secret needed) instead of HTTP.
        redis_health: Outage state of the Redis-backed stores; ``/healthz`` reports ``degraded`` while down.
        runtime: The process's runtime; ``/metrics`` probes its Redis and ticket store at scrape time.

    Raises:
        SlackConfigError: A required token/secret is missing, or Slack rejected the bot token.
    """
    from slack_bolt import App
    from slack_bolt.error import BoltError

    secrets = require_settings(settings, socket=socket)
    # every client gets the SDK's retry handlers (429 + Retry-After, 500/503, connection errors)
    client = with_retries(
        web_client or make_web_client(secrets["slack_bot_token"], settings.slack_api_base_url)
    )
    if resolver is None:
        resolver = _default_resolver(settings, client)
    executor = ThreadPoolExecutor(max_workers=settings.slack_workers, thread_name_prefix="dasar-slack-turn")
    try:
        app = App(
            token=None,  # the client carries the bot token (bolt warns when both are given)
            signing_secret=secrets.get("slack_signing_secret", ""),
            client=client,
            # acks in the request thread, work in lazy listeners on the answer pool (module docstring)
            process_before_response=True,
            listener_executor=executor,
            request_verification_enabled=True,
        )
    except BoltError as exc:
        executor.shutdown(wait=False)
        raise SlackConfigError(
            f"Slack rejected DASAR_SLACK_BOT_TOKEN at start-up ({exc}); "
            "check the token and the app installation"
        ) from exc
    listeners = SlackListeners(
        turn,
        dedupe=dedupe or MemoryDeduper(settings.slack_dedupe_ttl_seconds),
        limiter=rate_limiter
        or SlidingWindowLimiter(settings.slack_rate_limit, settings.slack_rate_window_seconds),
        state=history or MemoryThreadState(settings.slack_thread_ttl_seconds),
        audience=ChannelAudience(client, resolver, settings.slack_audience_ttl_seconds),
    )
    listeners.register(app)
    register_assistant(
        app, AssistantDeps(feedback_store=getattr(turn, "tickets", None), turn=turn, dedupe=listeners.dedupe)
    )
    return SlackFrontEnd(
        app=app,
        listeners=listeners,
        client=client,
        executor=executor,
        redis_health=redis_health,
        runtime=runtime,
    )


def _default_resolver(settings: Settings, client: Any) -> Resolver:
    from identity.cache import MemoryPrincipalCache
    from identity.resolver import PrincipalResolver
    from identity.slack_user_info import SlackWebClientUserInfo
    from identity.yaml_directory import YamlDirectory

    cache: Any = MemoryPrincipalCache()
    if settings.redis_url is not None:
        from bot.slack.redis_backends import FallbackPrincipalCache
        from identity.redis_cache import RedisPrincipalCache

        primary = RedisPrincipalCache.from_url(settings.redis_url.get_secret_value())
        # a Redis outage: one WARNING per outage (RedisHealth), not one per cache call
        cache = FallbackPrincipalCache(primary, cache, RedisHealth(primary._redis))
    return PrincipalResolver(YamlDirectory(settings.directory), cache, SlackWebClientUserInfo(client))


def redis_backends(settings: Settings, client: Any = None, health: Any = None) -> dict[str, Any]:
    """``dedupe``/``rate_limiter``/``history``/``redis_health`` kwargs backed by ``DASAR_REDIS_URL``
    (empty if unset).  Each store falls back to its in-process twin while Redis fails.

    ``client``/``health``: the process's Redis client and health (``Runtime.redis``,
    ``Runtime.redis_health``); built only when not given.
    """
    if settings.redis_url is None:
        return {}
    from bot.slack.redis_backends import (
        FallbackDeduper,
        FallbackRateLimiter,
        FallbackThreadState,
        RedisDeduper,
        RedisHealth,
        RedisRateLimiter,
        RedisThreadState,
        redis_client,
    )

    client = client if client is not None else redis_client(settings.redis_url.get_secret_value())
    health = health if health is not None else RedisHealth(client)
    limit, window = settings.slack_rate_limit, settings.slack_rate_window_seconds
    return {
        "dedupe": FallbackDeduper(
            RedisDeduper(client, settings.slack_dedupe_ttl_seconds),
            MemoryDeduper(settings.slack_dedupe_ttl_seconds),
            health,
        ),
        "rate_limiter": FallbackRateLimiter(
            RedisRateLimiter(client, limit, window), SlidingWindowLimiter(limit, window), health
        ),
        "history": FallbackThreadState(
            RedisThreadState(client, settings.slack_thread_ttl_seconds),
            MemoryThreadState(settings.slack_thread_ttl_seconds),
            health,
        ),
        "redis_health": health,
    }


def runtime_clients(settings: Settings, turn: TurnService) -> dict[str, Any]:
    """The clients the turn's runtime already built, so the process holds ONE of each.

    The asker and the channel audience are resolved by the same resolver (the turn's), the Web API client
    and the Redis client are the runtime's.  A turn without a runtime (tests) gets the defaults.
    """
    from bot.runtime import Runtime

    runtime = getattr(turn, "services", None)
    if not isinstance(runtime, Runtime):
        return redis_backends(settings)
    out: dict[str, Any] = {
        "resolver": getattr(turn, "resolver", None) or runtime.shared_resolver,
        "runtime": runtime,
    }
    if runtime.slack is not None:
        out["web_client"] = runtime.slack
    out.update(
        redis_backends(settings, runtime.redis, runtime.redis_health if runtime.redis is not None else None)
    )
    if getattr(turn, "rate_limiter", None) is not None:
        out["rate_limiter"] = _Unlimited()  # the turn limits every platform; no second count here
    return out


class _Unlimited:
    """The front end's limiter when the turn already rate-limits (policy lives in the turn)."""

    def hit(self, key: str) -> RateDecision:
        return RateDecision(allowed=True, retry_after_seconds=0)


def serve(settings: Settings, turn: TurnService, *, socket: bool, port: int = DEFAULT_PORT) -> None:
    """``dasar serve slack``: run until interrupted (Ctrl-C / SIGTERM -> KeyboardInterrupt).

    Raises:
        SlackConfigError: Missing/invalid tokens, named by variable.
    """
    require_settings(settings, socket=socket)  # fail before touching Redis or Slack
    silence_body_logging()  # the SDK's DEBUG records carry message bodies
    frontend = build_slack_app(settings, turn, socket=socket, **runtime_clients(settings, turn))
    stop = threading.Event()
    try:
        if socket:
            app_token = require_settings(settings, socket=True)["slack_app_token"]
            frontend.start_http(settings.slack_http_host, port, health_only=True)  # /healthz, /metrics
            handler = frontend.socket_mode_handler(app_token)
            handler.connect()
            logger.info("mode=socket | slack socket mode connected")
        else:
            frontend.start_http(settings.slack_http_host, port)
        stop.wait()
    except KeyboardInterrupt:
        logger.info("mode=%s | slack front end stopping", "socket" if socket else "http")
    finally:
        frontend.close()
