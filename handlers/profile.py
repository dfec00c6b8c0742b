"""/profile: a two-step wizard (name, then time zone) kept in the Postgres FSM storage."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command, StateFilter
from aiogram.fsm.context import FSMContext
from aiogram.fsm.state import State, StatesGroup
from aiogram.types import Message
from aiogram_dialog import DialogManager

from bot.i18n import Translator
from bot.services import profile as profile_service
from db.uow import UnitOfWork
from handlers.views import profile as views


class ProfileSG(StatesGroup):
    name = State()
    timezone = State()


async def cancel(
    message: Message, state: FSMContext, t: Translator, dialog_manager: DialogManager
) -> None:
    had_state = await state.get_state() is not None or dialog_manager.has_context()
    await dialog_manager.reset_stack()
    await state.clear()
    await message.answer(t("Cancelled.") if had_state else t("Nothing to cancel."))


async def ask_name(message: Message, state: FSMContext, t: Translator) -> None:
    await state.set_state(ProfileSG.name)
    await message.answer(views.ask_name(t))


async def got_name(message: Message, state: FSMContext, t: Translator) -> None:
    name = profile_service.clean_name(message.text or "")
    if name is None:
        await message.answer(views.bad_name(t))
        return
    await state.update_data(name=name)
    await state.set_state(ProfileSG.timezone)
    await message.answer(views.ask_timezone(t, name))


async def got_timezone(
    message: Message, state: FSMContext, t: Translator, uow: UnitOfWork
) -> None:
    zone = profile_service.parse_timezone(message.text or "")
    if zone is None:
        await message.answer(views.bad_timezone(t))
        return
    name = str((await state.get_data())["name"])
    assert message.from_user is not None
    await profile_service.save_profile(uow, message.from_user.id, name=name, timezone=zone)
    await state.clear()
    await message.answer(views.saved(t, name, zone))


async def not_text(message: Message, t: Translator) -> None:
    await message.answer(t("Please answer with text, or /cancel."))


def create_router() -> Router:
    router = Router(name=__name__)
    # /cancel works everywhere: it also ends a creation wizard or a GM's pending question.
    router.message.register(cancel, Command("cancel"), StateFilter("*"))
    private = Router(name=__name__ + ".private")
    private.message.filter(F.chat.type == "private")
    private.message.register(ask_name, Command("profile"))
    private.message.register(got_name, ProfileSG.name, F.text)
    private.message.register(got_timezone, ProfileSG.timezone, F.text)
    private.message.register(not_text, StateFilter(ProfileSG), ~F.text)
    router.include_router(private)
    return router
