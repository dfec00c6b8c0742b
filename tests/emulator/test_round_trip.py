"""A real aiogram Dispatcher polling the emulator: /start, keyboard, press, answer, edit."""

from __future__ import annotations

from tests.emulator.conftest import ALICE, BOB, GROUP
from tgemu import BotAPIEmulator


async def test_start_and_press_in_private_chat(polling: BotAPIEmulator) -> None:
    emu = polling
    sent = emu.send_text(BOB, BOB, "/start")
    reply = await emu.wait_bot_message(BOB, after=sent.message_id)
    assert reply.text == "Hello, private!"
    assert reply.entities == [{"offset": 0, "length": 5, "type": "bold"}]
    assert emu.button_labels(BOB, reply.message_id) == ["Roll", "Docs"]

    pressed = emu.press_button(BOB, BOB, reply.message_id, 0)
    answer = await emu.wait_callback_answer(pressed.callback_query_id)
    assert (answer.text, answer.show_alert) == ("Rolled 4", False)
    await emu.wait_for(lambda: emu.bot_messages(BOB)[0].edits == 1)
    edited = emu.bot_messages(BOB)[0]
    assert edited.text == "You rolled 4" and edited.reply_markup is None
    await emu.wait_idle()
    assert emu.pending_updates() == 0


async def test_language_and_group(polling: BotAPIEmulator) -> None:
    emu = polling
    emu.send_text(ALICE, GROUP, "/start@tabletop_test_bot")
    reply = await emu.wait_bot_message(GROUP)
    assert reply.text == "Привет, group!"
    try:
        emu.press_button(ALICE, GROUP, reply.message_id, 1)
    except ValueError as exc:
        assert "url" in str(exc)
    else:
        raise AssertionError("url buttons cannot be pressed")


async def test_redelivered_update_handled_again_without_dedupe(polling: BotAPIEmulator) -> None:
    # the tiny dispatcher has no dedupe, so a redelivery produces a second reply:
    # this proves redelivery reaches a polling bot (the real bot must skip it)
    emu = polling
    sent = emu.send_text(BOB, BOB, "/start")
    await emu.wait_bot_message(BOB)
    await emu.wait_idle()
    emu.redeliver(sent.update_id)
    await emu.wait_for(lambda: len(emu.bot_messages(BOB)) == 2)
