"""/lang: per-user language in private chats, the chat's language in groups (admins only)."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from bot.i18n import SUPPORTED, I18n, Translator
from bot.services import settings as settings_service
from db.uow import UnitOfWork
from handlers.callbacks import LangCD, Screen, ScreenCD
from handlers.filters import ChatAdmin
from handlers.views import common as views

router = Router(name=__name__)

# Changing a group's language is for its admins; everyone may change their own.
admin_only = Router(name=__name__ + ".admin")
admin_only.message.filter(ChatAdmin())
admin_only.callback_query.filter(ChatAdmin())
refused = Router(name=__name__ + ".refused")
router.include_routers(admin_only, refused)


@admin_only.message(Command("lang"), F.text.regexp(r"^/\S+\s+\S"))
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


@admin_only.message(Command("lang"))
async def language_menu(message: Message, t: Translator, locale: str) -> None:
    await message.answer(views.language_text(t), reply_markup=views.language_keyboard(locale))


@admin_only.callback_query(ScreenCD.filter(F.screen == Screen.LANG))
async def language_menu_screen(query: CallbackQuery, t: Translator, locale: str) -> None:
    if isinstance(query.message, Message):
        await query.message.edit_text(
            views.language_text(t), reply_markup=views.language_keyboard(locale)
        )


@admin_only.callback_query(LangCD.filter(F.locale.in_(SUPPORTED)))
async def choose_language(
    query: CallbackQuery, callback_data: LangCD, uow: UnitOfWork, i18n: I18n
) -> None:
    message = query.message
    if not isinstance(message, Message):
        return
    locale = callback_data.locale
    await settings_service.set_language(
        uow, message.chat.id, message.chat.type, query.from_user.id, locale
    )
    t = i18n.translator(locale)
    await query.answer(t("Language set: {name}.", name=views.LANGUAGE_NAMES[locale]))
    await message.edit_text(views.language_text(t), reply_markup=views.language_keyboard(locale))


@refused.callback_query(LangCD.filter())
@refused.callback_query(ScreenCD.filter(F.screen == Screen.LANG))
async def not_allowed(query: CallbackQuery, t: Translator) -> None:
    await query.answer(t("Only the chat's admins can change its language."), show_alert=True)


@refused.message(Command("lang"))
async def not_allowed_message(message: Message, t: Translator) -> None:
    await message.answer(t("Only the chat's admins can change its language."))


def _uid(message: Message) -> int:
    assert message.from_user is not None
    return message.from_user.id
