"""lifegear tracker (issue 10): commands, buttons and the renderer registered for its kinds.

* ``/fight <monster> <defence>`` (GM, e.g. ``/fight Тролль 12``): fast combat against a monster.
* ``/duel`` (GM): a duel between two characters chosen on the tracker.

The tracker speaks the chat's language; refusals are alerts in the presser's language.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message
from aiogram.utils.callback_answer import CallbackAnswer

from bot.i18n import I18n, Translator
from bot.services.trackers import lifegear as service
from db.repositories.chats import ChatDTO
from db.repositories.games import GameDTO
from db.repositories.trackers import TrackerDTO
from db.repositories.users import UserDTO
from db.uow import UnitOfWork
from handlers.filters import GameSystem, HasGame, IsGM
from handlers.games import gm_only, no_game
from handlers.trackers import common
from handlers.trackers.common import chat_translator, open_and_post, step_and_refresh
from handlers.trackers.registry import Rendered, register
from handlers.views.trackers import lifegear as views
from handlers.views.trackers.lifegear import (
    LgAfterCD,
    LgBoostCD,
    LgChooseCD,
    LgEndCD,
    LgEndYesCD,
    LgExtraCD,
    LgPickCD,
    LgProtCD,
    LgRollCD,
    LgStartCD,
    LgTakeCD,
    LgToggleCD,
)


async def render(uow: UnitOfWork, t: Translator, tracker: TrackerDTO) -> Rendered:
    roster = await service.fighters(uow, tracker.game_id)
    game = await uow.games.get(tracker.game_id)
    zone = game.timezone if game is not None else "UTC"
    return views.text(t, tracker, roster, zone), views.keyboard(t, tracker, roster)


register(service.COMBAT, render)
register(service.DUEL, render)


# --- commands --------------------------------------------------------------------------------


async def open_fight(
    message: Message, command: CommandObject, game: GameDTO, uow: UnitOfWork, user: UserDTO,
    t: Translator, i18n: I18n, chat_info: ChatDTO | None,
) -> None:  # fmt: skip
    parsed = service.parse_fight(command.args) or await service.monster_npc(
        uow, game, command.args
    )
    if parsed is None:
        await message.answer(
            t(
                "Name the monster and its defence: /fight Monster 12 (e.g. /fight Тролль 12). "
                "For a duel between characters: /duel."
            )
        )
        return
    name, defence = parsed
    await open_and_post(
        message,
        uow,
        t,
        chat_translator(i18n, chat_info),
        lambda: service.open_combat(uow, game, user_id=user.id, monster=name, defence=defence),
    )


async def open_duel(
    message: Message, game: GameDTO, uow: UnitOfWork, user: UserDTO, t: Translator, i18n: I18n,
    chat_info: ChatDTO | None,
) -> None:  # fmt: skip
    await open_and_post(
        message,
        uow,
        t,
        chat_translator(i18n, chat_info),
        lambda: service.open_duel(uow, game, user_id=user.id),
    )


# --- buttons ---------------------------------------------------------------------------------

Action = Callable[..., Awaitable[TrackerDTO]]


async def _press(
    query: CallbackQuery, callback_answer: CallbackAnswer, uow: UnitOfWork, game: GameDTO,
    t: Translator, locale: str, i18n: I18n, chat_info: ChatDTO | None, action: Action,
    **params: Any,
) -> None:  # fmt: skip
    """Run one use case for a press: a refusal is an alert and changes nothing; otherwise
    commit once and edit the tracker."""
    message = query.message
    if not isinstance(message, Message):
        return
    await step_and_refresh(
        message,
        callback_answer,
        uow,
        t,
        chat_translator(i18n, chat_info),
        lambda: action(uow, game, chat_id=message.chat.id, user_id=query.from_user.id, **params),
    )


Params = Callable[[Any, UserDTO], dict[str, Any]]


def _handler(action: Action, params: Params) -> Callable[..., Awaitable[None]]:
    """One button's handler: ``params`` reads the use case's arguments off the callback data."""

    async def handle(
        query: CallbackQuery, callback_data: Any, callback_answer: CallbackAnswer,
        uow: UnitOfWork, game: GameDTO, t: Translator, locale: str, i18n: I18n,
        chat_info: ChatDTO | None, user: UserDTO,
    ) -> None:  # fmt: skip
        await _press(
            query, callback_answer, uow, game, t, locale, i18n, chat_info, action,
            **params(callback_data, user),
        )  # fmt: skip

    return handle


def _base(d: Any) -> dict[str, Any]:
    return {"tracker_id": d.tid, "v": d.v}


BUTTONS: tuple[tuple[type[Any], Action, Params], ...] = (
    (LgToggleCD, service.toggle, lambda d, u: {**_base(d), "cid": d.c}),
    (LgStartCD, service.start, lambda d, u: _base(d)),
    (LgChooseCD, service.choose, lambda d, u: {**_base(d), "cid": d.c, "user_name": u.name}),
    (
        LgRollCD,
        service.roll,
        lambda d, u: {**_base(d), "cid": d.c, "option": d.o, "key": d.k, "user_name": u.name},
    ),
    (LgBoostCD, service.boost, lambda d, u: {**_base(d), "cid": d.c, "index": d.i, "key": d.k}),
    (
        LgAfterCD,
        service.add_after,
        lambda d, u: {**_base(d), "cid": d.c, "index": d.i, "key": d.k, "user_name": u.name},
    ),
    (LgProtCD, service.protect, lambda d, u: {**_base(d), "cid": d.c, "index": d.i, "key": d.k}),
    (LgPickCD, service.pick, lambda d, u: {**_base(d), "cid": d.c, "index": d.i, "key": d.k}),
    (LgTakeCD, service.take, lambda d, u: {**_base(d), "cid": d.c}),
    (LgExtraCD, service.extra_damage, lambda d, u: {**_base(d), "cid": d.c}),
    (LgEndYesCD, service.end, lambda d, u: _base(d)),
)


async def ask_end(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: LgEndCD,
    game: GameDTO, uow: UnitOfWork, t: Translator,
) -> None:  # fmt: skip
    """«End»/«Stop» asks first: its keyboard turns into «Yes, end it» / «Cancel» in place."""
    await common.ask_end(
        query, callback_answer, uow, t, game, tracker_id=callback_data.tid,
        kind=service.KINDS, shown=callback_data.v, yes=views.end_confirmed(t, callback_data),
        also=lambda tracker: service.may_stop(uow, game, tracker, query.from_user.id),
    )  # fmt: skip


def create_router() -> Router:
    router = Router(name=__name__)
    router.message.filter(F.chat.type.in_({"group", "supergroup"}))
    router.callback_query.filter(F.message.chat.type.in_({"group", "supergroup"}))
    lifegear = GameSystem("lifegear")
    router.message.register(open_fight, Command("fight"), lifegear, IsGM())
    router.message.register(gm_only, Command("fight"), lifegear)
    router.message.register(no_game, Command("fight"), ~HasGame())
    router.message.register(open_duel, Command("duel"), lifegear, IsGM())
    router.message.register(gm_only, Command("duel"), lifegear)
    router.message.register(no_game, Command("duel"), ~HasGame())
    router.callback_query.register(ask_end, LgEndCD.filter(), lifegear)
    for cd, action, params in BUTTONS:
        router.callback_query.register(_handler(action, params), cd.filter(), lifegear)
    return router
