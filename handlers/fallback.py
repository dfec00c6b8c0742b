"""What answers when nothing else did, so a newcomer always learns what to do next.

* ``create_chat_kind_router`` (early, right after the dice): a command of the game's group sent
  in the private chat, or one of the private chat sent in a group, is told where it works;
* ``create_router`` (last): a button nobody handles (stale, forged, from an old version) is still
  answered; a command nobody handled gets the closest command (``/hepl`` → ``/help``), or where
  and in which systems it works.
"""

from __future__ import annotations

import difflib
from typing import Any

from aiogram import Bot, F, Router
from aiogram.filters import BaseFilter, Command
from aiogram.types import CallbackQuery, Message
from aiogram.utils.callback_answer import CallbackAnswer

from bot.commands import BY_NAME, COMMANDS, Where
from bot.i18n import Translator
from db.repositories.games import GameDTO
from db.uow import UnitOfWork
from handlers.callbacks import notify
from handlers.views import fallback as views
from handlers.views import topics as topic_views


async def stale_button(
    query: CallbackQuery, callback_answer: CallbackAnswer, t: Translator
) -> None:
    notify(callback_answer, t("This button is no longer active."))


class SlashCommand(BaseFilter):
    """A ``/word`` message meant for this bot (not ``/word@another_bot``); hands over the word
    in lower case as ``word`` and whether it named this bot (``/word@this_bot``) as
    ``addressed``."""

    async def __call__(self, message: Message, bot: Bot) -> bool | dict[str, Any]:
        text = message.text or message.caption or ""
        if not text.startswith("/") or len(text) < 2:
            return False
        head = text.split(maxsplit=1)[0][1:]
        word, _, mention = head.partition("@")
        if mention:
            me = await bot.me()
            if mention.lower() != (me.username or "").lower():
                return False
        return {"word": word.lower(), "addressed": bool(mention)} if word else False


def closest(word: str) -> str | None:
    """The known command closest to a typo, if any is close enough."""
    found = difflib.get_close_matches(word, BY_NAME, n=1, cutoff=0.6)
    return BY_NAME[found[0]].name if found else None


async def unknown_command(
    message: Message, word: str, addressed: bool, t: Translator, bot: Bot, uow: UnitOfWork
) -> None:
    known = BY_NAME.get(word)
    private = message.chat.type == "private"
    if known is None:
        suggestion = closest(word)
        # In a group a bare /word may be another bot's: answered only when it is close to one
        # of ours (a typo) or names this bot.
        if private or addressed or suggestion is not None:
            await message.answer(views.unknown(t, word, suggestion))
        return
    if known.where is Where.GROUP and private:
        await message.answer(views.group_only(t, known.name, await _my_games(message, uow)))
    elif known.where is Where.PRIVATE and not private:
        me = await bot.me()
        await message.answer(
            views.private_only(t, known.name), reply_markup=views.dm_keyboard(t, me.username)
        )
    elif not private and (elsewhere := await _games_elsewhere(message, uow)):
        # a forum topic (or «General») without a game: where the group's games are
        await message.answer(topic_views.games_elsewhere(t, elsewhere))
    elif not private and not known.systems and not await _has_game(message, uow):
        # a game's command (/sheet, /history) in a group with no game yet: how to start one
        await message.answer(t("No game in this chat yet. Start one with /newgame."))
    else:
        await message.answer(views.not_here(t, known))


async def _my_games(message: Message, uow: UnitOfWork) -> list[str]:
    """The titles of the sender's live games, as GM, co-GM or player."""
    if message.from_user is None:
        return []
    games = await uow.games.games_of(message.from_user.id, roles=("gm", "cogm", "player"))
    return list(dict.fromkeys(game.title for game in games))


async def _has_game(message: Message, uow: UnitOfWork) -> bool:
    chat_id = message.chat.id
    live = await uow.games.live_for_chat(chat_id)
    return live is not None or await uow.games.archived_for_chat(chat_id) is not None


async def _games_elsewhere(message: Message, uow: UnitOfWork) -> list[GameDTO]:
    if await uow.games.live_for_chat(message.chat.id) is not None:
        return []
    return await uow.games.live_in_chat(message.chat.id)


async def group_command_in_private(message: Message, t: Translator, uow: UnitOfWork) -> None:
    word = (message.text or "").split(maxsplit=1)[0][1:].partition("@")[0].lower()
    await message.answer(views.group_only(t, BY_NAME[word].name, await _my_games(message, uow)))


async def private_command_in_group(message: Message, t: Translator, bot: Bot) -> None:
    word = (message.text or "").split(maxsplit=1)[0][1:].partition("@")[0].lower()
    me = await bot.me()
    await message.answer(
        views.private_only(t, BY_NAME[word].name), reply_markup=views.dm_keyboard(t, me.username)
    )


def _words(where: Where) -> list[str]:
    return [
        word
        for c in COMMANDS
        if c.where is where and not c.own_redirect
        for word in (c.name, *c.aliases)
    ]


def create_chat_kind_router() -> Router:
    """Commands sent to the wrong kind of chat, before any router answers them as if the chat
    merely had no game ("No game in this chat yet" in a private chat helps nobody)."""
    router = Router(name=__name__ + ".chat_kind")
    router.message.register(
        group_command_in_private, F.chat.type == "private", Command(*_words(Where.GROUP))
    )
    router.message.register(
        private_command_in_group,
        F.chat.type.in_({"group", "supergroup"}),
        Command(*_words(Where.PRIVATE)),
    )
    return router


def create_router() -> Router:
    router = Router(name=__name__)
    router.callback_query.register(stale_button)
    router.message.register(unknown_command, SlashCommand())
    return router
