"""A scheduled milestone that comes due during an open fight waits for its end (issue 24
item 4): claimed as deferred (once, however many runs), a notice says it waits, nothing on the
sheets changes mid-fight; once the GM ends the fight the scheduler applies it exactly once and
says it waited. A GM's manual milestone during a fight warns before its «Confirm»."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from bot import jobs
from bot.services import schedules as service
from db.database import create_session_factory
from db.uow import UnitOfWork
from tests.conftest import Harness
from tests.games.helpers import GM, GROUP, buttons, create_game, seat_table
from tests.helpers import table as tb
from tests.schedules.helpers import (
    Clock,
    fate_points,
    insert_fate_character,
    job_context,
    occurrences,
    set_timezone,
)
from tgemu import ChatMessage

CREATED = datetime(2027, 10, 27, 12, tzinfo=UTC)
DUE = datetime(2027, 10, 28, 7, tzinfo=UTC)  # 09:00 Berlin


async def _schedule(h: Harness) -> int:
    async with UnitOfWork(create_session_factory(h.engine)) as uow:
        game = await uow.games.live_for_chat(GROUP)
        assert game is not None
        schedule = await service.create(
            uow, game, kind="minor", weekday=None, minute_of_day=9 * 60, remind_minutes=None,
            created_by=GM, now=lambda: CREATED,
        )  # fmt: skip
        return schedule.id


def _after(h: Harness, message_id: int) -> list[str]:
    return [m.text for m in h.emu.bot_messages(GROUP) if m.message_id > message_id]


def _last_id(h: Harness) -> int:
    last = h.emu.last_bot_message(GROUP)
    return last.message_id if last else 0


async def _press(h: Harness, message: ChatMessage, prefix: str) -> None:
    index = next(
        i for i, b in enumerate(buttons(message)) if b.get("callback_data", "").startswith(prefix)
    )
    pressed = h.emu.press_button(GM, GROUP, message.message_id, index)
    await h.emu.wait_callback_answer(pressed.callback_query_id)
    await h.emu.wait_idle()


async def _open_conflict(h: Harness) -> ChatMessage:
    mark = _last_id(h)
    h.emu.send_text(GM, GROUP, "/conflict Склад: Темно")
    posted = await h.emu.wait_bot_message(GROUP, after=mark)
    # The tracker is committed with its message's id just after the message is sent: a job
    # fired in between would find no open fight (a race of the test, not of the bot).
    for _ in range(200):
        # (counted: the tracker's row itself may not be committed yet either)
        sql = "SELECT count(*) FROM trackers WHERE message_id = :m AND status = 'open'"
        if await tb.scalar(h, sql, m=posted.message_id):
            return posted
        await asyncio.sleep(0.02)
    raise AssertionError("the conflict was never committed")


async def test_a_scheduled_milestone_waits_for_the_fight(running: Harness) -> None:
    h = running
    seat_table(h)
    await create_game(h, "fate", "Расписание")
    await set_timezone(h, "Europe/Berlin")
    mira = await insert_fate_character(h, fate_points=1, refresh=3)
    sid = await _schedule(h)
    tracker = await _open_conflict(h)
    ctx = job_context(h, Clock(DUE.replace(second=30)))

    mark = _last_id(h)
    await asyncio.gather(jobs.fire_schedule(sid, context=ctx), jobs.catch_up(context=ctx))
    assert await occurrences(h, sid) == [(DUE, "deferred", 0)]
    assert await fate_points(h, mira) == 1  # nothing changed mid-fight
    posts = _after(h, mark)
    assert len(posts) == 1 and "подождёт" in posts[0] and "бой" in posts[0]

    await jobs.resume_deferred(context=ctx)  # the fight is still open: it keeps waiting
    assert await occurrences(h, sid) == [(DUE, "deferred", 0)]
    assert await fate_points(h, mira) == 1

    await _press(h, tracker, "fze:")  # the GM ends the conflict (during its set-up)
    await _press(h, tb.current(h, tracker), "fzy:")  # «Да, завершить»
    mark = _last_id(h)
    await asyncio.gather(jobs.resume_deferred(context=ctx), jobs.resume_deferred(context=ctx))
    await jobs.resume_deferred(context=ctx)
    assert await occurrences(h, sid) == [(DUE, "applied", 0)]
    assert await fate_points(h, mira) == 3
    posts = _after(h, mark)
    assert len(posts) == 1
    assert "отложенная веха" in posts[0] and "1 → 3" in posts[0]


async def test_without_a_fight_it_applies_at_once(running: Harness) -> None:
    h = running
    seat_table(h)
    await create_game(h, "fate", "Расписание")
    await set_timezone(h, "Europe/Berlin")
    mira = await insert_fate_character(h, fate_points=1, refresh=3)
    sid = await _schedule(h)
    ctx = job_context(h, Clock(DUE.replace(second=30)))
    mark = _last_id(h)
    await jobs.fire_schedule(sid, context=ctx)
    assert await occurrences(h, sid) == [(DUE, "applied", 0)]
    assert await fate_points(h, mira) == 3
    assert not any("подождёт" in p for p in _after(h, mark))


async def _preview(h: Harness, kind: str) -> ChatMessage:
    """The GM's /milestone, ``kind`` picked: the preview (the picker's message, edited)."""
    mark = _last_id(h)
    h.emu.send_text(GM, GROUP, "/milestone")
    picker = await h.emu.wait_bot_message(GROUP, after=mark)
    await _press(h, picker, f"mlk:{kind}")
    return next(m for m in h.emu.bot_messages(GROUP) if m.message_id == picker.message_id)


async def test_a_manual_milestone_during_a_fight_warns_first(running: Harness) -> None:
    h = running
    seat_table(h)
    await create_game(h, "fate", "Вехи")
    mira = await insert_fate_character(h, fate_points=1, refresh=3)
    calm = await _preview(h, "minor")
    assert "Идёт бой" not in calm.text

    await _open_conflict(h)
    preview = await _preview(h, "minor")
    assert preview.text.startswith("⚔️ Идёт бой")
    assert await fate_points(h, mira) == 1  # asked, not applied
    await _press(h, preview, "mlc:")  # the GM confirms: it applies
    assert await fate_points(h, mira) == 3


async def test_a_milestone_that_changes_nothing_does_not_warn_of_the_fight(
    running: Harness,
) -> None:
    """A storyteller scene was open and «Конец сцены» changed nobody: the preview still warned
    of «стресс, последствия» (Fate's words) changing mid-fight. Nothing to change, no warning."""
    h = running
    seat_table(h)
    await create_game(h, "fate", "Вехи")
    await insert_fate_character(h, fate_points=3, refresh=3)  # a rest gives nothing back
    await _open_conflict(h)
    preview = await _preview(h, "rest_stop")
    assert "Идёт бой" not in preview.text and "стресс" not in preview.text
    assert "ничего не меняется" in preview.text
