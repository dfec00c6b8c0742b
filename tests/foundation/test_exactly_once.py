"""Exactly once across restarts, over the emulator with the real dispatcher and Postgres: a
wizard button the dialog no longer knows is refused once and done with (issue 36)."""

from __future__ import annotations

from sqlalchemy import text

from bot.i18n import I18n
from tests.conftest import Harness
from tests.wizards.storyteller.driver import Player

STALE = {I18n(lc).translator(lc)("This menu is out of date: open it again if you need it.")
         for lc in ("ru", "en")}  # fmt: skip


async def _scalar(h: Harness, sql: str, **params: object) -> object:
    async with h.engine.connect() as conn:
        return (await conn.execute(text(sql), params)).scalar_one()


async def test_a_stale_wizard_press_is_answered_once_and_leaves_the_inbox(
    running: Harness,
) -> None:
    p = Player(running)
    await p.start()
    await p.say("Lily")
    old = await p.say("runaway poet")  # a page with buttons
    # The bot restarts and the dialog no longer knows the wizard (its stack is gone).
    await running.stop()
    async with running.engine.begin() as conn:
        await conn.execute(text("DELETE FROM fsm_states"))
    await running.start()
    emu = running.emu
    pressed = emu.press_button(p.user_id, p.user_id, old.message_id, p.index_of("nx"))
    answer = await emu.wait_callback_answer(pressed.callback_query_id)
    await emu.wait_idle()
    # Done with in the update's own transaction: claimed, out of the inbox (which the bot
    # would otherwise hand back every couple of seconds, for ever).
    claimed = await _scalar(
        running, "SELECT count(*) FROM processed_updates WHERE update_id = :u",
        u=pressed.update_id,
    )  # fmt: skip
    assert claimed == 1
    assert await _scalar(running, "SELECT count(*) FROM update_inbox") == 0
    tries = [
        c for c in emu.calls_to("answerCallbackQuery")
        if c.params.get("callback_query_id") == pressed.callback_query_id
    ]  # fmt: skip
    assert len(tries) == 1
    assert answer.show_alert and answer.text in STALE
