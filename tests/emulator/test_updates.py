"""getUpdates semantics: offsets, long polling, allowed_updates, redelivery, migration."""

from __future__ import annotations

import asyncio

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramConflictError

from tests.emulator.conftest import ALICE, BOB, GM, GROUP
from tgemu import BotAPIEmulator


async def test_user_message_update(bot: Bot, emu: BotAPIEmulator) -> None:
    sent = emu.send_text(ALICE, GROUP, "/roll@tabletop_test_bot 2d6")
    [update] = await bot.get_updates()
    assert update.update_id == sent.update_id
    msg = update.message
    assert msg is not None and msg.message_id == sent.message_id
    assert msg.from_user is not None and msg.from_user.language_code == "ru"
    assert msg.chat.id == GROUP and msg.text == "/roll@tabletop_test_bot 2d6"
    assert [(e.type, e.offset, e.length) for e in msg.entities or []] == [("bot_command", 0, 23)]


async def test_private_message_marks_user_started(bot: Bot, emu: BotAPIEmulator) -> None:
    assert not emu.user(BOB).started
    emu.send_text(BOB, BOB, "hello")
    assert emu.user(BOB).started
    [update] = await bot.get_updates()
    assert update.message is not None and update.message.chat.type == "private"
    assert update.message.entities is None


async def test_offset_confirms(bot: Bot, emu: BotAPIEmulator) -> None:
    first = emu.send_text(ALICE, GROUP, "one").update_id
    second = emu.send_text(ALICE, GROUP, "two").update_id
    assert second == first + 1 and emu.pending_updates() == 2
    assert [u.update_id for u in await bot.get_updates()] == [first, second]
    # without an offset nothing is confirmed: the same updates come again
    assert [u.update_id for u in await bot.get_updates(limit=1)] == [first]
    assert [u.update_id for u in await bot.get_updates(offset=second)] == [second]
    assert emu.pending_updates() == 1
    assert await bot.get_updates(offset=second + 1) == []
    assert emu.pending_updates() == 0


async def test_negative_offset_keeps_the_tail(bot: Bot, emu: BotAPIEmulator) -> None:
    ids = [emu.send_text(ALICE, GROUP, str(i)).update_id for i in range(3)]
    assert [u.update_id for u in await bot.get_updates(offset=-1)] == ids[-1:]
    assert emu.pending_updates() == 1


async def test_long_poll_returns_when_update_arrives(bot: Bot, emu: BotAPIEmulator) -> None:
    loop = asyncio.get_running_loop()
    started = loop.time()
    poll = asyncio.create_task(bot.get_updates(timeout=20))
    await emu.wait_for(lambda: emu.pending_updates() == 0 and not poll.done(), timeout=1)
    await asyncio.sleep(0.1)
    assert not poll.done()
    emu.send_text(ALICE, GROUP, "wake up")
    updates = await asyncio.wait_for(poll, 5)
    assert [u.message.text for u in updates if u.message] == ["wake up"]
    assert loop.time() - started < 10


async def test_long_poll_times_out_empty(bot: Bot) -> None:
    assert await bot.get_updates(timeout=1) == []


async def test_newer_poll_supersedes_older(bot: Bot, emu: BotAPIEmulator) -> None:
    older = asyncio.create_task(bot.get_updates(timeout=20))
    queue = emu._state.queue
    before = queue._poll_generation
    for _ in range(500):  # until the older poll is waiting on the server (not a fixed sleep)
        if queue._poll_generation > before:
            break
        await asyncio.sleep(0.01)
    newer = asyncio.create_task(bot.get_updates(timeout=1))
    with pytest.raises(TelegramConflictError):
        await asyncio.wait_for(older, 5)
    assert await newer == []


async def test_allowed_updates(bot: Bot, emu: BotAPIEmulator) -> None:
    sent = await bot.send_message(GROUP, "k")
    emu.send_text(ALICE, GROUP, "text")
    emu.press(ALICE, GROUP, sent.message_id, "data")
    updates = await bot.get_updates(allowed_updates=["callback_query"])
    assert [u.callback_query is not None for u in updates] == [True]
    # the setting sticks until changed; skipped updates are gone
    emu.send_text(ALICE, GROUP, "again")
    assert len(await bot.get_updates(offset=updates[0].update_id + 1)) == 0
    emu.send_text(ALICE, GROUP, "now")
    assert len(await bot.get_updates(allowed_updates=[])) == 1


async def test_redeliver_same_id(bot: Bot, emu: BotAPIEmulator) -> None:
    sent = emu.send_text(ALICE, GROUP, "once")
    [update] = await bot.get_updates()
    assert await bot.get_updates(offset=update.update_id + 1) == []
    emu.redeliver(sent.update_id)
    assert emu.pending_updates() == 1
    [again] = await bot.get_updates(offset=update.update_id + 1)
    assert again.update_id == sent.update_id and again.message is not None
    assert again.message.text == "once"
    assert await bot.get_updates(offset=again.update_id + 1) == []
    assert emu.pending_updates() == 0


async def test_inject_raw_update(bot: Bot, emu: BotAPIEmulator) -> None:
    raw = {
        "message": {
            "message_id": 77,
            "date": 0,
            "chat": {"id": GROUP, "type": "group", "title": "Test table"},
            "from": {"id": GM, "is_bot": False, "first_name": "GM"},
            "text": "raw",
        }
    }
    update_id = emu.inject_update(raw)
    assert emu.inject_update({"update_id": 5000, **raw}) == 5000
    assert emu.send_text(ALICE, GROUP, "next").update_id == 5001
    updates = await bot.get_updates()
    assert [u.update_id for u in updates] == [update_id, 5000, 5001]


async def test_migration_updates(bot: Bot, emu: BotAPIEmulator) -> None:
    new_id = emu.migrate_to_supergroup(GROUP)
    assert str(new_id).startswith("-100") and new_id != GROUP
    old, new = await bot.get_updates()
    assert old.message is not None and old.message.migrate_to_chat_id == new_id
    assert old.message.chat.id == GROUP
    assert new.message is not None and new.message.migrate_from_chat_id == GROUP
    assert new.message.chat.id == new_id and new.message.chat.type == "supergroup"
    assert emu.chat(new_id).members == emu.chat(GROUP).members
    emu.send_text(ALICE, new_id, "in the supergroup")


async def test_webhook_blocks_get_updates(bot: Bot) -> None:
    await bot.set_webhook("https://example.org/hook")
    with pytest.raises(TelegramConflictError, match="webhook is active"):
        await bot.get_updates()
    await bot.delete_webhook()
    assert await bot.get_updates() == []


async def test_wait_helpers(bot: Bot, emu: BotAPIEmulator) -> None:
    async def later() -> None:
        await asyncio.sleep(0.05)
        await bot.send_message(GROUP, "first")
        await bot.send_message(GROUP, "second")

    task = asyncio.create_task(later())
    msg = await emu.wait_bot_message(GROUP, contains="second")
    assert msg.text == "second"
    first = await emu.wait_bot_message(GROUP)
    assert first.text == "first"
    assert (await emu.wait_bot_message(GROUP, after=first.message_id)).text == "second"
    await task
    await emu.wait_idle()
    with pytest.raises(TimeoutError, match=r"sendMessage chat=-100500 -> ok"):
        await emu.wait_bot_message(GROUP, contains="never", timeout=0.2)
