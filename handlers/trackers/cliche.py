"""cliche tracker (issue 10): /fight, the fight's buttons, and its registered renderer."""

from __future__ import annotations

from typing import Any

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.filters.callback_data import CallbackData
from aiogram.types import CallbackQuery, Message
from aiogram.utils.callback_answer import CallbackAnswer

from bot.i18n import I18n, Translator
from bot.services import ledger
from bot.services.trackers import cliche as service
from bot.services.trackers import core
from db.repositories.chats import ChatDTO
from db.repositories.games import GameDTO
from db.repositories.users import UserDTO
from db.uow import UnitOfWork
from handlers.filters import GameSystem, HasGame, IsGM
from handlers.games import gm_only, no_game
from handlers.trackers import common
from handlers.trackers.common import chat_translator, open_and_post, step_and_refresh
from handlers.trackers.registry import register
from handlers.views.trackers import cliche as views

register(service.KIND, views.render)


async def open_fight(
    message: Message, game: GameDTO, uow: UnitOfWork, user: UserDTO, i18n: I18n,
    chat_info: ChatDTO | None, t: Translator,
) -> None:  # fmt: skip
    await open_and_post(
        message,
        uow,
        t,
        chat_translator(i18n, chat_info),
        lambda: service.open_fight(uow, game, actor_user_id=user.id),
    )


def _op(data: CallbackData) -> service.Op:
    match data:
        case views.CfSideCD(c=c):
            return service.Side(c)
        case views.CfFocusCD(c=c):
            return service.Focus(c)
        case views.CfClicheCD(c=c, i=i):
            return service.PickCliche(c, i)
        case views.CfFitCD(c=c):
            return service.Fit(c)
        case views.CfOptionCD(o=o):
            return service.Option(o)
        case views.CfStartCD():
            return service.Start()
        case views.CfAttackCD(u=u):
            return service.Attack(u)
        case views.CfTargetCD(u=u):
            return service.Target(u)
        case views.CfRollCD(f=f):
            return service.Roll(f)
        case views.CfPumpCD(f=f):
            return service.Pump(f)
        case views.CfBonusCD(f=f):
            return service.Bonus(f)
        case views.CfSwitchCD(f=f):
            return service.Switch(f)
        case views.CfTeamModeCD(on=on):
            return service.TeamMode(on)
        case views.CfTeamToggleCD(f=f):
            return service.TeamToggle(f)
        case views.CfTeamFormCD():
            return service.TeamForm()
        case views.CfDisbandCD(u=u):
            return service.Disband(u)
        case views.CfLeaveCD(f=f):
            return service.Leave(f)
        case views.CfDamageCD(f=f, s=s):
            return service.Damage(f, s)
    return service.End()


async def press(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: Any, game: GameDTO,
    uow: UnitOfWork, user: UserDTO, i18n: I18n, chat_info: ChatDTO | None, t: Translator,
    locale: str,
) -> None:  # fmt: skip
    message = query.message
    if not isinstance(message, Message):
        return
    await step_and_refresh(
        message, callback_answer, uow, t, chat_translator(i18n, chat_info),
        lambda: service.press(
            uow, game, tracker_id=callback_data.t, chat_id=message.chat.id,
            version=callback_data.v, user_id=user.id, user_name=user.name,
            op=_op(callback_data),
        ),
        refusals=(core.TrackerRefused, ledger.LedgerError),
        rollback=False,  # the use case writes nothing before it refuses
    )  # fmt: skip


async def ask_end(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: views.CfEndCD,
    game: GameDTO, uow: UnitOfWork, t: Translator,
) -> None:  # fmt: skip
    """«End» asks first: its keyboard turns into «Yes, end it» / «Cancel» in place."""
    await common.ask_end(
        query, callback_answer, uow, t, game, tracker_id=callback_data.t, kind=service.KIND,
        shown=callback_data.v, yes=views.end_confirmed(t, callback_data),
    )  # fmt: skip


BUTTONS = (
    views.CfSideCD, views.CfFocusCD, views.CfClicheCD, views.CfFitCD, views.CfOptionCD,
    views.CfStartCD, views.CfAttackCD, views.CfTargetCD, views.CfRollCD, views.CfPumpCD,
    views.CfBonusCD, views.CfSwitchCD, views.CfTeamModeCD, views.CfTeamToggleCD,
    views.CfTeamFormCD, views.CfDisbandCD, views.CfLeaveCD, views.CfDamageCD, views.CfEndYesCD,
)  # fmt: skip


def create_router() -> Router:
    router = Router(name=__name__)
    router.message.filter(F.chat.type.in_({"group", "supergroup"}))
    router.callback_query.filter(F.message.chat.type.in_({"group", "supergroup"}))
    router.message.register(open_fight, Command("fight"), GameSystem("cliche"), IsGM())
    router.message.register(gm_only, Command("fight"), GameSystem("cliche"))
    router.message.register(no_game, Command("fight"), ~HasGame())
    router.callback_query.register(ask_end, views.CfEndCD.filter(), GameSystem("cliche"))
    for button in BUTTONS:
        router.callback_query.register(press, button.filter(), GameSystem("cliche"))
    return router
