"""Operators' view of the bot: Prometheus metrics, served when configured.

One registry per runtime (tests build many in one process). Served at ``/metrics`` on the
webhook server in webhook mode, or on its own listener (``METRICS_LISTEN``, loopback) in
polling mode; nothing is served unless configured. The alerts worth setting are in the README.
"""

from __future__ import annotations

import logging
from typing import Any

from aiohttp import web
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

logger = logging.getLogger(__name__)


class Metrics:
    def __init__(self) -> None:
        self.registry = registry = CollectorRegistry()
        self._update_children: dict[tuple[str, str], tuple[Any, Any]] = {}
        self.updates = Counter(
            "bot_updates_total", "Updates handled, by kind and outcome "
            "(ok, retried, deferred, parked, skipped)", ["kind", "outcome"], registry=registry,
        )  # fmt: skip
        self.latency = Histogram(
            "bot_update_seconds", "Time from an update's start to its end, by kind", ["kind"],
            buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
            registry=registry,
        )  # fmt: skip
        self.inbox_depth = Gauge(
            "bot_inbox_depth", "Updates waiting in the polling inbox", registry=registry
        )
        self.inbox_oldest = Gauge(
            "bot_inbox_oldest_seconds", "Age of the oldest update in the inbox",
            registry=registry,
        )  # fmt: skip
        self.dead_letters = Gauge(
            "bot_dead_letters", "Updates set aside and not replayed", registry=registry
        )
        self.parked = Counter(
            "bot_dead_letters_parked_total", "Updates set aside by this process",
            registry=registry,
        )  # fmt: skip
        self.db_errors = Counter(
            "bot_db_errors_total", "Database errors met by updates, by SQLSTATE or type",
            ["error"], registry=registry,
        )  # fmt: skip
        self.telegram_errors = Counter(
            "bot_telegram_errors_total", "Failed Bot API calls, by HTTP status (0: network)",
            ["code"], registry=registry,
        )  # fmt: skip
        self.telegram_waits = Counter(
            "bot_telegram_retry_after_seconds_total", "Seconds waited out on 429s",
            registry=registry,
        )  # fmt: skip
        self.jobs = Counter(
            "bot_scheduler_jobs_total", "Scheduler jobs run, by outcome", ["outcome"],
            registry=registry,
        )  # fmt: skip

    def update_done(self, kind: str, outcome: str, seconds: float) -> None:
        """One update ended. The labelled children are looked up once per (kind, outcome):
        ``labels()`` takes a lock and builds tuples, paid by every update otherwise."""
        key = (kind, outcome)
        children = self._update_children.get(key)
        if children is None:
            children = (self.updates.labels(kind, outcome), self.latency.labels(kind))
            self._update_children[key] = children
        children[0].inc()
        children[1].observe(seconds)

    def render(self) -> bytes:
        return generate_latest(self.registry)

    def routes(self, app: web.Application) -> None:
        app.router.add_get("/metrics", self._serve)

    async def _serve(self, request: web.Request) -> web.Response:
        # The inbox figures are read by the polling loop's drain, every 2 s.
        return web.Response(body=self.render(), headers={"Content-Type": CONTENT_TYPE_LATEST})


async def serve_metrics(metrics: Metrics, listen: str) -> web.AppRunner:
    """A listener of its own for ``/metrics`` (polling mode)."""
    app = web.Application()
    metrics.routes(app)
    host, _, port = listen.rpartition(":")
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, host or "127.0.0.1", int(port)).start()
    logger.info("metrics on http://%s/metrics", listen)
    return runner
