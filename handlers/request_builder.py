"""Request cards beyond the plain roll: the per-system options pressed before the roll (a cliché
pump, the GM's matter modifiers, a lifegear weapon and stat) and the GM's «🎲 Request a roll»
on a character's /sheet."""

from __future__ import annotations

from aiogram import Router
from aiogram.types import CallbackQuery, InlineKeyboardMarkup, Message
from aiogram.utils.callback_answer import CallbackAnswer

from bot.i18n import Translator
from bot.services import request_options as option_service
from bot.services import requests as request_service
from bot.services import willpower as willpower_service
from bot.services.requests import RequestRefused
from db.repositories.games import GameDTO
from db.repositories.requests import RequestDTO
from db.repositories.users import UserDTO
from db.uow import UnitOfWork
from engine.errors import EngineError
from handlers.callbacks import notify
from handlers.views import requests as views
from handlers.views.edit import edit_text
from handlers.views.request_options import GearCD, MatterModCD, PumpCD


async def pending_card(
    uow: UnitOfWork, t: Translator, request: RequestDTO, game: GameDTO
) -> tuple[str, InlineKeyboardMarkup]:
    """The pending card's text and buttons: the roll, Willpower, the system's options."""
    gm = await uow.users.get(request.requested_by)
    target = await uow.users.get(request.target_user_id)
    offer = await option_service.offer(uow, game, request)
    chance = request_service.chance(request.expression, request.target_number)
    text = views.card(
        t, request, gm.name if gm else "GM", target.name if target else "?", chance,
        game.timezone, offer,
    )  # fmt: skip
    willpower = willpower_service.offered(game.system, request.expression)
    return text, views.card_keyboard(t, request, willpower=willpower, offer=offer)


async def _refresh(message: Message, uow: UnitOfWork, t: Translator, request: RequestDTO) -> None:
    game = await uow.games.get(request.game_id)
    assert game is not None
    text, markup = await pending_card(uow, t, request, game)
    await edit_text(message, text, markup)


async def pump(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: PumpCD,
    t: Translator, locale: str, uow: UnitOfWork, user: UserDTO,
) -> None:  # fmt: skip
    if not isinstance(query.message, Message):
        return
    try:
        request = await option_service.pump(
            uow, request_id=callback_data.request_id, chat_id=query.message.chat.id,
            user_id=user.id, dice=callback_data.dice,
        )  # fmt: skip
    except RequestRefused as refused:
        notify(callback_answer, t(refused.reason), alert=True)
        return
    except EngineError as error:
        notify(callback_answer, error.render(locale), alert=True)
        return
    await _refresh(query.message, uow, t, request)


async def modify(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: MatterModCD,
    t: Translator, locale: str, uow: UnitOfWork, user: UserDTO,
) -> None:  # fmt: skip
    if not isinstance(query.message, Message):
        return
    try:
        request = await option_service.modify(
            uow, request_id=callback_data.request_id, chat_id=query.message.chat.id,
            user_id=user.id, dice=callback_data.dice,
        )  # fmt: skip
    except RequestRefused as refused:
        notify(callback_answer, t(refused.reason), alert=True)
        return
    await _refresh(query.message, uow, t, request)


async def gear(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: GearCD,
    t: Translator, locale: str, uow: UnitOfWork, user: UserDTO,
) -> None:  # fmt: skip
    if not isinstance(query.message, Message):
        return
    try:
        request = await option_service.choose(
            uow, request_id=callback_data.request_id, chat_id=query.message.chat.id,
            user_id=user.id, weapon=callback_data.weapon, stat=callback_data.stat,
        )  # fmt: skip
    except RequestRefused as refused:
        notify(callback_answer, t(refused.reason), alert=True)
        return
    except EngineError as error:
        notify(callback_answer, error.render(locale), alert=True)
        return
    await _refresh(query.message, uow, t, request)


def create_router() -> Router:
    router = Router(name=__name__)
    router.callback_query.register(pump, PumpCD.filter())
    router.callback_query.register(modify, MatterModCD.filter())
    router.callback_query.register(gear, GearCD.filter())
    return router
