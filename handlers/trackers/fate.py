"""fate tracker (issue 10): /conflict and /fight open the conflict's set-up; every button is
one step of the tracker (checked on the server: who pressed, which version); a reply to the
tracker names the advantage being created or the consequence about to be taken. Also the
free-invoke buttons of a rolled request card (issue 8)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.filters.callback_data import CallbackData
from aiogram.types import CallbackQuery, InlineKeyboardButton, Message, User
from aiogram.utils.callback_answer import CallbackAnswer

from bot.i18n import I18n, Translator
from bot.services import unit
from bot.services.requests import RequestRefused
from bot.services.trackers import core
from bot.services.trackers import fate as service
from db.repositories.chats import ChatDTO
from db.repositories.games import GameDTO
from db.repositories.requests import RequestDTO
from db.repositories.trackers import TrackerDTO
from db.repositories.users import UserDTO
from db.uow import UnitOfWork
from handlers.filters import GameSystem, HasGame, IsGM
from handlers.games import gm_only, no_game
from handlers.request_builder import roller_name
from handlers.trackers import common
from handlers.trackers.registry import register
from handlers.views import requests as request_views
from handlers.views.edit import edit_text
from handlers.views.trackers import fate as views

register(service.KIND, views.render)


async def open_command(
    message: Message, command: CommandObject, game: GameDTO, uow: UnitOfWork, user: UserDTO,
    i18n: I18n, chat_info: ChatDTO | None, t: Translator,
) -> None:  # fmt: skip
    await common.open_and_post(
        message,
        uow,
        t,
        common.chat_translator(i18n, chat_info),
        lambda: service.open_conflict(uow, game, user_id=user.id, text=command.args),
    )


Press = Callable[[Any, UnitOfWork, GameDTO, TrackerDTO, User, Translator], Awaitable[TrackerDTO]]


def _button(press: Press) -> Callable[..., Awaitable[None]]:
    """One button's handler: load the tracker (locked), ``press`` takes the step with the
    callback data, the presser and the chat's translator; commit and edit the message. A
    refusal is an alert and changes nothing (what the step wrote before refusing is rolled
    back)."""

    async def handle(
        query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: Any, **data: Any
    ) -> None:
        game: GameDTO = data["game"]
        uow: UnitOfWork = data["uow"]
        message = query.message
        if not isinstance(message, Message):
            return
        chat_t = common.chat_translator(data["i18n"], data.get("chat_info"))

        async def step() -> TrackerDTO:
            tracker = await core.load(
                uow, callback_data.tracker_id, chat_id=message.chat.id, kind=service.KIND,
                message_id=message.message_id,
            )  # fmt: skip
            return await press(callback_data, uow, game, tracker, query.from_user, chat_t)

        await common.step_and_refresh(message, callback_answer, uow, data["t"], chat_t, step)

    return handle


# (callback data, its step: d = the pressed data, who = the presser, ct = the chat's language)
BUTTONS: tuple[tuple[type[CallbackData], Press], ...] = (
    (views.FzToggleCD, lambda d, u, g, tr, who, ct: service.toggle(
        u, g, tr, v=d.v, user_id=who.id, pid=d.pid)),
    (views.FzStartCD, lambda d, u, g, tr, who, ct: service.start(
        u, g, tr, v=d.v, user_id=who.id)),
    (views.FzChoiceCD, lambda d, u, g, tr, who, ct: service.choose(
        u, g, tr, v=d.v, user_id=who.id, choice=d.c)),
    (views.FzAttackCD, lambda d, u, g, tr, who, ct: service.attack_roll(
        u, g, tr, v=d.v, user_id=who.id, user_name=who.full_name, target=d.target,
        skill=d.skill)),
    (views.FzDefendCD, lambda d, u, g, tr, who, ct: service.defence_roll(
        u, g, tr, v=d.v, user_id=who.id, user_name=who.full_name, skill=d.skill, t=ct)),
    (views.FzInvokeCD, lambda d, u, g, tr, who, ct: service.free_invoke(
        u, g, tr, v=d.v, user_id=who.id, user_name=who.full_name, holder=d.h, zone=d.z,
        aspect=d.a, reroll=d.r)),
    (views.FzAcceptCD, lambda d, u, g, tr, who, ct: service.accept(
        u, g, tr, v=d.v, user_id=who.id, t=ct)),
    (views.FzAbsorbCD, lambda d, u, g, tr, who, ct: service.absorb(
        u, g, tr, v=d.v, user_id=who.id, code=d.code, t=ct)),
    (views.FzAdvantageCD, lambda d, u, g, tr, who, ct: service.advantage_roll(
        u, g, tr, v=d.v, user_id=who.id, user_name=who.full_name, skill=d.skill, t=ct)),
    (views.FzPaidInvokeCD, lambda d, u, g, tr, who, ct: service.paid_invoke(
        u, g, tr, v=d.v, user_id=who.id, holder=d.h, index=d.i)),
    (views.FzAdvDiffCD, lambda d, u, g, tr, who, ct: service.advantage_difficulty(
        u, g, tr, v=d.v, user_id=who.id, diff=d.d)),
    (views.FzAdvOpposerCD, lambda d, u, g, tr, who, ct: service.advantage_opposer(
        u, g, tr, v=d.v, user_id=who.id, pid=d.pid)),
    (views.FzAdvOpposeCD, lambda d, u, g, tr, who, ct: service.advantage_oppose(
        u, g, tr, v=d.v, user_id=who.id, user_name=who.full_name, skill=d.skill, t=ct)),
    (views.FzMoveCD, lambda d, u, g, tr, who, ct: service.move(
        u, g, tr, v=d.v, user_id=who.id, zone=d.z)),
    (views.FzEndYesCD, lambda d, u, g, tr, who, ct: service.end(
        u, g, tr, v=d.v, user_id=who.id, keep_stress=d.keep)),
)  # fmt: skip


async def _naming(message: Message, uow: UnitOfWork, game: GameDTO) -> bool | dict[str, Any]:
    """A text reply to the open conflict's message while an advantage or a consequence awaits
    its name."""
    reply = message.reply_to_message
    if reply is None or not message.text or message.text.startswith("/"):
        return False
    tracker = await core.current(uow, game)
    if tracker is None or tracker.kind != service.KIND or tracker.message_id != reply.message_id:
        return False
    pending = tracker.state.get("pending") or {}
    naming = pending.get("kind") == service.ADVANTAGE or pending.get("stage") == "absorb"
    # or an advantage just made under its default name, until the next action
    naming = naming or (not pending and bool(tracker.state.get("unnamed")))
    return {"tracker": tracker} if naming else False


async def name_reply(
    message: Message, tracker: TrackerDTO, game: GameDTO, uow: UnitOfWork, user: UserDTO,
    i18n: I18n, chat_info: ChatDTO | None, t: Translator,
) -> None:  # fmt: skip

    async def name() -> TrackerDTO:
        loaded = await core.load(uow, tracker.id, chat_id=message.chat.id, kind=service.KIND)
        return await service.name_pending(
            uow, game, loaded, user_id=user.id, text=message.text or ""
        )

    try:
        tracker = await unit.committed(uow, name, undo_on=(core.TrackerRefused,))
    except core.TrackerRefused as refused:
        await message.reply(t(refused.reason))
        return
    await common.redraw(message, uow, common.chat_translator(i18n, chat_info), tracker)


async def ask_end(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: views.FzEndCD,
    game: GameDTO, uow: UnitOfWork, t: Translator,
) -> None:  # fmt: skip
    """«End» asks first: its keyboard turns into «Yes, end it» / «Cancel» in place."""
    await common.ask_end(
        query, callback_answer, uow, t, game, tracker_id=callback_data.tracker_id,
        kind=service.KIND, shown=callback_data.v, yes=views.end_confirmed(t, callback_data),
    )  # fmt: skip


def create_router() -> Router:
    router = Router(name=__name__)
    router.message.filter(F.chat.type.in_({"group", "supergroup"}))
    router.callback_query.filter(F.message.chat.type.in_({"group", "supergroup"}))
    words = Command("conflict", "fight")
    router.message.register(open_command, words, GameSystem("fate"), IsGM())
    router.message.register(gm_only, words, GameSystem("fate"))
    router.message.register(no_game, words, ~HasGame())
    router.message.register(name_reply, F.reply_to_message, F.text, GameSystem("fate"), _naming)
    cb = router.callback_query
    cb.register(ask_end, views.FzEndCD.filter(), HasGame())
    for data, press in BUTTONS:
        cb.register(_button(press), data.filter(), HasGame())
    cb.register(press_request_invoke, views.FzRequestInvokeCD.filter())
    return router


# --- free invokes on a roll request card (issue 8) ---------------------------------------------


async def request_invoke_rows(
    uow: UnitOfWork, t: Translator, request: RequestDTO
) -> list[list[InlineKeyboardButton]]:
    """Rows for a rolled request's invoke menu: the conflict's aspects on which the player's
    character holds free invokes (none when no conflict is open)."""
    found = await service.free_invokes_for_request(uow, request)
    if found is None:
        return []
    tracker, _holder, aspects = found
    return views.request_invoke_rows(t, request.id, tracker, aspects)


async def press_request_invoke(
    query: CallbackQuery, callback_answer: CallbackAnswer,
    callback_data: views.FzRequestInvokeCD, t: Translator, locale: str, uow: UnitOfWork,
    user: UserDTO, i18n: I18n, chat_info: ChatDTO | None,
) -> None:  # fmt: skip
    message = query.message
    if not isinstance(message, Message):
        return
    d = callback_data
    done = await common.attempt(
        callback_answer, uow, t,
        lambda: service.invoke_on_request(
            uow, request_id=d.request_id, chat_id=message.chat.id,
            message_id=message.message_id, user_id=user.id, user_name=user.name, v=d.v,
            zone=d.z, aspect=d.a, mode=d.m,
        ),
        refusals=(RequestRefused, core.TrackerRefused),
    )  # fmt: skip
    if done is None:
        return
    invoked, tracker = done
    target = await uow.users.get(invoked.request.target_user_id)
    player = await roller_name(uow, t, invoked.request, target.name if target else user.name)
    await edit_text(
        message,
        request_views.invoked_card(t, locale, invoked, player),
        request_views.invoke_menu_keyboard(t, invoked.request.id),
    )
    await common.redraw(message, uow, common.chat_translator(i18n, chat_info), tracker)
