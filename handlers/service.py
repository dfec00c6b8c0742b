"""Service messages: group → supergroup migration keeps the chat's settings (and later, games)."""

from __future__ import annotations

import logging

from aiogram import F, Router
from aiogram.types import Message

from db.uow import UnitOfWork

logger = logging.getLogger(__name__)


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


def create_router() -> Router:
    router = Router(name=__name__)
    router.message.register(migrated, F.migrate_to_chat_id)
    router.message.register(migrated_here, F.migrate_from_chat_id)
    return router
