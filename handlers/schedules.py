"""/schedule (GM, group): the game's scheduled milestones, add with buttons, delete."""

from __future__ import annotations

import re

from aiogram import F, Router
from aiogram.filters import Command, CommandObject, or_f
from aiogram.fsm.context import FSMContext
from aiogram.fsm.state import State, StatesGroup
from aiogram.types import CallbackQuery, Message
from aiogram.utils.callback_answer import CallbackAnswer

from bot.i18n import Translator
from bot.services import schedules as service
from db.repositories.games import GameDTO
from db.repositories.users import UserDTO
from db.uow import UnitOfWork
from handlers.callbacks import notify
from handlers.filters import HasGame, IsGM
from handlers.games import gm_only, gm_only_button, no_game
from handlers.owned import own
from handlers.views import schedules as views
from handlers.views.edit import edit_text
from handlers.views.schedules import (
    ScheduleAddCD,
    ScheduleCloseCD,
    ScheduleDayCD,
    ScheduleDeleteCD,
    ScheduleKindCD,
    ScheduleSaveCD,
    ScheduleTimeCD,
)

TYPED_TIME = re.compile(r"^\s*(\d{1,2})[:.](\d{2})\s*$")


class ScheduleSG(StatesGroup):
    time = State()  # the GM may type the time (data: kind, day)


async def show(
    message: Message, command: CommandObject, game: GameDTO, t: Translator, uow: UnitOfWork
) -> None:
    args = (command.args or "").split()
    if args and args[0].lower() == "grace":
        hours = args[1] if len(args) > 1 else ""
        if not hours.isdigit():
            await message.answer(views.grace_usage(t))
            return
        await message.answer(views.grace_set(t, await service.set_grace(uow, game, int(hours))))
        return
    schedules = await service.list_for(uow, game)
    await message.answer(
        views.panel(t, game.system, game.timezone, schedules),
        reply_markup=views.panel_keyboard(t, schedules),
    )


async def add(
    query: CallbackQuery, callback_answer: CallbackAnswer, game: GameDTO, t: Translator
) -> None:
    message = own(query, callback_answer, t, ScheduleAddCD)
    if message is not None:
        await edit_text(message, views.kind_prompt(t), views.kind_keyboard(t, game.system))


async def pick_kind(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: ScheduleKindCD,
    game: GameDTO, t: Translator,
) -> None:  # fmt: skip
    kind = callback_data.kind
    message = own(query, callback_answer, t, ScheduleKindCD, kind=kind)
    if message is not None:
        await edit_text(
            message, views.day_prompt(t, game.system, kind), views.day_keyboard(t, kind)
        )


async def pick_day(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: ScheduleDayCD,
    game: GameDTO, t: Translator, state: FSMContext,
) -> None:  # fmt: skip
    kind, day = callback_data.kind, callback_data.day
    message = own(query, callback_answer, t, ScheduleDayCD, kind=kind, day=day)
    if message is None:
        return
    await state.set_state(ScheduleSG.time)
    await state.set_data({"kind": kind, "day": day})
    await edit_text(
        message,
        views.time_prompt(t, game.system, kind, day),
        views.time_keyboard(t, kind, day),
    )


async def pick_time(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: ScheduleTimeCD,
    game: GameDTO, t: Translator, state: FSMContext,
) -> None:  # fmt: skip
    c = callback_data
    message = own(
        query, callback_answer, t, ScheduleTimeCD, kind=c.kind, day=c.day, minute=c.minute
    )
    if message is None:
        return
    await state.clear()
    await edit_text(
        message,
        views.remind_prompt(t, game.system, c.kind, c.day, c.minute),
        views.remind_keyboard(t, c.kind, c.day, c.minute),
    )


async def typed_time(message: Message, game: GameDTO, t: Translator, state: FSMContext) -> None:
    found = TYPED_TIME.match(message.text or "")
    hour, minute = (int(found.group(1)), int(found.group(2))) if found else (99, 99)
    if hour > 23 or minute > 59:
        await message.answer(views.bad_time(t))
        return
    data = await state.get_data()
    await state.clear()
    kind, day = str(data.get("kind", "")), int(data.get("day", views.DAILY))
    at = hour * 60 + minute
    await message.answer(
        views.remind_prompt(t, game.system, kind, day, at),
        reply_markup=views.remind_keyboard(t, kind, day, at),
    )


async def save(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: ScheduleSaveCD,
    game: GameDTO, t: Translator, uow: UnitOfWork, user: UserDTO,
) -> None:  # fmt: skip
    c = callback_data
    same = {"kind": c.kind, "day": c.day, "minute": c.minute, "remind": c.remind}
    message = own(query, callback_answer, t, ScheduleSaveCD, **same)
    if message is None:
        return
    try:
        await service.create(
            uow, game, kind=c.kind, weekday=None if c.day == views.DAILY else c.day,
            minute_of_day=c.minute, remind_minutes=c.remind or None, created_by=user.id,
        )  # fmt: skip
    except service.ScheduleRefused as refused:
        notify(callback_answer, t(refused.reason), alert=True)
        return
    notify(callback_answer, views.saved(t))
    await _panel(message, game, t, uow)


async def remove(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: ScheduleDeleteCD,
    game: GameDTO, t: Translator, uow: UnitOfWork,
) -> None:  # fmt: skip
    message = own(
        query, callback_answer, t, ScheduleDeleteCD, schedule_id=callback_data.schedule_id
    )
    if message is None:
        return
    try:
        await service.delete(uow, game, callback_data.schedule_id)
    except service.ScheduleRefused as refused:
        notify(callback_answer, t(refused.reason), alert=True)
    else:
        notify(callback_answer, views.deleted(t))
    await _panel(message, game, t, uow)


async def close(
    query: CallbackQuery, callback_answer: CallbackAnswer, t: Translator, state: FSMContext
) -> None:
    message = own(query, callback_answer, t, ScheduleCloseCD)
    if message is None:
        return
    await state.clear()
    await edit_text(message, views.closed(t))


async def _panel(message: Message, game: GameDTO, t: Translator, uow: UnitOfWork) -> None:
    schedules = await service.list_for(uow, game)
    await edit_text(
        message,
        views.panel(t, game.system, game.timezone, schedules),
        views.panel_keyboard(t, schedules),
    )


def create_router() -> Router:
    router = Router(name=__name__)
    router.message.filter(F.chat.type.in_({"group", "supergroup"}))
    router.callback_query.filter(F.message.chat.type.in_({"group", "supergroup"}))
    router.message.register(show, Command("schedule"), IsGM())
    router.message.register(gm_only, Command("schedule"), HasGame())
    router.message.register(no_game, Command("schedule"))
    router.message.register(typed_time, ScheduleSG.time, F.text.regexp(TYPED_TIME), IsGM())
    router.callback_query.register(add, ScheduleAddCD.filter(), IsGM())
    router.callback_query.register(pick_kind, ScheduleKindCD.filter(), IsGM())
    router.callback_query.register(pick_day, ScheduleDayCD.filter(), IsGM())
    router.callback_query.register(pick_time, ScheduleTimeCD.filter(), IsGM())
    router.callback_query.register(save, ScheduleSaveCD.filter(), IsGM())
    router.callback_query.register(remove, ScheduleDeleteCD.filter(), IsGM())
    router.callback_query.register(close, ScheduleCloseCD.filter(), IsGM())
    any_schedule = or_f(
        ScheduleAddCD.filter(),
        ScheduleKindCD.filter(),
        ScheduleDayCD.filter(),
        ScheduleTimeCD.filter(),
        ScheduleSaveCD.filter(),
        ScheduleDeleteCD.filter(),
        ScheduleCloseCD.filter(),
    )
    router.callback_query.register(gm_only_button, any_schedule)
    return router
