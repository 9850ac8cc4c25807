"""Prometheus metrics of one front-end process (``GET /metrics`` on the health port).

WHY a private :class:`~prometheus_client.CollectorRegistry`: the default registry also collects the
process and platform collectors and is global to every import; ours holds exactly the series below, so
two front ends in one test process, or a test, can build their own :class:`Metrics` without clashing.

Series (``platform`` is ``slack`` or ``teams``):

* ``dasar_turns_total{platform, status}``: turns by reply status (``answered``, ``escalated``,
  ``rate_limited``, ``error``...);
* ``dasar_answer_seconds{platform}``: histogram of the time from the delivery to the reply posted;
* ``dasar_platform_api_errors_total{platform, method, kind}``: failed platform API calls (``kind`` is the
  platform's error code, e.g. ``ratelimited``, ``msg_too_long``, or the exception class);
* ``dasar_platform_api_retries_total{platform, method, kind}``: retries (``rate_limited``,
  ``server_error``, ``connection_error``);
* ``dasar_outbox_depth``, ``dasar_outbox_oldest_pending_age_seconds``, ``dasar_outbox_dead_letters``,
  ``dasar_outbox_uncertain``: from the ticket store's ``OutboxStats`` at scrape time;
* ``dasar_redis_up``, ``dasar_database_up{database}``: 1 healthy, 0 down (probed at scrape time).

Labels never carry user ids, channel ids or message text.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

logger = logging.getLogger(__name__)

METRICS_PATH = "/metrics"

#: Seconds; a Slack answer is expected in 1-10 s, a cold or overloaded one may take a minute.
LATENCY_BUCKETS = (0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 7.5, 10.0, 15.0, 30.0, 60.0, 120.0)


class Metrics:
    """The metric families of one process on their own registry."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.turns = Counter(
            "dasar_turns", "Turns handled, by platform and reply status.", ["platform", "status"], registry=r
        )
        self.answer_seconds = Histogram(
            "dasar_answer_seconds",
            "Seconds from a question's delivery to its reply being posted.",
            ["platform"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.answer_failures = Counter(
            "dasar_answer_failures",
            "Answers the model failed to compose (the asker is told, a ticket is opened): alert on any.",
            ["platform"],
            registry=r,
        )
        self.api_errors = Counter(
            "dasar_platform_api_errors",
            "Failed chat platform API calls.",
            ["platform", "method", "kind"],
            registry=r,
        )
        self.api_retries = Counter(
            "dasar_platform_api_retries",
            "Chat platform API calls retried after a rate limit, server error or connection error.",
            ["platform", "method", "kind"],
            registry=r,
        )
        self.outbox_depth = Gauge(
            "dasar_outbox_depth", "Outbox messages not yet delivered (pending + uncertain).", registry=r
        )
        self.outbox_oldest = Gauge(
            "dasar_outbox_oldest_pending_age_seconds",
            "Age of the oldest pending outbox message (0 when none is pending).",
            registry=r,
        )
        self.outbox_dead = Gauge("dasar_outbox_dead_letters", "Dead outbox messages.", registry=r)
        self.outbox_uncertain = Gauge(
            "dasar_outbox_uncertain", "Outbox messages whose delivery is uncertain.", registry=r
        )
        self.redis_up = Gauge("dasar_redis_up", "1 while Redis answers, 0 during an outage.", registry=r)
        self.database_up = Gauge(
            "dasar_database_up", "1 while the database answers, 0 when it does not.", ["database"], registry=r
        )

    # -- recording -----------------------------------------------------------------------------------

    def record_turn(self, platform: str, status: str, seconds: float | None = None) -> None:
        """One turn with its reply status; ``seconds`` (delivery to reply) feeds the latency histogram."""
        self.turns.labels(platform=platform, status=status or "unknown").inc()
        if seconds is not None:
            self.answer_seconds.labels(platform=platform).observe(max(seconds, 0.0))

    def record_answer_failed(self, platform: str) -> None:
        """One answer the model failed to compose (reason ``answer_failed``): a fault, not a decline."""
        self.answer_failures.labels(platform=platform).inc()

    def record_api_error(self, platform: str, method: str, kind: str) -> None:
        """One failed platform API call (after the SDK's retries)."""
        self.api_errors.labels(platform=platform, method=method or "unknown", kind=kind or "unknown").inc()

    def record_api_retry(self, platform: str, method: str, kind: str) -> None:
        """One retry of a platform API call."""
        self.api_retries.labels(platform=platform, method=method or "unknown", kind=kind or "unknown").inc()

    def set_outbox(self, stats: Any) -> None:
        """Gauges from a :class:`tickets.outbox.OutboxStats`."""
        self.outbox_depth.set(stats.depth)
        self.outbox_oldest.set(stats.oldest_pending_age_seconds or 0.0)
        self.outbox_dead.set(stats.dead)
        self.outbox_uncertain.set(stats.uncertain)

    def refresh_from(self, runtime: Any) -> None:
        """Probe Redis and the ticket database of ``runtime`` (a :class:`bot.runtime.Runtime` or anything
        with ``settings``, ``redis_health`` and ``tickets``) and set the gauges; never raises.

        Redis is probed only when ``DASAR_REDIS_URL`` is configured (no series otherwise); the ticket store
        is pinged and its outbox counted only when the runtime already opened it.
        """
        settings = getattr(runtime, "settings", None)
        if settings is not None and getattr(settings, "redis_url", None) is not None:
            try:
                ok, _reason = runtime.redis_health.status()
            except Exception as exc:
                logger.warning("error=%s | metrics: redis health probe failed", type(exc).__name__)
                ok = False
            self.redis_up.set(1 if ok else 0)
        # cached_property: only a store the process already uses (never open a database for a scrape)
        store = vars(runtime).get("tickets") if hasattr(runtime, "__dict__") else None
        if store is None:
            return
        try:
            store.ping()
            stats = store.outbox.stats(dt.datetime.now(dt.UTC))
        except Exception as exc:
            logger.warning("error=%s | metrics: ticket database unavailable", type(exc).__name__)
            self.database_up.labels(database="tickets").set(0)
            return
        self.database_up.labels(database="tickets").set(1)
        self.set_outbox(stats)

    def render(self) -> tuple[bytes, str]:
        """The exposition text and its content type."""
        return generate_latest(self.registry), CONTENT_TYPE_LATEST


#: The process's metrics (front ends record here; ``/metrics`` renders it).
METRICS = Metrics()


def record_turn(platform: str, status: str, seconds: float | None = None) -> None:
    """:meth:`Metrics.record_turn` on the process's :data:`METRICS`."""
    METRICS.record_turn(platform, status, seconds)


def record_reply(platform: str, reply: Any, seconds: float | None = None) -> None:
    """A reply posted for a turn (a :class:`bot.messages.Reply`): its status and latency, and, when the model
    failed to compose the answer (reason ``answer_failed``), that fault."""
    METRICS.record_turn(platform, reply.status, seconds)
    escalation = reply.answer.get("escalation") or {}
    if escalation.get("reason") == "answer_failed":
        METRICS.record_answer_failed(platform)


def record_api_error(platform: str, method: str, kind: str) -> None:
    """:meth:`Metrics.record_api_error` on the process's :data:`METRICS`."""
    METRICS.record_api_error(platform, method, kind)


def record_api_retry(platform: str, method: str, kind: str) -> None:
    """:meth:`Metrics.record_api_retry` on the process's :data:`METRICS`."""
    METRICS.record_api_retry(platform, method, kind)


def refresh_from(runtime: Any) -> None:
    """:meth:`Metrics.refresh_from` on the process's :data:`METRICS`."""
    METRICS.refresh_from(runtime)


def render() -> tuple[bytes, str]:
    """:meth:`Metrics.render` of the process's :data:`METRICS`: ``(body, content_type)``."""
    return METRICS.render()
