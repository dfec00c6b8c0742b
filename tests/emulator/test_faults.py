"""Injected faults and optional flood control, seen through aiogram's exceptions."""

from __future__ import annotations

import asyncio

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramNetworkError, TelegramRetryAfter, TelegramServerError

from tests.emulator.conftest import GROUP, close_bot, make_bot
from tgemu import BotAPIEmulator
from tgemu.flood import FloodControl


async def test_retry_after_twice(bot: Bot, emu: BotAPIEmulator) -> None:
    fault = emu.add_fault("sendMessage", retry_after=2, times=2)
    for _ in range(2):
        with pytest.raises(TelegramRetryAfter) as info:
            await bot.send_message(GROUP, "x")
        assert info.value.retry_after == 2
    assert fault.exhausted
    await bot.send_message(GROUP, "x")
    assert [c.error_code for c in emu.calls_to("sendMessage")] == [429, 429, None]
    assert len(emu.bot_messages(GROUP)) == 1


async def test_server_errors(bot: Bot, emu: BotAPIEmulator) -> None:
    emu.add_fault("sendmessage", status=500)
    emu.add_fault("sendMessage", status=502)
    with pytest.raises(TelegramServerError, match="Internal Server Error"):
        await bot.send_message(GROUP, "x")
    with pytest.raises(TelegramServerError, match="Bad Gateway"):
        await bot.send_message(GROUP, "x")
    assert emu.bot_messages(GROUP) == []


async def test_fault_filters_by_chat_and_method(bot: Bot, started: BotAPIEmulator) -> None:
    started.add_fault(status=429, retry_after=3, chat_id=GROUP, times=5)
    await bot.send_message(1001, "other chats keep working")
    await bot.get_updates()  # a catch-all fault never hits getUpdates
    with pytest.raises(TelegramRetryAfter):
        await bot.send_chat_action(GROUP, "typing")
    started.clear_faults()
    await bot.send_message(GROUP, "fine again")


async def test_delay_answers_late(bot: Bot, emu: BotAPIEmulator) -> None:
    emu.add_fault("getMe", status=200, delay=0.3)
    loop = asyncio.get_running_loop()
    started = loop.time()
    await bot.get_me()
    assert loop.time() - started >= 0.3


async def test_delay_beyond_client_timeout(emu: BotAPIEmulator) -> None:
    client = make_bot(emu)
    emu.add_fault("sendMessage", status=200, delay=3)
    try:
        with pytest.raises(TelegramNetworkError):
            await client.send_message(GROUP, "lost", request_timeout=1)
        # the request was cancelled with the connection: nothing was delivered
        await emu.wait_idle(timeout=5)
        assert emu.bot_messages(GROUP) == []
        await client.send_message(GROUP, "retried")
        assert [m.text for m in emu.bot_messages(GROUP)] == ["retried"]
    finally:
        await close_bot(client)


async def test_flood_limits_enforced() -> None:
    emu = BotAPIEmulator(enforce_flood_limits=True)
    emu.add_group(GROUP, "Table")
    emu.add_group(-200, "Other")
    await emu.start()
    client = make_bot(emu)
    try:
        await client.send_message(GROUP, "one")
        with pytest.raises(TelegramRetryAfter) as info:
            await client.send_message(GROUP, "two")
        assert info.value.retry_after == 1
        await client.send_message(-200, "another chat is fine")
    finally:
        await close_bot(client)
        await emu.stop()


def test_flood_windows() -> None:
    flood = FloodControl()
    assert flood.check(1, False, now=0.0) is None
    assert flood.check(1, False, now=0.5) == 1
    assert flood.check(1, False, now=1.0) is None
    # 20 per minute in a group
    group = FloodControl()
    for i in range(20):
        assert group.check(-5, True, now=i * 1.0) is None
    retry = group.check(-5, True, now=20.0)
    assert retry is not None and 35 <= retry <= 41
    # 30 per second overall
    overall = FloodControl()
    for chat in range(30):
        assert overall.check(chat, False, now=0.01 * chat) is None
    assert overall.check(99, False, now=0.5) == 1
