"""The real bot, polling the emulator over HTTP, on real Postgres."""

from __future__ import annotations

import asyncio
import time

from aiogram import Router
from aiogram.filters import Command
from aiogram.types import Message
from sqlalchemy import text

from tests.conftest import Harness

ALICE, BOB, GM = 1001, 1002, 1000
GROUP = -100500


def _buttons(markup: dict | None) -> list[str]:  # type: ignore[type-arg]
    rows = (markup or {}).get("inline_keyboard", [])
    return [button["text"] for row in rows for button in row]


async def test_start_speaks_the_users_language_and_its_button_edits(running: Harness) -> None:
    emu = running.emu
    emu.add_user(ALICE, "Алиса", language_code="ru")
    emu.add_user(BOB, "Bob", language_code="en")
    emu.send_text(ALICE, ALICE, "/start")
    emu.send_text(BOB, BOB, "/start")
    ru = await emu.wait_bot_message(ALICE)
    en = await emu.wait_bot_message(BOB)
    assert "Привет, Алиса!" in ru.text
    assert "Hello, Bob!" in en.text
    assert "Справка" in " ".join(_buttons(ru.reply_markup))
    assert "Help" in " ".join(_buttons(en.reply_markup))

    pressed = emu.press_button(ALICE, ALICE, ru.message_id, 0)
    answer = await emu.wait_callback_answer(pressed.callback_query_id)
    assert answer is not None
    edited = await emu.wait_for(lambda: (m := emu.last_bot_message(ALICE)) and m.edits == 1 and m)
    assert "Команды" in edited.text
    assert "Назад" in " ".join(_buttons(edited.reply_markup))


async def test_restart_in_the_middle_of_a_two_step_flow_resumes(running: Harness) -> None:
    emu = running.emu
    emu.add_user(ALICE, "Alice", language_code="en")
    emu.send_text(ALICE, ALICE, "/profile")
    await emu.wait_bot_message(ALICE, contains="Step 1 of 2")
    emu.send_text(ALICE, ALICE, "Alice the Bold")
    step2 = await emu.wait_bot_message(ALICE, contains="Step 2 of 2")

    await running.restart()

    emu.send_text(ALICE, ALICE, "Europe/Moscow")
    saved = await emu.wait_bot_message(ALICE, after=step2.message_id)
    assert "Saved: Alice the Bold, time zone Europe/Moscow." == saved.text
    async with running.engine.connect() as conn:
        row = (
            await conn.execute(
                text("SELECT display_name, timezone FROM users WHERE id = :id"), {"id": ALICE}
            )
        ).one()
    assert tuple(row) == ("Alice the Bold", "Europe/Moscow")


async def test_the_same_update_twice_has_one_effect(running: Harness) -> None:
    emu = running.emu
    emu.add_user(BOB, "Bob", language_code="en")
    sent = emu.send_text(BOB, BOB, "/lang ru")
    await emu.wait_bot_message(BOB, contains="Язык")
    emu.redeliver(sent.update_id)
    emu.redeliver(sent.update_id)
    await emu.wait_idle()
    assert len(emu.bot_messages(BOB)) == 1
    async with running.engine.connect() as conn:
        locale = (
            await conn.execute(text("SELECT locale FROM users WHERE id = :id"), {"id": BOB})
        ).scalar_one()
        claims = (
            await conn.execute(
                text("SELECT count(*) FROM processed_updates WHERE update_id = :u"),
                {"u": sent.update_id},
            )
        ).scalar_one()
    assert (locale, claims) == ("ru", 1)


async def test_429_is_waited_out_and_other_chats_keep_being_served(running: Harness) -> None:
    emu = running.emu
    emu.add_user(ALICE, "Alice", language_code="en")
    emu.add_user(BOB, "Bob", language_code="en")
    emu.add_fault("sendMessage", status=429, retry_after=2, times=2, chat_id=ALICE)
    started = time.monotonic()
    emu.send_text(ALICE, ALICE, "/help")
    emu.send_text(BOB, BOB, "/help")
    bob_reply = await emu.wait_bot_message(BOB)
    alice_reply = await emu.wait_bot_message(ALICE, timeout=15)
    assert bob_reply.sent_at < alice_reply.sent_at
    assert alice_reply.sent_at - started >= 2.0
    assert len(emu.bot_messages(ALICE)) == 1
    refused = [
        c for c in emu.calls if c.method == "sendMessage" and c.chat_id == ALICE and not c.ok
    ]
    assert [c.error_code for c in refused] == [429, 429]


async def test_group_language_is_for_admins_only(running: Harness) -> None:
    emu = running.emu
    emu.add_user(GM, "GM", language_code="ru")
    emu.add_user(BOB, "Bob", language_code="en")
    emu.add_group(GROUP, "Table", members=[GM, BOB], creator=GM)
    emu.send_text(BOB, GROUP, "/lang en")
    refused = await emu.wait_bot_message(GROUP)
    assert refused.text == "Only the chat's admins and the GM can change its language."
    emu.send_text(GM, GROUP, "/lang en")
    done = await emu.wait_bot_message(GROUP, after=refused.message_id)
    assert done.text == "Language set: English."
    async with running.engine.connect() as conn:
        locale = (
            await conn.execute(text("SELECT locale FROM chats WHERE id = :id"), {"id": GROUP})
        ).scalar_one()
    assert locale == "en"


async def test_a_failing_handler_apologises_without_a_traceback(harness: Harness) -> None:
    runtime = harness.build()
    boom = Router(name="boom")

    @boom.message(Command("boom"))
    async def explode(message: Message) -> None:
        raise RuntimeError("kaboom")

    runtime.dispatcher.include_router(boom)
    # first: the last router answers every command nobody handled (typos, handlers.fallback)
    routers = runtime.dispatcher.sub_routers
    routers.insert(0, routers.pop())
    await harness.start(runtime)
    emu = harness.emu
    emu.add_user(ALICE, "Alice", language_code="en")
    emu.send_text(ALICE, ALICE, "/boom")
    reply = await emu.wait_bot_message(ALICE)
    assert reply.text.startswith("Sorry, something went wrong.")
    assert "kaboom" not in reply.text and "Traceback" not in reply.text


async def test_unknown_or_forged_buttons_are_answered(running: Harness) -> None:
    emu = running.emu
    emu.add_user(ALICE, "Alice", language_code="en")
    emu.send_text(ALICE, ALICE, "/start")
    message = await emu.wait_bot_message(ALICE)
    for data in ("garbage", "scr:nowhere", "lang:xx"):
        pressed = emu.press(ALICE, ALICE, message.message_id, data)
        answer = await emu.wait_callback_answer(pressed.callback_query_id)
        assert answer.text
    await asyncio.sleep(0)
    assert emu.last_bot_message(ALICE).edits == 0  # type: ignore[union-attr]


async def test_a_failing_button_gets_the_apology_as_its_answer(harness: Harness) -> None:
    from aiogram import F
    from aiogram.types import CallbackQuery

    from handlers.callbacks import AnswerOnSuccess

    runtime = harness.build()
    boom = Router(name="boom-button")
    boom.callback_query.middleware(AnswerOnSuccess())

    @boom.callback_query(F.data == "boom")
    async def explode(query: CallbackQuery) -> None:
        raise RuntimeError("kaboom")

    runtime.dispatcher.sub_routers.insert(0, boom)
    boom._parent_router = runtime.dispatcher  # first in line, before the fallback
    await harness.start(runtime)
    emu = harness.emu
    emu.add_user(ALICE, "Alice", language_code="en")
    emu.send_text(ALICE, ALICE, "/start")
    message = await emu.wait_bot_message(ALICE)
    pressed = emu.press(ALICE, ALICE, message.message_id, "boom")
    answer = await emu.wait_callback_answer(pressed.callback_query_id)
    assert answer.show_alert and answer.text.startswith("Sorry, something went wrong")
