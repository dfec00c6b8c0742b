"""Issue 36 item 6 from a scheduled milestone: the job's change redraws the player's open /res
panel, without a press."""

from __future__ import annotations

from datetime import UTC, datetime

from bot import jobs
from bot.services import schedules as service
from db.database import create_session_factory
from db.uow import UnitOfWork
from tests.conftest import Harness
from tests.games.helpers import ALICE, GM, GROUP, create_game, seat_table
from tests.helpers import table as tb
from tests.schedules.helpers import Clock, fate_points, insert_fate_character, job_context


async def test_a_scheduled_milestone_redraws_the_open_panel(running: Harness) -> None:
    h = running
    seat_table(h)
    await create_game(h, "fate", "Расписание")
    mira = await insert_fate_character(h, fate_points=1, refresh=3)
    created = datetime(2027, 3, 27, 12, tzinfo=UTC)
    async with UnitOfWork(create_session_factory(h.engine)) as uow:
        game = await uow.games.live_for_chat(GROUP)
        assert game is not None
        schedule = await service.create(
            uow, game, kind="minor", weekday=6, minute_of_day=21 * 60, remind_minutes=None,
            created_by=GM, now=lambda: created,
        )  # fmt: skip
    panel = await tb.send_for_buttons(h, ALICE, "/res", "run:")
    shown, edits = panel.text, panel.edits
    assert "1 (" in shown, shown

    ctx = job_context(h, Clock(datetime(2027, 3, 28, 21, 0, 1, tzinfo=UTC)))
    await jobs.fire_schedule(schedule.id, context=ctx)
    assert await fate_points(h, mira) == 3
    await h.emu.wait_idle()
    redrawn = tb.current(h, panel)
    assert redrawn.edits > edits and "3 (" in redrawn.text, redrawn.text
