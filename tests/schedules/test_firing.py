"""Scheduled milestones fire at the right local time, once: concurrently, across a restart
(catch-up), and report what was missed past the grace — over the emulator, real Postgres."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime

from bot import jobs
from bot.i18n import I18n
from bot.scheduler import SchedulerLeader
from bot.services import schedules as service
from db.database import create_session_factory
from db.uow import UnitOfWork
from handlers.views import job_notices
from tests.conftest import Harness
from tests.games.helpers import GM, GROUP, create_game, seat_table
from tests.schedules.helpers import (
    Clock,
    fate_points,
    insert_fate_character,
    job_context,
    occurrences,
    set_timezone,
)


def _utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


async def _schedule(
    h: Harness, *, kind: str, weekday: int | None, minute: int, created: datetime,
    remind: int | None = None,
) -> int:  # fmt: skip
    async with UnitOfWork(create_session_factory(h.engine)) as uow:
        game = await uow.games.live_for_chat(GROUP)
        assert game is not None
        schedule = await service.create(
            uow, game, kind=kind, weekday=weekday, minute_of_day=minute, remind_minutes=remind,
            created_by=GM, now=lambda: created,
        )  # fmt: skip
        return schedule.id


async def _table(h: Harness) -> int:
    seat_table(h)
    await create_game(h, "fate", "Расписание")
    await set_timezone(h, "Europe/Berlin")
    return await insert_fate_character(h, fate_points=1, refresh=3)


def _posts_after(h: Harness, message_id: int) -> list[str]:
    return [m.text for m in h.emu.bot_messages(GROUP) if m.message_id > message_id]


def _last_id(h: Harness) -> int:
    last = h.emu.last_bot_message(GROUP)
    return last.message_id if last else 0


async def test_weekly_fires_at_local_time_after_dst_once_under_concurrency(
    running: Harness,
) -> None:
    h = running
    mira = await _table(h)
    # Every Sunday 21:00 Berlin, made on Saturday 27 March 2027 (DST starts on the 28th).
    sid = await _schedule(
        h, kind="minor", weekday=6, minute=21 * 60, created=_utc(2027, 3, 27, 12)
    )
    clock = Clock(_utc(2027, 3, 28, 18, 59, 59))  # 20:59:59 CEST: not yet
    ctx = job_context(h, clock)
    mark = _last_id(h)
    await jobs.fire_schedule(sid, context=ctx)
    assert await occurrences(h, sid) == [] and await fate_points(h, mira) == 1

    clock.at = _utc(2027, 3, 28, 19, 0, 1)  # 21:00:01 CEST = 19:00 UTC (20:00 UTC in winter)
    await asyncio.gather(
        jobs.fire_schedule(sid, context=ctx), jobs.fire_schedule(sid, context=ctx)
    )
    assert await occurrences(h, sid) == [(_utc(2027, 3, 28, 19), "applied", 0)]
    assert await fate_points(h, mira) == 3
    posts = _posts_after(h, mark)
    assert len(posts) == 1
    assert "Мира" in posts[0] and "1 → 3" in posts[0] and "⏰" in posts[0]
    assert "опозданием" not in posts[0]

    # Run again (a second process, a misfire): nothing more.
    await jobs.fire_schedule(sid, context=ctx)
    assert len(await occurrences(h, sid)) == 1 and len(_posts_after(h, mark)) == 1


async def test_restart_catch_up_applies_once_late_and_reports_skipped(running: Harness) -> None:
    h = running
    mira = await _table(h)
    # Daily 09:00 Berlin (07:00 UTC before 31 October 2027), grace 6 h.
    sid = await _schedule(
        h, kind="minor", weekday=None, minute=9 * 60, created=_utc(2027, 10, 27, 12)
    )
    clock = Clock(_utc(2027, 10, 28, 10, 30))  # down from before 09:00 until 12:30 local
    ctx = job_context(h, clock)
    mark = _last_id(h)
    await jobs.catch_up(context=ctx)
    await jobs.catch_up(context=ctx)  # a second start, same moment
    assert await occurrences(h, sid) == [(_utc(2027, 10, 28, 7), "applied", 0)]
    assert await fate_points(h, mira) == 3
    posts = _posts_after(h, mark)
    assert len(posts) == 1
    assert "1 → 3" in posts[0] and "С опозданием" in posts[0] and "28.10 09:00" in posts[0]

    # Down again for three days: all three past the grace — skipped, one line, once.
    clock.at = _utc(2027, 10, 31, 20)
    mark = _last_id(h)
    await asyncio.gather(jobs.catch_up(context=ctx), jobs.catch_up(context=ctx))
    await jobs.catch_up(context=ctx)
    rows = await occurrences(h, sid)
    assert rows[-1] == (_utc(2027, 10, 31, 8), "skipped", 3)  # 09:00 CET after the change
    assert len(rows) == 2
    posts = _posts_after(h, mark)
    assert len(posts) == 1 and "3" in posts[0] and "31.10 09:00" in posts[0]
    assert len(posts[0].splitlines()) == 1


async def test_reminder_once_and_empty_plan_recorded(running: Harness) -> None:
    h = running
    await _table(h)
    sid = await _schedule(
        h, kind="rest_stop", weekday=None, minute=21 * 60, created=_utc(2027, 1, 11), remind=60
    )
    clock = Clock(_utc(2027, 1, 11, 19))  # 20:00 CET: an hour before
    ctx = job_context(h, clock)
    mark = _last_id(h)
    await asyncio.gather(
        jobs.remind_schedule(sid, context=ctx), jobs.remind_schedule(sid, context=ctx)
    )
    posts = _posts_after(h, mark)
    assert len(posts) == 1 and "Через час" in posts[0] and "21:00" in posts[0]

    # A rest stop changes nothing for a character without stress: recorded, one short line.
    clock.at = _utc(2027, 1, 11, 20, 0, 2)
    await jobs.fire_schedule(sid, context=ctx)
    assert await occurrences(h, sid) == [(_utc(2027, 1, 11, 20), "empty", 0)]
    posts = _posts_after(h, mark)
    assert len(posts) == 2 and "менять нечего" in posts[1]


async def test_a_new_leader_catches_up_through_its_scheduler(running: Harness) -> None:
    h = running
    mira = await _table(h)
    sid = await _schedule(
        h, kind="minor", weekday=None, minute=9 * 60, created=_utc(2027, 10, 27, 12)
    )
    clock = Clock(_utc(2027, 10, 28, 10, 30))
    assert h.runtime is not None
    leader = SchedulerLeader(
        h.engine, h.runtime.bot, I18n("ru"), views=job_notices, now=clock,
        key=random.randrange(3_000_000, 4_000_000), retry_interval=0.2,
    )  # fmt: skip
    mark = _last_id(h)
    leader.start()
    try:
        notice = await h.emu.wait_bot_message(GROUP, contains="С опозданием", after=mark)
    finally:
        await leader.stop()
    assert "1 → 3" in notice.text and await fate_points(h, mira) == 3
    assert len(await occurrences(h, sid)) == 1
