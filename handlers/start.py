"""/start, /help and the start message's screens."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command, CommandStart
from aiogram.types import CallbackQuery, InaccessibleMessage, Message

from bot.i18n import Translator
from db.repositories.users import UserDTO
from handlers.callbacks import Screen, ScreenCD
from handlers.views import common as views
from handlers.views.edit import edit_text


async def start(message: Message, t: Translator, user: UserDTO) -> None:
    in_group = message.chat.type != "private"
    await message.answer(
        views.start_text(t, user.name, in_group=in_group), reply_markup=views.start_keyboard(t)
    )


async def help_command(message: Message, t: Translator) -> None:
    await message.answer(views.help_text(t))


async def show_home(query: CallbackQuery, t: Translator, user: UserDTO) -> None:
    message = query.message
    if message is None or isinstance(message, InaccessibleMessage):
        return
    in_group = message.chat.type != "private"
    await edit_text(
        message,
        views.start_text(t, user.name, in_group=in_group),
        reply_markup=views.start_keyboard(t),
    )


async def show_help(query: CallbackQuery, t: Translator) -> None:
    if isinstance(query.message, Message):
        await edit_text(query.message, views.help_text(t), reply_markup=views.back_keyboard(t))


def create_router() -> Router:
    router = Router(name=__name__)
    router.message.register(start, CommandStart())
    router.message.register(help_command, Command("help"))
    router.callback_query.register(show_home, ScreenCD.filter(F.screen == Screen.HOME))
    router.callback_query.register(show_help, ScreenCD.filter(F.screen == Screen.HELP))
    return router
