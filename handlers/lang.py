"""/lang: per-user language in private chats, the chat's language in groups (admins only)."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message
from aiogram.utils.callback_answer import CallbackAnswer

from bot.i18n import SUPPORTED, I18n, Translator
from bot.services import settings as settings_service
from db.uow import UnitOfWork
from handlers.callbacks import LangCD, Screen, ScreenCD, notify
from handlers.filters import ChatAdmin
from handlers.owned import show
from handlers.start import SCREENS
from handlers.views import common as views


async def set_language_by_argument(
    message: Message, command: CommandObject, uow: UnitOfWork, i18n: I18n
) -> None:
    locale = (command.args or "").strip().lower()
    if locale not in SUPPORTED:
        t = i18n.translator(i18n.default_locale)
        await message.answer(t("Unknown language. Choose: ru or en."))
        return
    await settings_service.set_language(
        uow, message.chat.id, message.chat.type, _uid(message), locale
    )
    t = i18n.translator(locale)
    await message.answer(t("Language set: {name}.", name=views.LANGUAGE_NAMES[locale]))


async def language_menu(message: Message, t: Translator, locale: str) -> None:
    await message.answer(views.language_text(t), reply_markup=views.language_keyboard(locale))


async def language_menu_screen(query: CallbackQuery, t: Translator, locale: str) -> None:
    if isinstance(query.message, Message):
        await show(
            query.message, views.language_text(t), views.language_keyboard(locale), *SCREENS
        )


async def choose_language(
    query: CallbackQuery,
    callback_answer: CallbackAnswer,
    callback_data: LangCD,
    uow: UnitOfWork,
    i18n: I18n,
) -> None:
    message = query.message
    if not isinstance(message, Message):
        return
    locale = callback_data.locale
    await settings_service.set_language(
        uow, message.chat.id, message.chat.type, query.from_user.id, locale
    )
    t = i18n.translator(locale)
    notify(callback_answer, t("Language set: {name}.", name=views.LANGUAGE_NAMES[locale]))
    await show(message, views.language_text(t), views.language_keyboard(locale), *SCREENS)


async def not_allowed(
    query: CallbackQuery, callback_answer: CallbackAnswer, t: Translator
) -> None:
    notify(
        callback_answer,
        t("Only the chat's admins and the GM can change its language."),
        alert=True,
    )


async def not_allowed_message(message: Message, t: Translator) -> None:
    await message.answer(t("Only the chat's admins and the GM can change its language."))


def _uid(message: Message) -> int:
    assert message.from_user is not None
    return message.from_user.id


def create_router() -> Router:
    # Changing a group's language is for its admins and the GM; everyone may change their own.
    # ChatAdmin asks Telegram, so it goes after the cheap filters, never on the router itself
    # (a router filter would run for every group update passing through).
    router = Router(name=__name__)
    admin = ChatAdmin()
    router.message.register(
        set_language_by_argument, Command("lang"), F.text.regexp(r"^/\S+\s+\S"), admin
    )
    router.message.register(language_menu, Command("lang"), admin)
    router.callback_query.register(
        language_menu_screen, ScreenCD.filter(F.screen == Screen.LANG), admin
    )
    router.callback_query.register(choose_language, LangCD.filter(F.locale.in_(SUPPORTED)), admin)

    group_only = F.chat.type != "private"
    router.message.register(not_allowed_message, Command("lang"), group_only)
    in_group = F.message.chat.type != "private"
    router.callback_query.register(not_allowed, LangCD.filter(), in_group)
    router.callback_query.register(not_allowed, ScreenCD.filter(F.screen == Screen.LANG), in_group)
    return router
