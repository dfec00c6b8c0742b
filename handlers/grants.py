"""The GM's one tap on a player's request for a gain, and the /options switch that skips it."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.types import CallbackQuery, Message
from aiogram.utils.callback_answer import CallbackAnswer

from bot.i18n import Translator
from bot.services import grants as service
from bot.services.resources import Op, Refused
from db.repositories.games import GameDTO
from db.repositories.users import UserDTO
from db.uow import UnitOfWork
from engine.errors import EngineError
from handlers.callbacks import notify
from handlers.filters import HasGame
from handlers.owned import own
from handlers.views import grants as views
from handlers.views.edit import edit_text


async def ask(
    message: Message, callback_answer: CallbackAnswer, t: Translator, uow: UnitOfWork,
    game: GameDTO, user: UserDTO, character_id: int, op: Op,
) -> None:  # fmt: skip
    """A player's gain on the panel: a request card for the GM under the panel."""
    try:
        asked = await service.ask(
            uow, game=game, user_id=user.id, character_id=character_id, op=op
        )
    except Refused as refused:
        notify(callback_answer, t(refused.reason), alert=True)
        return
    except EngineError as error:  # the rules refuse it: nothing to ask for
        notify(callback_answer, error.render(t.locale), alert=True)
        return
    notify(callback_answer, t("Asked the GM: the request is in the chat."))
    await message.answer(
        views.request_text(t, asked.character, asked.op, user.name),
        reply_markup=views.request_keyboard(t, asked.grant_id),
    )


async def decide(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: views.GrantCD,
    game: GameDTO, t: Translator, locale: str, uow: UnitOfWork, user: UserDTO,
) -> None:  # fmt: skip
    message = own(query, callback_answer, t, views.GrantCD, grant_id=callback_data.grant_id)
    if message is None:
        return
    try:
        decided = await service.decide(
            uow, game=game, user_id=user.id, grant_id=callback_data.grant_id,
            grant=callback_data.yes, actor_name=user.name, locale=locale,
        )  # fmt: skip
    except Refused as refused:
        notify(callback_answer, t(refused.reason), alert=True)
        return
    except EngineError as error:
        notify(callback_answer, error.render(locale), alert=True)
        return
    asker = await uow.users.get(decided.grant.asked_by)
    text = views.decided_text(t, locale, decided, asker.name if asker else "?", user.name)
    notify(callback_answer, t("Granted.") if callback_data.yes else t("Refused."))
    await edit_text(message, text, None)


def create_router() -> Router:
    router = Router(name=__name__)
    router.callback_query.filter(F.message.chat.type.in_({"group", "supergroup"}), HasGame())
    router.callback_query.register(decide, views.GrantCD.filter())
    return router
