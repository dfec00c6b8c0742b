"""A game whose forum topic was deleted: Telegram tells bots nothing, the bot learns it from a
refused post and holds the game (``bot/delivery.py``). Its own topic is gone, so nothing can be
sent there, ``/game`` included: the GM archives it from any other topic, where ``/game`` lists
the group's games with one «Archive» button per game of theirs whose topic is gone."""

from __future__ import annotations

from html import escape

from aiogram import Router
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message
from aiogram.utils.callback_answer import CallbackAnswer

from bot.delivery import TOPIC_GONE
from bot.i18n import Translator
from bot.services import games as game_service
from db.repositories.games import GameDTO
from db.uow import UnitOfWork
from handlers.callbacks import GoneTopicArchiveCD, notify
from handlers.owned import own
from handlers.views.edit import edit_text


def gone_games(games: list[GameDTO], user_id: int) -> list[GameDTO]:
    """The user's own games (as their GM) whose topic was deleted."""
    return [g for g in games if g.held == TOPIC_GONE and g.gm_user_id == user_id]


def with_archive_buttons(
    t: Translator, keyboard: InlineKeyboardMarkup | None, games: list[GameDTO]
) -> InlineKeyboardMarkup | None:
    """``keyboard`` with one «🗄 Archive «title»» row per game of ``games`` under it."""
    rows = [
        [
            InlineKeyboardButton(
                text="🗄 " + t("Archive «{title}»", title=g.title),
                callback_data=GoneTopicArchiveCD(game_id=g.id, step="ask").pack(),
            )
        ]
        for g in games
    ]
    if not rows:
        return keyboard
    above = keyboard.inline_keyboard if keyboard else []
    return InlineKeyboardMarkup(inline_keyboard=[*above, *rows])


async def _gone_game(
    query: CallbackQuery, callback_answer: CallbackAnswer, data: GoneTopicArchiveCD,
    t: Translator, uow: UnitOfWork,
) -> tuple[Message, GameDTO] | None:  # fmt: skip
    """The pressed message and its game, when the presser is the game's GM, the game is this
    chat's and its topic is gone; otherwise the press is refused with a word (a forged id,
    another's game, an archived one)."""
    message = own(query, callback_answer, t, GoneTopicArchiveCD, game_id=data.game_id)
    if message is None:
        return None
    game = await uow.games.get(data.game_id)
    gone = game is not None and game.held == TOPIC_GONE and not game.archived
    if game is None or not gone or game.chat_id != message.chat.id:
        notify(callback_answer, t("This button is no longer active."), alert=True)
        return None
    if game.gm_user_id != query.from_user.id:
        notify(callback_answer, t("Only the GM can do that."), alert=True)
        return None
    return message, game


async def archive_gone(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: GoneTopicArchiveCD,
    t: Translator, uow: UnitOfWork,
) -> None:  # fmt: skip
    found = await _gone_game(query, callback_answer, callback_data, t, uow)
    if found is None:
        return
    message, game = found
    title = escape(game.title)
    if callback_data.step == "ask":
        await message.answer(
            t("Archive «{title}»? Characters and the roll log stay readable.", title=title),
            reply_markup=_question(t, game),
        )
    elif callback_data.step == "yes" and await game_service.archive(uow, game):
        await edit_text(message, t("The game is archived. Start a new one with /newgame."))
    elif callback_data.step == "no":
        await edit_text(message, t("The game goes on: not archived."))


def _question(t: Translator, game: GameDTO) -> InlineKeyboardMarkup:
    yes = GoneTopicArchiveCD(game_id=game.id, step="yes").pack()
    no = GoneTopicArchiveCD(game_id=game.id, step="no").pack()
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(text="✅ " + t("Archive"), callback_data=yes),
                InlineKeyboardButton(text=t("✖️ Cancel"), callback_data=no),
            ]
        ]
    )


def create_router() -> Router:
    router = Router(name=__name__)
    router.callback_query.register(archive_gone, GoneTopicArchiveCD.filter())
    return router
