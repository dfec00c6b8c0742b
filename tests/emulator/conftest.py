"""Fixtures: a running emulator and a real aiogram Bot talking to it over HTTP."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from aiogram import Bot, Dispatcher, F, Router
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.filters import CommandStart
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

from tgemu import BotAPIEmulator

ALICE, BOB, GM = 1001, 1002, 1000
GROUP = -100500


@pytest.fixture
async def emu() -> AsyncIterator[BotAPIEmulator]:
    emulator = BotAPIEmulator("123456:TEST-TOKEN")
    emulator.add_user(GM, "Gamemaster", username="gm")
    emulator.add_user(ALICE, "Alice", username="alice", language_code="ru")
    emulator.add_user(BOB, "Bob", username="bob", language_code="en")
    emulator.add_group(GROUP, "Test table", members=[ALICE, BOB], creator=GM)
    await emulator.start()
    yield emulator
    await emulator.stop()


def make_bot(emulator: BotAPIEmulator, token: str | None = None) -> Bot:
    session = AiohttpSession(api=TelegramAPIServer.from_base(emulator.base_url))
    return Bot(
        token or emulator.token,
        session=session,
        default=DefaultBotProperties(parse_mode="HTML"),
    )


async def close_bot(client: Bot) -> None:
    """Close the HTTP session without aiogram's 250 ms grace sleep (meant for TLS; loopback
    plain HTTP needs none) to keep the suite fast on a shared machine."""
    session = getattr(client.session, "_session", None)
    if session is not None:
        await session.close()


@pytest.fixture
async def bot(emu: BotAPIEmulator) -> AsyncIterator[Bot]:
    client = make_bot(emu)
    yield client
    await close_bot(client)


@pytest.fixture
def started(emu: BotAPIEmulator) -> BotAPIEmulator:
    """Alice and Bob have written to the bot privately, so it may message them."""
    emu.user(ALICE).started = True
    emu.user(BOB).started = True
    return emu


def tiny_dispatcher() -> Dispatcher:
    """One /start handler with a keyboard and one button handler (answer + edit)."""
    router = Router()

    @router.message(CommandStart())
    async def start(message: Message) -> None:
        lang = message.from_user.language_code if message.from_user else None
        greeting = "<b>Hello</b>" if lang == "en" else "<b>Привет</b>"
        markup = InlineKeyboardMarkup(
            inline_keyboard=[
                [InlineKeyboardButton(text="Roll", callback_data="roll")],
                [InlineKeyboardButton(text="Docs", url="https://example.org/docs")],
            ]
        )
        await message.answer(f"{greeting}, {message.chat.type}!", reply_markup=markup)

    @router.callback_query(F.data == "roll")
    async def roll(query: CallbackQuery) -> None:
        await query.answer("Rolled 4", show_alert=False)
        if isinstance(query.message, Message):
            await query.message.edit_text("You rolled <i>4</i>")

    dp = Dispatcher()
    dp.include_router(router)
    return dp


@pytest.fixture
async def polling(emu: BotAPIEmulator) -> AsyncIterator[BotAPIEmulator]:
    """The tiny dispatcher polling the emulator until the test ends."""
    dp = tiny_dispatcher()
    client = make_bot(emu)
    task = asyncio.create_task(dp.start_polling(client, handle_signals=False, polling_timeout=5))
    await emu.wait_for(lambda: emu.calls_to("getMe"))
    yield emu
    await dp.stop_polling()
    await asyncio.wait_for(task, 10)
