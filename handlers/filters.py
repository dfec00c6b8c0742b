"""Access filters used at router level (not ``if``s inside handlers)."""

from __future__ import annotations

from aiogram import Bot
from aiogram.filters import BaseFilter
from aiogram.types import CallbackQuery, Message


class ChatAdmin(BaseFilter):
    """Passes in private chats and, in groups, for the chat's creator and administrators."""

    async def __call__(self, event: Message | CallbackQuery, bot: Bot) -> bool:
        message = event.message if isinstance(event, CallbackQuery) else event
        if message is None or event.from_user is None:
            return False
        if message.chat.type == "private":
            return True
        member = await bot.get_chat_member(message.chat.id, event.from_user.id)
        return member.status in ("creator", "administrator")
