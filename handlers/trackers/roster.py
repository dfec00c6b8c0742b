"""/join Name and /leave Name (the GM): a character or NPC joins the open fight, conflict or
scene, or leaves it, while it runs; the tracker's message is redrawn in place."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import Message

from bot.i18n import I18n, Translator
from bot.services import unit
from bot.services.trackers import core
from bot.services.trackers import roster as service
from db.repositories.chats import ChatDTO
from db.repositories.games import GameDTO
from db.repositories.users import UserDTO
from db.uow import UnitOfWork
from handlers.filters import HasGame, IsGM
from handlers.games import gm_only, no_game
from handlers.trackers import common
from handlers.views import characters as character_views
from handlers.views.safe import plain


def split_side(text: str) -> tuple[str, int | None]:
    """``Лиса: 1`` → («Лиса», 1): the side a newcomer takes where the fight has sides."""
    name, colon, side = text.rpartition(":")
    if colon and side.strip() in ("1", "2"):
        return name.strip(), int(side)
    return text, None


async def _change(
    message: Message, command: CommandObject, game: GameDTO, user: UserDTO, t: Translator,
    i18n: I18n, chat_info: ChatDTO | None, uow: UnitOfWork, *, joining: bool,
) -> None:  # fmt: skip
    name, side = split_side((command.args or "").strip())
    if not name:
        usage = (
            t("Who? /join Name (on a side: /join Name: 1)") if joining else t("Who? /leave Name")
        )
        await message.answer(usage)
        return
    try:
        tracker, row = await unit.committed(
            uow,
            lambda: service.change(
                uow,
                game,
                user_id=user.id,
                user_name=user.name,
                name=name,
                joining=joining,
                side=side,
            ),
            undo_on=(core.TrackerRefused,),
        )
    except service.NameUnresolved as unresolved:
        await message.answer(character_views.unresolved(t, unresolved.result))
        return
    except core.TrackerRefused as refused:
        params = getattr(refused, "params", {})
        await message.answer(t(refused.reason, **{k: plain(v) for k, v in params.items()}))
        return
    await common.redraw(message, uow, common.chat_translator(i18n, chat_info), tracker)
    name = f"<b>{plain(row.name)}</b>"
    said = t("➕ {name} joins.", name=name) if joining else t("➖ {name} leaves.", name=name)
    await message.answer(said)


async def join(
    message: Message, command: CommandObject, game: GameDTO, user: UserDTO, t: Translator,
    i18n: I18n, chat_info: ChatDTO | None, uow: UnitOfWork,
) -> None:  # fmt: skip
    await _change(message, command, game, user, t, i18n, chat_info, uow, joining=True)


async def leave(
    message: Message, command: CommandObject, game: GameDTO, user: UserDTO, t: Translator,
    i18n: I18n, chat_info: ChatDTO | None, uow: UnitOfWork,
) -> None:  # fmt: skip
    await _change(message, command, game, user, t, i18n, chat_info, uow, joining=False)


def create_router() -> Router:
    router = Router(name=__name__)
    router.message.filter(F.chat.type.in_({"group", "supergroup"}))
    gm = Router(name=__name__ + ".gm")
    gm.message.filter(IsGM())
    gm.message.register(join, Command("join"))
    gm.message.register(leave, Command("leave"))
    others = Router(name=__name__ + ".others")
    others.message.register(gm_only, Command("join", "leave"), HasGame())
    others.message.register(no_game, Command("join", "leave"))
    router.include_routers(gm, others)
    return router
