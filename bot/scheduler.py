"""APScheduler 3 in-process, run by one process at a time.

``SchedulerLeader`` keeps trying a Postgres advisory lock on a connection of its own (no pool:
closing it really ends the session and frees the lock). The holder runs an ``AsyncIOScheduler``
whose jobs are registered from the schedules table: at start, when a GM changes a schedule
(``NOTIFY schedules_changed``, from any process), and every ``sync_interval`` as a safety net
(a game's time zone changed, a lost notification). On taking the lead it also catches up what
was missed while nobody led (a one-off job, so the lock connection keeps pinging meanwhile).

The others retry every ``retry_interval`` seconds. The leader pings its connection just as
often and steps down the moment it fails; the server ends a silent leader's session by TCP
keepalives and ``idle_session_timeout`` (a hung process stops pinging), which frees the lock.
Were two to run for a moment, the occurrence key still applies each occurrence once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from aiogram import Bot, Dispatcher
from apscheduler.events import EVENT_JOB_ERROR, EVENT_JOB_EXECUTED, JobExecutionEvent
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.base import BaseTrigger
from apscheduler.triggers.cron import CronTrigger
from sqlalchemy import NullPool, text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from bot import jobs
from bot.i18n import I18n
from bot.metrics import Metrics
from bot.services import schedules as service
from db.database import create_session_factory
from db.repositories.schedules import CHANNEL, ScheduledGame, ScheduleRepo
from db.uow import UnitOfWork

logger = logging.getLogger(__name__)

SCHEDULER_NAMESPACE: Final = 7_301_002  # advisory lock namespace (the polling lock is 7_301_001)
SCHEDULER_KEY: Final = 1
FIRE_JOB: Final = "bot.jobs:fire_schedule"
REMIND_JOB: Final = "bot.jobs:remind_schedule"
CATCH_UP_JOB: Final = "bot.jobs:catch_up"
REQUEST_DEADLINES_JOB: Final = "bot.jobs:request_deadlines"
RESUME_DEFERRED_JOB: Final = "bot.jobs:resume_deferred"
REMIND_MISFIRE_SECONDS: Final = 600
KEEPALIVES: Final = {
    "tcp_keepalives_idle": "10",
    "tcp_keepalives_interval": "5",
    "tcp_keepalives_count": "3",
}
IDLE_SESSION_TIMEOUT_SECONDS: Final = 20  # a hung leader (it pings every retry interval)


class ReminderTrigger(BaseTrigger):  # type: ignore[misc]
    """``before`` ahead of each fire time of ``cron`` (an absolute offset: right across DST)."""

    def __init__(self, cron: CronTrigger, before: timedelta) -> None:
        self.cron = cron
        self.before = before

    def get_next_fire_time(
        self, previous_fire_time: datetime | None, now: datetime
    ) -> datetime | None:
        base = now
        if previous_fire_time is not None:
            base = max(now, previous_fire_time + timedelta(microseconds=1))
        found = service.occurrences(self.cron, base + self.before - timedelta(microseconds=1),
                                    base + self.before + timedelta(days=8), limit=1)  # fmt: skip
        return found[0] - self.before if found else None

    def __str__(self) -> str:
        return f"reminder[{self.before} before {self.cron}]"


def create_scheduler() -> AsyncIOScheduler:
    # Jobs live in memory: the schedules table is the source of truth, re-read on start.
    return AsyncIOScheduler(timezone=UTC, job_defaults={"coalesce": True, "max_instances": 1})


def _jobs_for(item: ScheduledGame) -> dict[str, tuple[str, BaseTrigger, int, tuple[Any, ...]]]:
    """Job id → (function, trigger, misfire grace in s, signature to detect a change)."""
    s = item.schedule
    cron = service.trigger(s, item.timezone)
    signature = (s.weekday, s.minute_of_day, s.remind_minutes, s.grace_hours, item.timezone)
    wanted = {f"schedule:{s.id}": (FIRE_JOB, cron, s.grace_hours * 3600 + 300, signature)}
    if s.remind_minutes:
        reminder = ReminderTrigger(cron, timedelta(minutes=s.remind_minutes))
        wanted[f"remind:{s.id}"] = (REMIND_JOB, reminder, REMIND_MISFIRE_SECONDS, signature)
    return wanted


def register(
    scheduler: AsyncIOScheduler, items: list[ScheduledGame], signatures: dict[str, Any]
) -> None:
    """Make the scheduler's jobs match the schedules (add, replace the changed, remove)."""
    wanted: dict[str, tuple[str, BaseTrigger, int, tuple[Any, ...]]] = {}
    for item in items:
        wanted.update(_jobs_for(item))
    for job in scheduler.get_jobs():
        if job.id.startswith(("schedule:", "remind:")) and job.id not in wanted:
            job.remove()
            signatures.pop(job.id, None)
    for job_id, (func, trigger, misfire, signature) in wanted.items():
        if signatures.get(job_id) == signature and scheduler.get_job(job_id) is not None:
            continue
        schedule_id = int(job_id.split(":", 1)[1])
        scheduler.add_job(
            func, trigger, args=(schedule_id,), id=job_id, replace_existing=True,
            misfire_grace_time=misfire,
        )  # fmt: skip
        signatures[job_id] = signature


class SchedulerLeader:
    """Start with ``start()``, stop with ``stop()``; ``is_leader`` says whether this process
    runs the scheduler now."""

    def __init__(
        self, engine: AsyncEngine, bot: Bot, i18n: I18n, *, views: jobs.JobViews,
        now: Callable[[], datetime] = service.utcnow, key: int = SCHEDULER_KEY,
        retry_interval: float = 5.0, sync_interval: float = 60.0,
    ) -> None:  # fmt: skip
        self._engine = engine
        # The server drops a silent peer (host gone, network cut) within ~25 s by TCP
        # keepalives, freeing the lock for the next leader.
        self._lock_engine = create_async_engine(
            engine.url, poolclass=NullPool, connect_args={"server_settings": KEEPALIVES}
        )
        self._context = jobs.JobContext(
            create_session_factory(engine), bot, i18n, now, views=views
        )
        self.metrics: Metrics | None = None  # jobs run and failed, when the runtime counts
        self._key = key
        self._retry = retry_interval
        self._sync_interval = sync_interval
        self._task: asyncio.Task[None] | None = None
        self._scheduler: AsyncIOScheduler | None = None
        self._signatures: dict[str, Any] = {}
        self._ready = False
        self._wake = asyncio.Event()
        self.backend_pid: int | None = None
        self.attempts = 0  # lock attempts (for tests and logs)

    @property
    def is_leader(self) -> bool:
        """Leading, with the jobs registered and the missed occurrences caught up."""
        return self._scheduler is not None and self._ready

    @property
    def scheduler(self) -> AsyncIOScheduler | None:
        return self._scheduler

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="scheduler-leader")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        await self._lock_engine.dispose()

    async def _run(self) -> None:
        while True:
            conn = await self._try_lock()
            if conn is not None:
                try:
                    await self._lead(conn)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    logger.warning("scheduler: leadership lost", exc_info=True)
                finally:
                    await self._step_down(conn)
            await asyncio.sleep(self._retry)

    async def _try_lock(self) -> AsyncConnection | None:
        conn: AsyncConnection | None = None
        self.attempts += 1
        try:
            conn = await self._lock_engine.connect()
            taken = (
                await conn.execute(
                    text("SELECT pg_try_advisory_lock(:ns, :key), pg_backend_pid()"),
                    {"ns": SCHEDULER_NAMESPACE, "key": self._key},
                )
            ).one()
            await conn.commit()
        except Exception:
            logger.warning("scheduler: cannot reach the database", exc_info=True)
            if conn is not None:
                await conn.close()
            return None
        if not taken[0]:
            await conn.close()
            return None
        await self._limit_idle(conn)
        self.backend_pid = int(taken[1])
        return conn

    async def _limit_idle(self, conn: AsyncConnection) -> None:
        """A leader whose process hangs stops pinging; the server then ends its session (and
        the lock). PostgreSQL 14+; older servers just lack this safety net."""
        seconds = max(IDLE_SESSION_TIMEOUT_SECONDS, int(self._retry * 4) + 1)
        try:
            await conn.execute(text(f"SET idle_session_timeout = '{seconds}s'"))
            await conn.commit()
        except Exception:
            await conn.rollback()
            logger.info("scheduler: idle_session_timeout not supported by this server")

    def _count_job(self, event: JobExecutionEvent) -> None:
        assert self.metrics is not None
        self.metrics.jobs.labels("failed" if event.exception else "ok").inc()

    async def _lead(self, conn: AsyncConnection) -> None:
        raw = await conn.get_raw_connection()
        driver: Any = raw.driver_connection
        await driver.add_listener(CHANNEL, lambda *_: self._wake.set())
        jobs.install(self._context)
        scheduler = create_scheduler()
        if self.metrics is not None:
            scheduler.add_listener(self._count_job, EVENT_JOB_EXECUTED | EVENT_JOB_ERROR)
        scheduler.start()
        self._scheduler = scheduler
        self._signatures = {}
        logger.info("scheduler: leading (lock %s/%s)", SCHEDULER_NAMESPACE, self._key)
        await self.sync()
        # In the background: the lock connection keeps pinging while notices go out.
        scheduler.add_job(CATCH_UP_JOB, id="schedules:catch-up", misfire_grace_time=None)
        scheduler.add_job(
            REQUEST_DEADLINES_JOB, "interval", seconds=60, id="requests:deadlines",
            replace_existing=True, coalesce=True, misfire_grace_time=None,
        )  # fmt: skip
        # Milestones that waited for a fight or scene: applied within a minute of its end.
        scheduler.add_job(
            RESUME_DEFERRED_JOB, "interval", seconds=60, id="schedules:deferred",
            replace_existing=True, coalesce=True, misfire_grace_time=None,
        )  # fmt: skip
        self._ready = True
        next_sync = time.monotonic() + self._sync_interval
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self._retry)
            await conn.execute(text("SELECT 1"))  # raises once the connection is gone
            await conn.commit()
            if self._wake.is_set() or time.monotonic() >= next_sync:
                self._wake.clear()
                await self.sync()
                next_sync = time.monotonic() + self._sync_interval

    async def sync(self) -> None:
        """Register the jobs from the database (only while leading)."""
        if self._scheduler is None:
            return
        async with UnitOfWork(self._context.session_factory) as uow:
            items = await ScheduleRepo(uow.session).active()
        register(self._scheduler, items, self._signatures)

    async def _step_down(self, conn: AsyncConnection) -> None:
        self._ready = False
        if self._scheduler is not None:
            self._scheduler.shutdown(wait=False)
            self._scheduler = None
        jobs.uninstall(self._context)
        self.backend_pid = None
        with contextlib.suppress(Exception):
            await conn.close()  # no pool: the session ends and the lock with it
        logger.info("scheduler: stepped down")


async def _start_leader(scheduler: SchedulerLeader) -> None:
    scheduler.start()


async def _stop_leader(scheduler: SchedulerLeader) -> None:
    await scheduler.stop()


def setup_scheduler(
    dispatcher: Dispatcher, *, engine: AsyncEngine, bot: Bot, i18n: I18n, views: jobs.JobViews,
    **options: Any,
) -> SchedulerLeader:  # fmt: skip
    """Run a ``SchedulerLeader`` for as long as the dispatcher runs (its startup and shutdown
    hooks: polling and webhook alike); handlers get it as ``scheduler``. ``views`` render the
    jobs' posts (the composition root passes ``handlers.views.job_notices``)."""
    leader = SchedulerLeader(engine, bot, i18n, views=views, **options)
    leader.metrics = dispatcher.get("metrics")
    dispatcher["scheduler"] = leader
    dispatcher.startup.register(_start_leader)
    dispatcher.shutdown.register(_stop_leader)
    return leader
