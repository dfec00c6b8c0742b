"""Where a game's messages go, and what happens when Telegram will not take them.

* **Topics.** A game lives in a (group, forum topic): ``games.thread_id``, NULL for the group
  itself (an ordinary group, or a forum's «General»). An update's topic is ``topic_of`` (the
  message's ``message_thread_id`` when ``is_topic_message``: in an ordinary group the field
  names a reply thread, not a topic); ``UnitOfWorkMiddleware`` hands it to the game
  repository once, so every handler's «the chat's game» is that topic's. Replies made with
  ``Message.answer`` carry the topic already (aiogram copies it from a topic message); what
  the bot posts on its own asks ``destination(game)``, through ``Delivery.post``.
* **Holds.** A post Telegram refuses because the game's topic is closed («TOPIC_CLOSED») or
  gone («message thread not found»), or because the bot is no longer in the group (403,
  also learnt from ``my_chat_member``), holds the game (``games.held``, set once: the GM is
  told once, in private). A held game is not posted to and its schedules wait
  (``bot/services/schedules.py``); reopening the topic or adding the bot back lifts it.
* **Blocked users.** A private notice refused with «bot was blocked by the user» marks the
  user (``users.blocked_at``, set once: the game's GM is told once); later notices to them
  are skipped without a call until they unblock the bot (``my_chat_member`` in private).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from html import escape
from typing import Any

from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError
from aiogram.types import Message, Update
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.i18n import N_, I18n, Translator
from db.repositories.games import GameDTO
from db.uow import UnitOfWork

logger = logging.getLogger(__name__)

TOPIC_CLOSED = "topic_closed"
TOPIC_GONE = "topic_gone"
REMOVED = "removed"

# Telegram's words for each hold (the descriptions of its 400 and 403 answers)
_TOPIC_ERRORS = (
    ("TOPIC_CLOSED", TOPIC_CLOSED),
    ("message thread not found", TOPIC_GONE),
    ("TOPIC_DELETED", TOPIC_GONE),
)
_REMOVED_ERRORS = ("bot was kicked", "bot is not a member", "chat not found")
_BLOCKED_ERRORS = ("bot was blocked by the user", "user is deactivated")

HOLD_NOTES = {
    TOPIC_CLOSED: N_(
        "The topic of «{title}» is closed: the bot posts nothing there and scheduled "
        "milestones wait. Reopen the topic and they resume."
    ),
    TOPIC_GONE: N_(
        "The topic of «{title}» was deleted: the bot posts nothing for the game and scheduled "
        "milestones wait. Send /game in any other topic of the group to archive it."
    ),
    REMOVED: N_(
        "The bot was removed from «{chat}»: nothing is posted for «{title}» and scheduled "
        "milestones wait. Add the bot back and they resume."
    ),
}
RESUMED_NOTE = N_("«{title}»: the bot can post again; scheduled milestones resume.")
BLOCKED_NOTE = N_(
    "{name} has blocked the bot: their private notices from «{title}» are skipped until they "
    "unblock it."
)


def topic_of_message(message: Message | None) -> int | None:
    """The forum topic a message is in (None: an ordinary group, «General», a private chat)."""
    if message is None or not message.is_topic_message:
        return None
    return message.message_thread_id


def topic_of(update: Update) -> int | None:
    """The forum topic an update came from: its message's, or the pressed message's."""
    message = update.message or update.edited_message
    if message is None and update.callback_query is not None:
        pressed = update.callback_query.message
        message = pressed if isinstance(pressed, Message) else None
    return topic_of_message(message)


@dataclass(frozen=True)
class Destination:
    chat_id: int
    thread_id: int | None


def destination(game: GameDTO) -> Destination:
    """Where the bot posts for ``game`` on its own: its group and topic."""
    return Destination(game.chat_id, game.thread_id)


def hold_reason(error: Exception) -> str | None:
    """The hold a refused post to a game's group means, if any."""
    message = str(getattr(error, "message", error))
    if isinstance(error, TelegramBadRequest):
        return next((hold for words, hold in _TOPIC_ERRORS if words in message), None)
    if isinstance(error, TelegramForbiddenError):
        return REMOVED if any(words in message for words in _REMOVED_ERRORS) else None
    return None


def blocked(error: Exception) -> bool:
    return isinstance(error, TelegramForbiddenError) and any(
        words in error.message for words in _BLOCKED_ERRORS
    )


class Delivery:
    """The bot's own posts for games and private notices (see the module's docstring). Holds
    and blocks are written in a unit of work of their own: a fact about Telegram, kept
    whether or not the caller's transaction commits."""

    def __init__(
        self, session_factory: async_sessionmaker[AsyncSession], i18n: I18n,
        uow: UnitOfWork | None = None,
    ) -> None:  # fmt: skip
        self._sessions = session_factory
        self._i18n = i18n
        self._uow = uow  # the caller's unit, for reads (``beside``)

    @classmethod
    def beside(cls, uow: UnitOfWork, i18n: I18n) -> Delivery:
        """For a handler: reads in the update's unit, holds written beside it (on the same
        database, in a unit of their own, only when Telegram refuses a post)."""
        return cls(uow.session_factory, i18n, uow)

    @asynccontextmanager
    async def _reads(self) -> AsyncIterator[UnitOfWork]:
        """The caller's unit when there is one (no second connection per notice), else one
        of its own."""
        if self._uow is not None:
            yield self._uow
            return
        async with UnitOfWork(self._sessions) as uow:
            yield uow

    async def _has_blocked_bot(self, user_id: int) -> bool:
        async with self._reads() as uow:
            return await uow.users.has_blocked_bot(user_id)

    async def post(self, bot: Bot, game: GameDTO, text: str, **kwargs: Any) -> Message | None:
        """Post ``text`` for ``game`` into its topic; None when the game is held (nothing
        sent) or this post held it. Other errors are raised as they were."""
        if game.held is not None:
            logger.info("game %s held (%s): a post skipped", game.id, game.held)
            return None
        where = destination(game)
        try:
            return await bot.send_message(
                where.chat_id, text, message_thread_id=where.thread_id, **kwargs
            )
        except (TelegramBadRequest, TelegramForbiddenError) as error:
            reason = hold_reason(error)
            if reason is None:
                raise
            logger.warning("game %s: %s; held", game.id, error.message)
            await self.hold(bot, [game], reason)
            return None

    async def private(
        self, bot: Bot, user_id: int, text: str, *, game: GameDTO | None = None, **kwargs: Any
    ) -> Message | None:
        """A private notice; skipped (None) for a user known to have blocked the bot. The
        first refusal marks the user and tells ``game``'s GM once."""
        if await self._has_blocked_bot(user_id):
            logger.info("user %s blocked the bot: a notice skipped", user_id)
            return None
        try:
            return await bot.send_message(user_id, text, **kwargs)
        except TelegramForbiddenError as error:
            if not blocked(error):
                raise
            logger.warning("user %s blocked the bot: notices skipped from now on", user_id)
        try:
            async with UnitOfWork(self._sessions) as uow:
                changed = await uow.users.set_blocked(user_id, True, brief=True)
                await uow.commit()
        except Exception:  # the row stayed locked: the next refused notice marks it
            logger.exception("user %s: the block was not written", user_id)
            return None
        if changed and game is not None and user_id != game.gm_user_id:
            await self.tell_blocked(bot, game, user_id)
        return None

    async def hold(self, bot: Bot, games: list[GameDTO], reason: str) -> None:
        """Hold each of ``games``; the GM of each one this call held is told once."""
        held = []
        try:
            async with UnitOfWork(self._sessions) as uow:
                for game in games:
                    if await uow.games.hold(game.id, reason):
                        held.append(game)
                await uow.commit()
        except Exception:  # the row stayed locked: the next refused post holds it
            logger.exception("games %s: the hold was not written", [g.id for g in games])
            return
        await self.tell_held(bot, held, reason)

    async def tell_held(self, bot: Bot, games: list[GameDTO], reason: str) -> None:
        """Tell each game's GM, in private, why the bot holds the game's posts."""
        for game in games:
            chat = escape(await self._chat_title(game.chat_id))
            await self._tell_gm(bot, game, HOLD_NOTES[reason], title=escape(game.title), chat=chat)

    async def tell_resumed(self, bot: Bot, games: list[GameDTO]) -> None:
        for game in games:
            await self._tell_gm(bot, game, RESUMED_NOTE, title=escape(game.title))

    async def tell_blocked(self, bot: Bot, game: GameDTO, user_id: int) -> None:
        """Tell the game's GM that a player's private notices are skipped."""
        async with self._reads() as uow:
            player = await uow.users.get(user_id)
        name = escape(player.name if player else str(user_id))
        await self._tell_gm(bot, game, BLOCKED_NOTE, name=name, title=escape(game.title))

    async def _tell_gm(self, bot: Bot, game: GameDTO, message: str, **params: object) -> None:
        async with self._reads() as uow:
            gm = await uow.users.get(game.gm_user_id)
        t: Translator = self._i18n.of_user(gm)
        try:
            await self.private(bot, game.gm_user_id, t(message, **params))
        except Exception as error:  # the GM never started the bot, …: the hold stays
            logger.warning("game %s: the GM could not be told: %s", game.id, error)

    async def _chat_title(self, chat_id: int) -> str:
        async with self._reads() as uow:
            chat = await uow.chats.get(chat_id)
        return (chat.title if chat else None) or str(chat_id)
