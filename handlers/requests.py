"""/request (GM) and the 🎲 button that only the named player (or a GM) can press."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message
from aiogram.utils.callback_answer import CallbackAnswer

from bot.i18n import Translator
from bot.services import requests as request_service
from db.repositories.games import GameDTO
from db.repositories.users import UserDTO
from db.uow import UnitOfWork
from engine.errors import EngineError
from handlers.callbacks import RollRequestCD, notify
from handlers.filters import HasGame, IsGM
from handlers.games import gm_only, no_game
from handlers.views import requests as views
from handlers.views.edit import edit_text


async def new_request(
    message: Message, command: CommandObject, game: GameDTO, t: Translator, locale: str,
    uow: UnitOfWork, user: UserDTO,
) -> None:  # fmt: skip
    replied = message.reply_to_message
    target = replied.from_user if replied else None
    if target is None or target.is_bot or not command.args:
        await message.answer(views.usage(t))
        return
    try:
        spec = request_service.parse_spec(command.args)
    except EngineError as error:
        await message.reply(error.render(locale))
        return
    request = await request_service.create(
        uow, game, gm_user_id=user.id, target_user_id=target.id, spec=spec
    )
    chance = request_service.chance(request.expression, request.target_number)
    sent = await message.answer(
        views.card(t, request, user.name, target.full_name, chance),
        reply_markup=views.card_keyboard(t, request),
    )
    await request_service.attach_card(uow, request, sent.message_id)


async def press_roll(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: RollRequestCD,
    t: Translator, locale: str, uow: UnitOfWork, user: UserDTO,
) -> None:  # fmt: skip
    message = query.message
    if not isinstance(message, Message):
        return
    try:
        result = await request_service.press(
            uow, request_id=callback_data.request_id, chat_id=message.chat.id,
            user_id=user.id, user_name=user.name,
        )  # fmt: skip
    except request_service.RequestRefused as refused:
        notify(callback_answer, t(refused.reason), alert=True)
        return
    if not result.first:
        notify(callback_answer, t("Already rolled."))
        return
    target = await uow.users.get(result.request.target_user_id)
    await edit_text(
        message, views.rolled_card(t, locale, result, target.name if target else user.name)
    )


def create_router() -> Router:
    router = Router(name=__name__)
    router.message.filter(F.chat.type.in_({"group", "supergroup"}))
    router.message.register(new_request, Command("request"), IsGM())
    router.message.register(gm_only, Command("request"), HasGame())
    router.message.register(no_game, Command("request"))
    router.callback_query.register(press_roll, RollRequestCD.filter())
    return router
