"""The composition root's body: build every part from settings, run, and shut down cleanly."""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
from collections.abc import Coroutine
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, TextIO

from aiogram import Bot, Dispatcher
from aiohttp import web
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bot.commands import register_commands
from bot.config import Settings
from bot.cpu import CpuPool
from bot.factory import create_bot, create_dispatcher
from bot.i18n import I18n
from bot.leader import PollingLock
from bot.metrics import Metrics, serve_metrics
from bot.middlewares import InFlightMiddleware
from bot.outbound import Limits, outbound_of
from bot.polling import METRICS, QUEUES, FairQueues, InboxDispatcher
from bot.scheduler import setup_scheduler
from bot.webhook import create_webhook_app, webhook_path
from db.database import EmbeddedPostgres, create_engine, create_session_factory, migrate
from db.uow import UnitOfWork
from handlers import routers
from handlers.dice import roll_hint
from handlers.views import job_notices
from handlers.views.resources import live_panel
from webapp import wiring as webapp

logger = logging.getLogger(__name__)

SHUTDOWN_GRACE_SECONDS = 30.0
EDITS_GRACE_SECONDS = 10.0  # parked edits (bot/edits.py): one per message, paced a second each
# Updates handled at once. Each holds one connection of the main pool (10 + 10 overflow) for
# its unit of work; FSM reads and writes use a small pool of their own, so an update never
# waits for a second connection of the pool it already holds one of (that deadlocked a burst).
UPDATE_CONCURRENCY = 16
FSM_POOL = 8  # FSM reads and writes are single short statements
PROCESSED_UPDATES_KEPT = timedelta(days=2)  # the claim ignores those older than 26 hours
INLINE_OFFERS_KEPT = timedelta(days=2)  # unsent inline offers (bot/services/inline_rolls.py)
HOUSEKEEPING = "housekeeping"  # workflow data: the pruning task


@dataclass
class BotRuntime:
    """One running bot: dispatcher polling in a task over one engine. Tests restart it."""

    bot: Bot
    dispatcher: Dispatcher
    engine: AsyncEngine
    fsm_engine: AsyncEngine  # a pool of its own: see ``build_runtime``
    update_engine: AsyncEngine | None = None  # the update path's pool: see ``build_runtime``
    _task: asyncio.Task[None] | None = field(default=None, init=False)

    def _polling(self, *, handle_signals: bool) -> Coroutine[Any, Any, None]:
        return self.dispatcher.start_polling(
            self.bot,
            handle_signals=handle_signals,
            polling_timeout=10,
            tasks_concurrency_limit=UPDATE_CONCURRENCY,
        )

    def start_polling(self, *, handle_signals: bool = False) -> asyncio.Task[None]:
        self._task = asyncio.create_task(self._polling(handle_signals=handle_signals))
        return self._task

    async def run_until_stopped(self) -> None:
        """Poll until SIGTERM/SIGINT (aiogram handles the signals), then finish in-flight work.

        Refuses to start (``AlreadyPolling``) while another process polls the same bot."""
        try:
            async with PollingLock(self.engine, self.bot.id):
                await self._polling(handle_signals=True)
        finally:
            await self._dispose()

    async def _dispose(self) -> None:
        await self.fsm_engine.dispose()
        if self.update_engine is not None:
            await self.update_engine.dispose()

    async def stop(self) -> None:
        if self._task is None:
            return
        try:
            await self.dispatcher.stop_polling()
        except RuntimeError:
            pass  # polling already ended
        await self._task
        self._task = None
        await self._dispose()


async def _on_shutdown(dispatcher: Dispatcher, bot: Bot) -> None:
    in_flight: InFlightMiddleware = dispatcher["in_flight"]
    await in_flight.wait_idle(SHUTDOWN_GRACE_SECONDS)
    queues: FairQueues | None = dispatcher.workflow_data.pop(QUEUES, None)
    if queues is not None:
        await queues.cancel_running()
    outbound = outbound_of(bot)
    if outbound is not None:
        await outbound.drain(EDITS_GRACE_SECONDS)  # parked edits go out while the session lives
    housekeeping: asyncio.Task[None] | None = dispatcher.workflow_data.pop(HOUSEKEEPING, None)
    if housekeeping is not None:
        housekeeping.cancel()
    cpu: CpuPool = dispatcher["cpu"]
    await cpu.close()  # after the updates in flight: one may still wait for its job


async def _housekeeping(factory: Any, every: float = 3600.0) -> None:
    """Forget old processed-update claims now and every hour while running (a process that
    runs for weeks must not keep them all; the claim itself ignores those past Telegram's
    redelivery window, so this is only about space)."""
    while True:
        try:
            async with UnitOfWork(factory) as uow:
                pruned = await uow.updates.prune(PROCESSED_UPDATES_KEPT)
                await uow.inline.prune(INLINE_OFFERS_KEPT)
                await uow.commit()
            logger.info("forgot %d old processed-update records", pruned)
        except Exception as error:  # the database may be away: next hour, then
            logger.warning("housekeeping: %s", error)
        await asyncio.sleep(every)


async def _on_startup(bot: Bot, dispatcher: Dispatcher) -> None:
    webhook: tuple[str, str | None] | None = dispatcher.get("webhook")
    if webhook is None:
        await bot.delete_webhook(drop_pending_updates=False)  # polling needs no webhook
    else:
        url, secret = webhook
        await bot.set_webhook(
            url,
            secret_token=secret,
            allowed_updates=dispatcher.resolve_used_update_types(),
            drop_pending_updates=False,
        )
    await register_commands(bot, dispatcher["i18n"])
    dispatcher[HOUSEKEEPING] = asyncio.create_task(_housekeeping(dispatcher["session_factory"]))
    me = await bot.get_me()
    logger.info("bot @%s is up", me.username)


def build_runtime(
    *,
    token: str,
    api_url: str | None,
    engine: AsyncEngine,
    settings: Settings,
    limits: Limits | None = None,
) -> BotRuntime:
    i18n = I18n(settings.default_locale.value)
    metrics = Metrics()
    # Updates get pools of their own (the FSM's apart from the units of work: an update holds
    # its unit of work while aiogram-dialog reads the FSM, so one shared pool could deadlock),
    # without pre-ping: a ping costs three round trips per checkout (BEGIN; ; ROLLBACK). A
    # connection the server dropped fails on the update's first statement instead, which is
    # retried once on a fresh connection (nothing was done yet). FSM statements are single
    # upserts and reads: autocommit spares them BEGIN/ROLLBACK.
    update_engine = create_async_engine(
        engine.url, pool_size=UPDATE_CONCURRENCY, max_overflow=4, pool_recycle=1800
    )
    # No overflow: an overflow connection is closed when returned, so a burst of updates
    # opened and closed one per FSM read (connecting was a tenth of the CPU of a /r burst);
    # waiting a moment for one of eight costs less.
    fsm_engine = create_async_engine(
        engine.url, pool_size=FSM_POOL, max_overflow=0, pool_recycle=1800,
        isolation_level="AUTOCOMMIT",
    )  # fmt: skip
    dp = create_dispatcher(
        fsm_engine=fsm_engine, session_factory=create_session_factory(update_engine), i18n=i18n,
        routers=routers(), roll_hint=roll_hint, metrics=metrics, panel_view=live_panel,
    )  # fmt: skip
    dp["session_factory"] = create_session_factory(engine)
    dp.startup.register(_on_startup)
    dp.shutdown.register(_on_shutdown)
    bot = create_bot(token, api_url=api_url, limits=limits, metrics=metrics)
    # Scheduled milestones: one leader among all processes (advisory lock), hooked to the
    # dispatcher's startup/shutdown, so polling, webhook and sandbox modes all get it.
    setup_scheduler(dp, engine=engine, bot=bot, i18n=i18n, views=job_notices)
    webapp.install(dp, settings.webapp_url)
    return BotRuntime(
        bot=bot, dispatcher=dp, engine=engine, fsm_engine=fsm_engine, update_engine=update_engine
    )


def settle_heap() -> None:
    """What is built by now (modules, aiogram's models, routers, the dialogs) lives as long as
    the process: collect once, then keep it out of the collector's sight (``gc.freeze``). A
    full collection then walks what updates create, some 60,000 objects instead of 400,000:
    about a quarter of a second less per full collection, which a busy bot runs every few
    seconds (``make bench`` applies it to the echo bot and to ours alike)."""
    gc.collect()
    gc.freeze()


async def open_database(settings: Settings) -> tuple[AsyncEngine, EmbeddedPostgres | None]:
    embedded = None
    if settings.database_url is not None:
        url = settings.database_url.get_secret_value()
    else:
        embedded = EmbeddedPostgres(settings.data_dir)
        url = await embedded.start()
    engine = create_engine(url)
    await migrate(engine)
    return engine, embedded


async def run(settings: Settings, *, stdin: TextIO, stdout: TextIO) -> None:
    engine, embedded = await open_database(settings)
    try:
        if settings.bot_token is not None:
            runtime = build_runtime(
                token=settings.bot_token.get_secret_value(),
                api_url=settings.telegram_api_url,
                engine=engine,
                settings=settings,
            )
            settle_heap()
            if settings.webhook:
                await serve_webhook(runtime, settings)
            else:
                metrics = None
                if settings.metrics_listen is not None:
                    metrics = await serve_metrics(
                        runtime.dispatcher[METRICS], settings.metrics_listen
                    )
                mini_app = None
                if settings.webapp_url is not None:
                    mini_app, _ = await webapp.serve(
                        runtime.dispatcher, runtime.bot, settings.webapp_listen
                    )
                try:
                    await runtime.run_until_stopped()
                finally:
                    if metrics is not None:
                        await metrics.cleanup()
                    if mini_app is not None:
                        await mini_app.cleanup()
        else:
            await _sandbox(settings, engine, stdin=stdin, stdout=stdout)
    finally:
        await engine.dispose()
        if embedded is not None:
            await embedded.stop()


async def serve_webhook(runtime: BotRuntime, settings: Settings) -> None:
    """Serve Telegram's POSTs until SIGTERM/SIGINT; several workers may run behind a proxy."""
    assert settings.webhook_url is not None
    secret = settings.webhook_secret.get_secret_value() if settings.webhook_secret else None
    runtime.dispatcher["webhook"] = (settings.webhook_url, secret)
    assert secret is not None  # Settings refuse webhook mode without it
    app = create_webhook_app(
        runtime.dispatcher, runtime.bot, path=webhook_path(settings.webhook_url), secret=secret,
        metrics=settings.metrics_listen is not None,
    )  # fmt: skip
    if settings.webapp_url is not None:
        webapp.attach(app, runtime.dispatcher, runtime.bot)
    host, _, port = settings.webhook_listen.rpartition(":")
    runner = web.AppRunner(app)
    await runner.setup()
    dispatcher = runtime.dispatcher
    assert isinstance(dispatcher, InboxDispatcher)
    inbox = asyncio.create_task(dispatcher.serve_inbox(runtime.bot, concurrency=4))
    await web.TCPSite(runner, host or "0.0.0.0", int(port)).start()
    logger.info("webhook: listening on %s for %s", settings.webhook_listen, settings.webhook_url)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        inbox.cancel()
        await runner.cleanup()  # runs the dispatcher's shutdown: in-flight updates finish
        await runtime.fsm_engine.dispose()


async def _sandbox(
    settings: Settings, engine: AsyncEngine, *, stdin: TextIO, stdout: TextIO
) -> None:
    """No token: the sandbox (the emulator and a terminal chat), a development tool that the
    production image does not ship. Imported here for that reason: a bot with a token never
    loads it, and an image without it says what is missing instead of failing to start."""
    try:
        from sandbox.start import run_sandbox_bot
    except ModuleNotFoundError as missing:
        logger.error("no BOT_TOKEN, and the sandbox is not installed here (%s)", missing.name)
        raise SystemExit(2) from missing
    await run_sandbox_bot(settings, engine, stdin=stdin, stdout=stdout)
