"""Roll-request deadlines: one nudge before, one word to the GM after — however often the
scheduler's job runs (a restart or a second process runs it again)."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import text

from bot import jobs
from bot.i18n import I18n
from db.database import create_session_factory
from handlers.views import job_notices
from tests.conftest import Harness
from tests.games.helpers import ALICE, GM, GROUP, create_game, seat_table


async def _deadline(h: Harness) -> datetime:
    async with h.engine.connect() as conn:
        value: datetime = (
            (await conn.execute(text("SELECT deadline FROM roll_requests ORDER BY id DESC")))
            .scalars()
            .first()
        )
    return value


def _context(h: Harness, now: datetime) -> jobs.JobContext:
    assert h.runtime is not None
    return jobs.JobContext(
        session_factory=create_session_factory(h.engine), bot=h.runtime.bot,
        i18n=I18n("ru"), now=lambda: now, views=job_notices,
    )  # fmt: skip


def _notes(h: Harness, mark: str) -> list[Any]:
    return [m for m in h.emu.bot_messages(GROUP) if mark in m.text]


async def test_nudge_once_before_and_tell_the_gm_once_after(running: Harness) -> None:
    seat_table(running)
    emu = running.emu
    await create_game(running, "cliche", "Сроки")
    said = emu.send_text(ALICE, GROUP, "тут")
    emu.send_text(GM, GROUP, "/request 3d6 vs 10 in 2h: прыжок", reply_to=said.message_id)
    card = await emu.wait_bot_message(GROUP, contains="⏳", after=said.message_id)
    deadline = await _deadline(running)
    assert timedelta(minutes=119) < deadline - datetime.now(deadline.tzinfo) <= timedelta(hours=2)

    early = _context(running, deadline - timedelta(hours=3))
    soon = _context(running, deadline - timedelta(minutes=30))
    late = _context(running, deadline + timedelta(minutes=1))
    await jobs.request_deadlines(context=early)
    await asyncio.gather(*(jobs.request_deadlines(context=soon) for _ in range(3)))
    await emu.wait_for(lambda: len(_notes(running, "⏳")) == 2)  # the card and one nudge
    nudge = _notes(running, "⏳")[-1]
    assert nudge.reply_to == card.message_id and "Alice" in nudge.text

    await asyncio.gather(*(jobs.request_deadlines(context=late) for _ in range(3)))
    await emu.wait_for(lambda: len(_notes(running, "⌛")) == 1)
    await jobs.request_deadlines(context=late)
    await emu.wait_idle()
    assert len(_notes(running, "⏳")) == 2 and len(_notes(running, "⌛")) == 1


async def test_a_rolled_request_is_left_alone(running: Harness) -> None:
    seat_table(running)
    emu = running.emu
    await create_game(running, "cliche", "Сроки")
    said = emu.send_text(ALICE, GROUP, "тут")
    emu.send_text(GM, GROUP, "/request 3d6 in 30m", reply_to=said.message_id)
    card = await emu.wait_bot_message(GROUP, contains="⏳", after=said.message_id)
    pressed = emu.press_button(ALICE, GROUP, card.message_id, 0)
    await emu.wait_callback_answer(pressed.callback_query_id)
    deadline = await _deadline(running)
    for moment in (deadline - timedelta(minutes=10), deadline + timedelta(hours=1)):
        await jobs.request_deadlines(context=_context(running, moment))
    await emu.wait_idle()
    assert _notes(running, "⌛") == [] and len(_notes(running, "⏳")) <= 1
