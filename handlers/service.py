"""Service messages and the bot's own membership: a group → supergroup migration keeps the
chat's settings and games; a forum topic closed or reopened holds or resumes its game's posts;
the bot removed from (added back to) a group, or blocked (unblocked) by a user, holds or
resumes what the bot posts there (``bot/delivery.py``)."""

from __future__ import annotations

import logging

from aiogram import Bot, F, Router
from aiogram.types import ChatMemberUpdated, Message

from bot.delivery import REMOVED, TOPIC_CLOSED, Delivery, topic_of_message
from bot.i18n import I18n
from db.uow import UnitOfWork

logger = logging.getLogger(__name__)

_GONE = ("left", "kicked")


async def migrated(message: Message, uow: UnitOfWork) -> None:
    assert message.migrate_to_chat_id is not None
    await uow.chats.mark_migrated(message.chat.id, message.migrate_to_chat_id)
    await uow.rolls.move_chat(message.chat.id, message.migrate_to_chat_id)
    await uow.games.move_chat(message.chat.id, message.migrate_to_chat_id)
    await uow.requests.move_chat(message.chat.id, message.migrate_to_chat_id)
    logger.info("chat %s migrated to %s", message.chat.id, message.migrate_to_chat_id)


async def migrated_here(message: Message) -> None:
    # The old chat's message carries the move; nothing more to do in the new one.
    return None


async def topic_closed(message: Message, uow: UnitOfWork, bot: Bot, i18n: I18n) -> None:
    held = await uow.games.hold_topic(message.chat.id, topic_of_message(message), TOPIC_CLOSED)
    if held is not None:
        await Delivery.beside(uow, i18n).tell_held(bot, [held], TOPIC_CLOSED)


async def topic_reopened(message: Message, uow: UnitOfWork, bot: Bot, i18n: I18n) -> None:
    released = await uow.games.release(
        message.chat.id, thread_id=topic_of_message(message), reasons=(TOPIC_CLOSED,)
    )
    await Delivery.beside(uow, i18n).tell_resumed(bot, released)


async def bot_membership(event: ChatMemberUpdated, uow: UnitOfWork, bot: Bot, i18n: I18n) -> None:
    """``my_chat_member``: in a private chat the user blocked (unblocked) the bot; in a group
    the bot was removed (added back)."""
    gone = event.new_chat_member.status in _GONE
    delivery = Delivery.beside(uow, i18n)
    if event.chat.type == "private":
        if await uow.users.set_blocked(event.chat.id, gone) and gone:
            for game in await uow.games.games_of(event.chat.id, roles=("player",)):
                await delivery.tell_blocked(bot, game, event.chat.id)
        return
    if gone:
        games = await uow.games.hold_chat(event.chat.id, REMOVED)
        await delivery.tell_held(bot, games, REMOVED)
    elif event.old_chat_member.status in _GONE:
        games = await uow.games.release(event.chat.id, reasons=(REMOVED,), whole_chat=True)
        await delivery.tell_resumed(bot, games)


def create_router() -> Router:
    router = Router(name=__name__)
    router.message.register(migrated, F.migrate_to_chat_id)
    router.message.register(migrated_here, F.migrate_from_chat_id)
    router.message.register(topic_closed, F.forum_topic_closed)
    router.message.register(topic_reopened, F.forum_topic_reopened)
    router.my_chat_member.register(bot_membership)
    return router
