"""/schedule over the emulator: the GM adds schedules with buttons (a preset time and a typed
one) and deletes one; a player is refused, by command and by button."""

from __future__ import annotations

from typing import Any

from sqlalchemy import text

from tests.conftest import Harness
from tests.games.helpers import ALICE, GM, GROUP, buttons, create_game, seat_table
from tests.helpers import table as tb
from tgemu import ChatMessage


async def _rows(h: Harness) -> list[tuple[Any, ...]]:
    async with h.engine.connect() as conn:
        rows = await conn.execute(
            text("SELECT kind, weekday, minute_of_day, remind_minutes FROM schedules ORDER BY id")
        )
        return [tuple(r) for r in rows]


async def _press(h: Harness, user: int, message: ChatMessage, data: str) -> Any:
    index = next(i for i, b in enumerate(buttons(message)) if b["callback_data"] == data)
    pressed = h.emu.press_button(user, GROUP, message.message_id, index)
    answer = await h.emu.wait_callback_answer(pressed.callback_query_id)
    return answer


async def _command(h: Harness, user: int, command: str) -> ChatMessage:
    last = h.emu.last_bot_message(GROUP)
    h.emu.send_text(user, GROUP, command)
    return await h.emu.wait_bot_message(GROUP, after=last.message_id if last else 0)


async def test_gm_adds_and_deletes_schedules_players_refused(running: Harness) -> None:
    h = running
    seat_table(h)
    await create_game(h, "fate", "Кнопки")

    refused = await _command(h, ALICE, "/schedule")
    assert refused.text == "Это может только мастер."  # the group's, not Alice's English

    panel = await _command(h, GM, "/schedule")
    assert "Расписаний пока нет" in panel.text
    for data in ("sca", "sck:minor", "scd:minor:6", "sct:minor:6:1260"):
        answer = await _press(h, GM, tb.current(h, panel), data)
        assert not answer.show_alert
    assert "напомнить" in tb.current(h, panel).text.lower()
    await _press(h, GM, tb.current(h, panel), "scs:minor:6:1260:60")
    listed = tb.current(h, panel)
    assert "каждое воскресенье в 21:00" in listed.text and "напоминание за 1 ч" in listed.text
    assert await _rows(h) == [("minor", 6, 1260, 60)]

    # Every day, a typed time, no reminder.
    for data in ("sca", "sck:major", "scd:major:-1"):
        await _press(h, GM, tb.current(h, panel), data)
    remind = await _command(h, GM, "20:30")
    assert "каждый день в 20:30" in remind.text
    await _press(h, GM, remind, "scs:major:-1:1230:0")
    assert await _rows(h) == [("minor", 6, 1260, 60), ("major", None, 1230, None)]
    listed = tb.current(h, remind)
    assert "каждый день в 20:30" in listed.text

    # A player presses a delete button: refused, nothing deleted.
    delete_first = buttons(listed)[0]["callback_data"]
    assert delete_first.startswith("scx:")
    answer = await _press(h, ALICE, listed, delete_first)
    assert answer.show_alert and len(await _rows(h)) == 2
    # The GM deletes it; a forged id (no schedule of this game) is refused.
    answer = await _press(h, GM, listed, delete_first)
    assert not answer.show_alert
    assert await _rows(h) == [("major", None, 1230, None)]
    assert "каждое воскресенье" not in tb.current(h, remind).text
    forged = h.emu.press(GM, GROUP, remind.message_id, "scx:999999")
    assert (await h.emu.wait_callback_answer(forged.callback_query_id)).show_alert
    await _press(h, GM, tb.current(h, remind), "scq")
    assert "закрыты" in tb.current(h, remind).text


async def test_gm_sets_the_grace_and_new_schedules_inherit_it(running: Harness) -> None:
    h = running
    seat_table(h)
    await create_game(h, "fate", "Опоздания")
    panel = await _command(h, GM, "/schedule")
    for data in ("sca", "sck:minor", "scd:minor:6", "sct:minor:6:1260"):
        await _press(h, GM, tb.current(h, panel), data)
    await _press(h, GM, tb.current(h, panel), "scs:minor:6:1260:0")

    assert "grace" in (await _command(h, GM, "/schedule grace lots")).text
    refused = await _command(h, ALICE, "/schedule grace 1")
    assert refused.text == "Это может только мастер."
    done = await _command(h, GM, "/schedule grace 12")
    assert "12" in done.text
    panel = await _command(h, GM, "/schedule")
    for data in ("sca", "sck:major", "scd:major:-1", "sct:major:-1:540"):
        await _press(h, GM, tb.current(h, panel), data)
    await _press(h, GM, tb.current(h, panel), "scs:major:-1:540:0")
    async with h.engine.connect() as conn:
        graces = (await conn.execute(text("SELECT grace_hours FROM schedules"))).scalars().all()
    assert graces == [12, 12]
