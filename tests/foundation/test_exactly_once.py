"""Exactly once across restarts, over the emulator with the real dispatcher and Postgres: a
wizard button the dialog no longer knows is refused once and done with; a restarted sandbox
numbers its messages on, and a roll id met again with another command is refused, never
answered with the stored roll (issue 36)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import text

from bot.i18n import I18n
from db.repositories.updates import last_update_id
from tests.conftest import Harness
from tests.wizards.storyteller.driver import Player
from tgemu import BotAPIEmulator

ALICE = 3001

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


async def _roll_reply(h: Harness, emu: BotAPIEmulator, command: str) -> tuple[int, str]:
    """A fresh bot on ``emu`` handles ``command`` of Alice's: its message id and the reply."""
    emu.add_user(ALICE, "Alice", language_code="ru")
    run = Harness(emu, h.engine, h.settings)
    await run.start()
    try:
        sent = emu.send_text(ALICE, ALICE, command)
        reply = await emu.wait_for(
            lambda: next((m for m in emu.bot_messages(ALICE) if m.reply_to == sent.message_id),
                         None),
            timeout=15,
        )  # fmt: skip
        await emu.wait_idle()
    finally:
        await run.stop()
    return sent.message_id, reply.text


async def test_a_restarted_sandbox_numbers_messages_on_and_never_answers_an_old_roll(
    harness: Harness, tmp_path: Path
) -> None:
    """What the sandbox does at each start (``sandbox.start``), three times over one database:
    message ids go on from the last run's, so a new /r is a new roll; and an emulator that
    numbers from 1 again (as the sandbox did) gets a clear refusal, never the roll stored
    under the same (chat, message id)."""
    kept = tmp_path / "message-ids.json"
    first = harness.emu
    first.keep_message_numbers(kept)
    old_id, old = await _roll_reply(harness, first, "/r 4dF+2 уклонение от призрака")
    assert "4dF+2" in old

    async def restarted(keep: bool) -> BotAPIEmulator:
        emu = BotAPIEmulator()
        emu.continue_numbering(await last_update_id(harness.engine, emu.bot_id))
        if keep:
            emu.keep_message_numbers(kept)
        await emu.start(host="127.0.0.1", port=0)
        return emu

    second = await restarted(keep=True)
    try:
        new_id, new = await _roll_reply(harness, second, "/r 1д20+3")
    finally:
        await second.stop()
    assert new_id > old_id
    assert "1d20+3" in new and "уклонение" not in new and "уже брошено" not in new, new

    third = await restarted(keep=False)  # numbering from 1: Alice's /r meets the first one's id
    try:
        same_id, refused = await _roll_reply(harness, third, "/r 1д20+3")
    finally:
        await third.stop()
    assert same_id == old_id
    assert "уклонение" not in refused and "уже брошено" not in refused, refused
    assert "Отправьте команду ещё раз" in refused, refused
    assert await _scalar(harness, "SELECT count(*) FROM rolls") == 2
