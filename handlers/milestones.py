"""/milestone (GM): pick a kind → preview → confirm → notice with a one-hour «Undo»."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command, or_f
from aiogram.types import CallbackQuery, Message
from aiogram.utils.callback_answer import CallbackAnswer

from bot.i18n import Translator
from bot.services import ledger
from bot.services import milestones as service
from bot.services.trackers import core as trackers
from db.repositories.games import GameDTO
from db.repositories.users import UserDTO
from db.uow import UnitOfWork
from handlers.callbacks import notify
from handlers.filters import HasGame, IsGM
from handlers.games import gm_only, gm_only_button, no_game
from handlers.owned import own
from handlers.views import deferred as deferred_views
from handlers.views import milestones as views
from handlers.views.edit import edit_text
from handlers.views.milestones import (
    MilestoneCancelCD,
    MilestoneConfirmCD,
    MilestoneKindCD,
    MilestoneUndoCD,
)


async def start(message: Message, game: GameDTO, t: Translator) -> None:
    await message.answer(views.picker(t), reply_markup=views.picker_keyboard(t, game.system))


async def show_preview(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: MilestoneKindCD,
    game: GameDTO, t: Translator, locale: str, uow: UnitOfWork,
) -> None:  # fmt: skip
    message = own(query, callback_answer, t, MilestoneKindCD, kind=callback_data.kind)
    if message is None:
        return
    try:
        plan = await service.preview(uow, game, callback_data.kind)
    except service.MilestoneRefused as refused:
        notify(callback_answer, t(refused.reason), alert=True)
        return
    text = await _preview_text(uow, game, t, locale, plan)
    await edit_text(message, text, views.preview_keyboard(t, plan))


async def _preview_text(
    uow: UnitOfWork, game: GameDTO, t: Translator, locale: str, plan: service.Plan
) -> str:
    """The preview; during an open fight or scene it first warns that the milestone would
    change sheets mid-fight (the «Confirm» below is the GM's answer)."""
    text = views.preview(t, locale, plan)
    if plan.empty or await trackers.current(uow, game) is None:
        return text  # (nothing would change: nothing to warn of)
    return deferred_views.mid_fight(t) + "\n\n" + text


async def confirm(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: MilestoneConfirmCD,
    game: GameDTO, t: Translator, locale: str, uow: UnitOfWork, user: UserDTO,
) -> None:  # fmt: skip
    message = own(
        query, callback_answer, t, MilestoneConfirmCD, kind=callback_data.kind, fp=callback_data.fp
    )
    if message is None:
        return
    try:
        applied = await service.apply(
            uow, game, callback_data.kind, fingerprint=callback_data.fp,
            actor_user_id=user.id, actor_name=user.name, preview_message_id=message.message_id,
        )  # fmt: skip
    except service.MilestoneStale as stale:
        notify(callback_answer, views.stale(t), alert=True)
        plan = stale.plan
        text = await _preview_text(uow, game, t, locale, plan)
        await edit_text(message, text, views.preview_keyboard(t, plan))
        return
    except service.MilestoneRefused as refused:
        notify(callback_answer, t(refused.reason), alert=True)
        return
    await edit_text(
        message, views.notice(t, locale, applied, user.name), views.notice_keyboard(t, applied)
    )


async def undo(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: MilestoneUndoCD,
    game: GameDTO, t: Translator, uow: UnitOfWork, user: UserDTO,
) -> None:  # fmt: skip
    message = own(query, callback_answer, t, MilestoneUndoCD, batch=callback_data.batch)
    if message is None:  # a forged press, or an old copy of the button the undo took away
        if await service.already_undone(uow, game, callback_data.batch):
            notify(callback_answer, t(ledger.ALREADY_UNDONE), alert=True)
        return
    try:
        await service.undo(uow, game, batch=callback_data.batch, actor_user_id=user.id)
    except ledger.LedgerError as refused:
        notify(callback_answer, t(refused.reason), alert=True)
        return
    await edit_text(message, views.undone(t, message.html_text, user.name))


async def cancel(query: CallbackQuery, callback_answer: CallbackAnswer, t: Translator) -> None:
    message = own(query, callback_answer, t, MilestoneCancelCD)
    if message is not None:
        await edit_text(message, views.cancelled(t))


def create_router() -> Router:
    router = Router(name=__name__)
    router.message.filter(F.chat.type.in_({"group", "supergroup"}))
    router.callback_query.filter(F.message.chat.type.in_({"group", "supergroup"}))
    router.message.register(start, Command("milestone"), IsGM())
    router.message.register(gm_only, Command("milestone"), HasGame())
    router.message.register(no_game, Command("milestone"))
    router.callback_query.register(show_preview, MilestoneKindCD.filter(), IsGM())
    router.callback_query.register(confirm, MilestoneConfirmCD.filter(), IsGM())
    router.callback_query.register(undo, MilestoneUndoCD.filter(), IsGM())
    router.callback_query.register(cancel, MilestoneCancelCD.filter(), IsGM())
    any_milestone = or_f(
        MilestoneKindCD.filter(),
        MilestoneConfirmCD.filter(),
        MilestoneUndoCD.filter(),
        MilestoneCancelCD.filter(),
    )
    router.callback_query.register(gm_only_button, any_milestone)
    return router
