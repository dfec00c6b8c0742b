"""Inline rolls: ``@bot 4dF+2 атака`` or ``@bot Атлетика`` in any chat.

The answer offers placeholders only; the roll is made when Telegram reports the placeholder
sent (``chosen_inline_result``, inline feedback on) or when its owner presses «🎲 Roll» on it
(feedback off), whichever comes first, once (``bot/services/inline_rolls.py``).
"""

from __future__ import annotations

import logging

from aiogram import Bot, Router
from aiogram.types import CallbackQuery, ChosenInlineResult, InlineQuery
from aiogram.utils.callback_answer import CallbackAnswer

from bot.i18n import Translator
from bot.services import inline_rolls
from db.repositories.users import UserDTO
from db.uow import UnitOfWork
from engine.errors import EngineError
from handlers.callbacks import notify
from handlers.views import inline as views

logger = logging.getLogger(__name__)


async def inline_query(
    query: InlineQuery, t: Translator, locale: str, uow: UnitOfWork, user: UserDTO
) -> None:
    offered = await inline_rolls.offer(uow, user, query.query, locale)
    # Personal: an offer is the user's own. Caching would be harmless to fairness (an offer
    # holds no result; each message sent from it rolls on its own), but a sheet changes:
    # one second. Not 0: bot/session.py leaves falsy values out, so Telegram's 300 would apply.
    if offered.error is not None:
        results = views.refusal_results(t, offered.error.render(locale))
    else:
        results = views.results(t, offered.offers, user.name)
    await query.answer(results, cache_time=1, is_personal=True)


async def chosen(
    result: ChosenInlineResult, bot: Bot, t: Translator, locale: str, uow: UnitOfWork,
    user: UserDTO,
) -> None:  # fmt: skip
    message_id = result.inline_message_id
    if message_id is None:  # an error shown as a result: nothing to roll
        return
    await _roll(bot, t, locale, uow, user, result.result_id, message_id, None)


async def press(
    query: CallbackQuery, callback_data: views.InlineRollCD, callback_answer: CallbackAnswer,
    bot: Bot, t: Translator, locale: str, uow: UnitOfWork, user: UserDTO,
) -> None:  # fmt: skip
    message_id = query.inline_message_id
    if message_id is None:  # the button forged onto a chat message
        notify(callback_answer, t("This button is no longer active."), alert=True)
        return
    await _roll(bot, t, locale, uow, user, callback_data.offer, message_id, callback_answer)


async def _roll(
    bot: Bot, t: Translator, locale: str, uow: UnitOfWork, user: UserDTO, offer_id: str,
    message_id: str, answer: CallbackAnswer | None,
) -> None:  # fmt: skip
    """Roll the sent placeholder once and edit the result in; a press is told what happened."""
    try:
        rolled = await inline_rolls.roll_offer(uow, user, offer_id, message_id, locale)
    except inline_rolls.OfferGone:
        _tell(answer, t("This button is no longer active."))
        return
    except inline_rolls.NotYours:
        _tell(answer, t("Only the player who sent this roll can roll it."))
        return
    except (EngineError, inline_rolls.CharacterGone) as error:
        words = (
            error.render(locale)
            if isinstance(error, EngineError)
            else t("Your character in that game is no longer active.")
        )
        _tell(answer, words)
        await bot.edit_message_text(views.refused(t, words), inline_message_id=message_id)
        return
    if not rolled.fresh:
        _tell(answer, t("Already rolled."))
        return
    username = (await bot.me()).username or ""
    await bot.edit_message_text(
        views.rolled(t, locale, rolled, user.name, username),
        inline_message_id=message_id,
        reply_markup=views.log_keyboard(t, username),
    )


def _tell(answer: CallbackAnswer | None, text: str) -> None:
    if answer is not None:
        notify(answer, text, alert=True)


def create_router() -> Router:
    router = Router(name=__name__)
    router.inline_query.register(inline_query)
    router.chosen_inline_result.register(chosen)
    router.callback_query.register(press, views.InlineRollCD.filter())
    return router
