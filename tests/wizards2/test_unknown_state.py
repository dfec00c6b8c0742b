"""A wizard stored in a state this release no longer has (a step renamed or gone, here the
/roles editor's steps of the release before its flow): aiogram-dialog refuses every update of
that chat with it, commands included. The stale wizard is closed once, the sender is told to
send the command again, and the chat works: nothing goes silent for good."""

from __future__ import annotations

from sqlalchemy import text

from tests.conftest import Harness
from tests.games.helpers import GM, buttons, create_game, seat_table
from tests.wizards.lifegear.helpers import press, say


async def _to_an_older_release(h: Harness) -> int:
    """The editor's step as the release before stored it (``RolesSG:stats``)."""
    renamed = """UPDATE fsm_states SET data = CAST(replace(data::text, '"RoleSG:',
                 '"RolesSG:') AS jsonb) WHERE data::text LIKE '%"RoleSG:%'"""
    async with h.engine.begin() as conn:
        return (await conn.execute(text(renamed))).rowcount


async def test_a_wizard_in_an_unknown_state_is_closed_and_the_chat_works(
    running: Harness,
) -> None:
    seat_table(running)
    await create_game(running, "lifegear", "Пустоши")
    await say(running, GM, "/roles")
    await press(running, GM, "new")
    await say(running, GM, "Маг")
    stats = await press(running, GM, "q", "3")
    assert "Параметры" in stats.text
    old_button = str(buttons(stats)[0]["callback_data"])
    await running.stop()
    assert await _to_an_older_release(running) == 1
    await running.start()

    typed = running.emu.send_text(GM, GM, "Магия: 2d6")  # to the step that no longer exists
    told = await running.emu.wait_bot_message(GM, after=typed.message_id)
    assert told.text == "Это меню устарело и закрыто. Отправьте команду ещё раз."
    menu = await say(running, GM, "/roles")  # the command works again
    assert "Роли «Пустоши»" in menu.text or "Ролей пока нет" in menu.text
    pressed = running.emu.press(GM, GM, stats.message_id, old_button)  # the old step's button
    answer = await running.emu.wait_callback_answer(pressed.callback_query_id)
    assert answer.show_alert and "устарело" in (answer.text or "")
