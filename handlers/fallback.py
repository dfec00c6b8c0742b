"""Last router: a button nobody handles (stale, forged, from an old version) is still answered."""

from __future__ import annotations

from aiogram import Router
from aiogram.types import CallbackQuery
from aiogram.utils.callback_answer import CallbackAnswer

from bot.i18n import Translator
from handlers.callbacks import notify


async def stale_button(
    query: CallbackQuery, callback_answer: CallbackAnswer, t: Translator
) -> None:
    notify(callback_answer, t("This button is no longer active."))


def create_router() -> Router:
    router = Router(name=__name__)
    router.callback_query.register(stale_button)
    return router
