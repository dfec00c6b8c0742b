"""The guard that runs after every emulator test really catches oversize callback data."""

from __future__ import annotations

import pytest
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from tests.conftest import assert_no_bot_bugs
from tgemu import BotAPIEmulator


@pytest.mark.bot_api_deviations  # refusals are what it checks
async def test_guard_flags_callback_data_over_64_bytes() -> None:
    emu = BotAPIEmulator()
    await emu.start(host="127.0.0.1", port=0)
    bot = Bot(emu.token, session=AiohttpSession(api=TelegramAPIServer.from_base(emu.base_url)))
    try:
        emu.add_user(7, "Ann")
        emu.send_text(7, 7, "/start")
        # 33 Cyrillic letters are 66 bytes: Telegram (and the emulator) refuse them.
        markup = InlineKeyboardMarkup(
            inline_keyboard=[[InlineKeyboardButton(text="x", callback_data="я" * 33)]]
        )
        with pytest.raises(TelegramBadRequest, match="BUTTON_DATA_INVALID"):
            await bot.send_message(7, "hi", reply_markup=markup)
        with pytest.raises(AssertionError):
            assert_no_bot_bugs(emu)
    finally:
        await bot.session.close()
        await emu.stop()
