"""/start, /help and the start message's screens."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import CallbackQuery, InaccessibleMessage, Message

from bot.i18n import Translator
from db.repositories.users import UserDTO
from handlers.callbacks import LangCD, Screen, ScreenCD
from handlers.callbacks_nav import HelpCD
from handlers.owned import show
from handlers.views import common as views
from handlers.views import help as help_views
from handlers.views.notation import HELP_TOPICS, notation_help

# The start message's screens: its own buttons, the help pages and the language menu it opens.
SCREENS = (ScreenCD, HelpCD, LangCD)


async def start(message: Message, t: Translator, user: UserDTO) -> None:
    in_group = message.chat.type != "private"
    await message.answer(
        views.start_text(t, user.name, in_group=in_group), reply_markup=views.start_keyboard(t)
    )


async def help_command(message: Message, command: CommandObject, t: Translator) -> None:
    if (command.args or "").strip().lower() in HELP_TOPICS:  # /help dice
        await message.answer(notation_help(t))
        return
    await message.answer(help_views.help_text(t), reply_markup=help_views.help_keyboard(t))


async def show_home(query: CallbackQuery, t: Translator, user: UserDTO) -> None:
    message = query.message
    if message is None or isinstance(message, InaccessibleMessage):
        return
    in_group = message.chat.type != "private"
    text = views.start_text(t, user.name, in_group=in_group)
    await show(message, text, views.start_keyboard(t), *SCREENS)


async def show_help(query: CallbackQuery, t: Translator) -> None:
    if isinstance(query.message, Message):
        text, keyboard = help_views.help_text(t), help_views.help_keyboard(t)
        await show(query.message, text, keyboard, *SCREENS)


async def show_help_page(query: CallbackQuery, callback_data: HelpCD, t: Translator) -> None:
    if isinstance(query.message, Message):
        key = callback_data.page
        text, keyboard = help_views.help_text(t, key), help_views.help_keyboard(t, key)
        await show(query.message, text, keyboard, *SCREENS)


def create_router() -> Router:
    router = Router(name=__name__)
    router.message.register(start, CommandStart())
    router.message.register(help_command, Command("help"))
    router.callback_query.register(show_home, ScreenCD.filter(F.screen == Screen.HOME))
    router.callback_query.register(show_help, ScreenCD.filter(F.screen == Screen.HELP))
    router.callback_query.register(show_help_page, HelpCD.filter())
    return router
