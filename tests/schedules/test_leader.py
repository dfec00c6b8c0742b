"""One scheduler per database: a second leader waits for the lock and takes over once the
first's connection dies; the leader registers jobs from the database and on NOTIFY."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from aiogram import Bot
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.i18n import I18n
from bot.scheduler import SchedulerLeader, setup_scheduler
from bot.services import schedules as service
from db.database import create_session_factory
from db.uow import UnitOfWork
from handlers.views import job_notices
from tests.conftest import Harness

TAKEOVER_BOUND = 30.0  # the acceptance bound; with 0.2 s retries it takes well under a second


async def _wait(predicate, timeout: float) -> None:  # type: ignore[no-untyped-def]
    import asyncio

    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        assert loop.time() < deadline, "condition not reached in time"
        await asyncio.sleep(0.05)


async def _game(engine: AsyncEngine) -> int:
    async with engine.begin() as conn:
        row = await conn.execute(
            text(
                "INSERT INTO games (chat_id, system, title, gm_user_id, timezone) "
                "VALUES (-4242, 'fate', 'Leader', 7, 'Europe/Berlin') RETURNING id"
            )
        )
        return int(row.scalar_one())


async def test_second_leader_waits_then_takes_over(clean_db: AsyncEngine) -> None:
    engine = clean_db
    game_id = await _game(engine)
    bot = Bot("123456:LEADER-TEST")
    key = random.randrange(1_000_000, 2_000_000)  # apart from any other scheduler in the run
    first = SchedulerLeader(
        engine, bot, I18n("ru"), views=job_notices, key=key, retry_interval=0.2
    )
    second = SchedulerLeader(
        engine, bot, I18n("ru"), views=job_notices, key=key, retry_interval=0.2
    )
    try:
        first.start()
        await _wait(lambda: first.is_leader, 10)
        second.start()
        # The second tries several times and stays out while the first holds the lock.
        await _wait(lambda: second.attempts >= 5, 10)
        assert not second.is_leader and first.is_leader

        # A GM adds a schedule (any process): the leader registers it on the notification.
        async with UnitOfWork(create_session_factory(engine)) as uow:
            game = await uow.games.get(game_id)
            assert game is not None
            schedule = await service.create(
                uow, game, kind="minor", weekday=6, minute_of_day=21 * 60,
                remind_minutes=60, created_by=7,
            )  # fmt: skip
        scheduler = first.scheduler
        assert scheduler is not None
        await _wait(lambda: scheduler.get_job(f"schedule:{schedule.id}") is not None, 10)
        job = scheduler.get_job(f"schedule:{schedule.id}")
        assert job.func_ref == "bot.jobs:fire_schedule" and job.args == (schedule.id,)
        assert job.next_run_time.astimezone(UTC).weekday() == 6
        assert scheduler.get_job(f"remind:{schedule.id}") is not None

        # The first's connection dies (its process was killed): the second takes over.
        async with engine.begin() as conn:
            await conn.execute(
                text("SELECT pg_terminate_backend(:pid)"), {"pid": first.backend_pid}
            )
        await _wait(lambda: second.is_leader, TAKEOVER_BOUND)
        await _wait(lambda: not first.is_leader, TAKEOVER_BOUND)
        taken = second.scheduler
        assert taken is not None and taken.get_job(f"schedule:{schedule.id}") is not None
        assert datetime.now(UTC) < taken.get_job(f"schedule:{schedule.id}").next_run_time
    finally:
        await first.stop()
        await second.stop()
        await bot.session.close()


async def test_setup_scheduler_runs_with_the_dispatcher(harness: Harness) -> None:
    h = harness
    runtime = h.build()
    leader = setup_scheduler(
        runtime.dispatcher, engine=h.engine, bot=runtime.bot, i18n=I18n("ru"), views=job_notices,
        key=random.randrange(2_000_000, 3_000_000), retry_interval=0.2,
    )  # fmt: skip
    await h.start(runtime)
    await _wait(lambda: leader.is_leader, 10)
    await h.stop()
    assert not leader.is_leader
