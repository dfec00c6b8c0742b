"""Access filters used at router level (not ``if``s inside handlers)."""

from __future__ import annotations

from typing import Any

from aiogram import Bot
from aiogram.filters import BaseFilter
from aiogram.types import CallbackQuery, Message

from bot.services import games as game_service
from db.uow import UnitOfWork


def _message_of(event: Message | CallbackQuery) -> Message | None:
    if isinstance(event, CallbackQuery):
        return event.message if isinstance(event.message, Message) else None
    return event


class ChatAdmin(BaseFilter):
    """Passes in private chats and, in groups, for the chat's creator and administrators —
    and for the GM and co-GMs of the chat's game, who run the table even without admin rights."""

    async def __call__(self, event: Message | CallbackQuery, bot: Bot, uow: UnitOfWork) -> bool:
        message = _message_of(event)
        if message is None or event.from_user is None:
            return False
        if message.chat.type == "private":
            return True
        game = await uow.games.live_for_chat(message.chat.id)
        if game is not None and await game_service.is_gm(uow, game, event.from_user.id):
            return True
        member = await bot.get_chat_member(message.chat.id, event.from_user.id)
        return member.status in ("creator", "administrator")


class HasGame(BaseFilter):
    """The chat has a live game; hands it to the handler as ``game``."""

    async def __call__(
        self, event: Message | CallbackQuery, uow: UnitOfWork
    ) -> bool | dict[str, Any]:
        message = _message_of(event)
        if message is None:
            return False
        game = await uow.games.live_for_chat(message.chat.id)
        return {"game": game} if game is not None else False


class HadGame(BaseFilter):
    """The chat has no live game but an archived one: hands the newest over as ``game``, to
    read (its characters stay readable, changeable by no one)."""

    async def __call__(
        self, event: Message | CallbackQuery, uow: UnitOfWork
    ) -> bool | dict[str, Any]:
        message = _message_of(event)
        if message is None or await uow.games.live_for_chat(message.chat.id) is not None:
            return False
        game = await uow.games.archived_for_chat(message.chat.id)
        return {"game": game} if game is not None else False


class IsGM(BaseFilter):
    """The sender is the GM or a co-GM of the chat's live game; hands over ``game``."""

    async def __call__(
        self, event: Message | CallbackQuery, uow: UnitOfWork
    ) -> bool | dict[str, Any]:
        message = _message_of(event)
        if message is None or event.from_user is None:
            return False
        game = await uow.games.live_for_chat(message.chat.id)
        if game is None or not await game_service.is_gm(uow, game, event.from_user.id):
            return False
        return {"game": game}


class IsMainGM(BaseFilter):
    """The sender is THE GM of the chat's live game — not a co-GM: archiving, /options, /cogm,
    /uncogm and /timezone are the GM's alone (README, "Who may do what"); hands over ``game``."""

    async def __call__(
        self, event: Message | CallbackQuery, uow: UnitOfWork
    ) -> bool | dict[str, Any]:
        message = _message_of(event)
        if message is None or event.from_user is None:
            return False
        game = await uow.games.live_for_chat(message.chat.id)
        if game is None or game.gm_user_id != event.from_user.id:
            return False
        return {"game": game}


class GameSystem(BaseFilter):
    """The chat's live game runs ``system``; hands it over as ``game``. Lets two systems'
    routers share a command word (/scene) without seeing each other's games."""

    def __init__(self, system: str) -> None:
        self.system = system

    async def __call__(
        self, event: Message | CallbackQuery, uow: UnitOfWork
    ) -> bool | dict[str, Any]:
        message = _message_of(event)
        if message is None:
            return False
        game = await uow.games.live_for_chat(message.chat.id)
        return {"game": game} if game is not None and game.system == self.system else False
