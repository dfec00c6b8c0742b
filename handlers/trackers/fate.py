"""fate tracker (issue 10): /conflict and /fight open the conflict's set-up; every button is
one step of the tracker (checked on the server: who pressed, which version); a reply to the
tracker names the advantage being created or the consequence about to be taken. Also the
free-invoke buttons of a rolled request card (issue 8)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, InlineKeyboardButton, Message
from aiogram.utils.callback_answer import CallbackAnswer

from bot.i18n import I18n, Translator
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
from handlers.trackers import common
from handlers.trackers.registry import register
from handlers.views import requests as request_views
from handlers.views.edit import edit_text
from handlers.views.trackers import fate as views

register(service.KIND, views.render)

Step = Callable[[UnitOfWork, GameDTO, TrackerDTO, Translator], Awaitable[TrackerDTO]]


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


async def _run(
    query: CallbackQuery, callback_answer: CallbackAnswer, tracker_id: int,
    data: dict[str, Any], action: Step,
) -> None:  # fmt: skip
    """Load the tracker (locked), take the step, commit, edit the message; a refusal is an
    alert and changes nothing (what the step wrote before refusing is rolled back)."""
    game: GameDTO = data["game"]
    uow: UnitOfWork = data["uow"]
    message = query.message
    if not isinstance(message, Message):
        return
    chat_t = common.chat_translator(data["i18n"], data.get("chat_info"))

    async def load_and_step() -> TrackerDTO:
        tracker = await core.load(uow, tracker_id, chat_id=message.chat.id, kind=service.KIND)
        return await action(uow, game, tracker, chat_t)

    await common.step_and_refresh(message, callback_answer, uow, data["t"], chat_t, load_and_step)


def _who(query: CallbackQuery) -> tuple[int, str]:
    return query.from_user.id, query.from_user.full_name


async def press_toggle(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: views.FzToggleCD,
    **data: Any,
) -> None:  # fmt: skip
    d, (uid, _name) = callback_data, _who(query)

    async def step(u: UnitOfWork, g: GameDTO, tr: TrackerDTO, ct: Translator) -> TrackerDTO:
        return await service.toggle(u, g, tr, v=d.v, user_id=uid, pid=d.pid)

    await _run(query, callback_answer, d.tracker_id, data, step)


async def press_start(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: views.FzStartCD,
    **data: Any,
) -> None:  # fmt: skip
    d, (uid, _name) = callback_data, _who(query)

    async def step(u: UnitOfWork, g: GameDTO, tr: TrackerDTO, ct: Translator) -> TrackerDTO:
        return await service.start(u, g, tr, v=d.v, user_id=uid)

    await _run(query, callback_answer, d.tracker_id, data, step)


async def press_choice(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: views.FzChoiceCD,
    **data: Any,
) -> None:  # fmt: skip
    d, (uid, _name) = callback_data, _who(query)

    async def step(u: UnitOfWork, g: GameDTO, tr: TrackerDTO, ct: Translator) -> TrackerDTO:
        return await service.choose(u, g, tr, v=d.v, user_id=uid, choice=d.c)

    await _run(query, callback_answer, d.tracker_id, data, step)


async def press_attack(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: views.FzAttackCD,
    **data: Any,
) -> None:  # fmt: skip
    d, (uid, name) = callback_data, _who(query)

    async def step(u: UnitOfWork, g: GameDTO, tr: TrackerDTO, ct: Translator) -> TrackerDTO:
        return await service.attack_roll(
            u, g, tr, v=d.v, user_id=uid, user_name=name, target=d.target, skill=d.skill
        )

    await _run(query, callback_answer, d.tracker_id, data, step)


async def press_defend(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: views.FzDefendCD,
    **data: Any,
) -> None:  # fmt: skip
    d, (uid, name) = callback_data, _who(query)

    async def step(u: UnitOfWork, g: GameDTO, tr: TrackerDTO, ct: Translator) -> TrackerDTO:
        return await service.defence_roll(
            u, g, tr, v=d.v, user_id=uid, user_name=name, skill=d.skill, t=ct
        )

    await _run(query, callback_answer, d.tracker_id, data, step)


async def press_invoke(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: views.FzInvokeCD,
    **data: Any,
) -> None:  # fmt: skip
    d, (uid, name) = callback_data, _who(query)

    async def step(u: UnitOfWork, g: GameDTO, tr: TrackerDTO, ct: Translator) -> TrackerDTO:
        return await service.free_invoke(
            u,
            g,
            tr,
            v=d.v,
            user_id=uid,
            user_name=name,
            holder=d.h,
            zone=d.z,
            aspect=d.a,
            reroll=d.r,
        )

    await _run(query, callback_answer, d.tracker_id, data, step)


async def press_accept(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: views.FzAcceptCD,
    **data: Any,
) -> None:  # fmt: skip
    d, (uid, _name) = callback_data, _who(query)

    async def step(u: UnitOfWork, g: GameDTO, tr: TrackerDTO, ct: Translator) -> TrackerDTO:
        return await service.accept(u, g, tr, v=d.v, user_id=uid, t=ct)

    await _run(query, callback_answer, d.tracker_id, data, step)


async def press_absorb(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: views.FzAbsorbCD,
    **data: Any,
) -> None:  # fmt: skip
    d, (uid, _name) = callback_data, _who(query)

    async def step(u: UnitOfWork, g: GameDTO, tr: TrackerDTO, ct: Translator) -> TrackerDTO:
        return await service.absorb(u, g, tr, v=d.v, user_id=uid, code=d.code, t=ct)

    await _run(query, callback_answer, d.tracker_id, data, step)


async def press_advantage(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: views.FzAdvantageCD,
    **data: Any,
) -> None:  # fmt: skip
    d, (uid, name) = callback_data, _who(query)

    async def step(u: UnitOfWork, g: GameDTO, tr: TrackerDTO, ct: Translator) -> TrackerDTO:
        return await service.advantage_roll(
            u, g, tr, v=d.v, user_id=uid, user_name=name, skill=d.skill, t=ct
        )

    await _run(query, callback_answer, d.tracker_id, data, step)


async def press_move(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: views.FzMoveCD,
    **data: Any,
) -> None:  # fmt: skip
    d, (uid, _name) = callback_data, _who(query)

    async def step(u: UnitOfWork, g: GameDTO, tr: TrackerDTO, ct: Translator) -> TrackerDTO:
        return await service.move(u, g, tr, v=d.v, user_id=uid, zone=d.z)

    await _run(query, callback_answer, d.tracker_id, data, step)


async def press_end(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: views.FzEndCD,
    **data: Any,
) -> None:  # fmt: skip
    d, (uid, _name) = callback_data, _who(query)

    async def step(u: UnitOfWork, g: GameDTO, tr: TrackerDTO, ct: Translator) -> TrackerDTO:
        return await service.end(u, g, tr, v=d.v, user_id=uid, keep_stress=d.keep)

    await _run(query, callback_answer, d.tracker_id, data, step)


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
    return {"tracker": tracker} if naming else False


async def name_reply(
    message: Message, tracker: TrackerDTO, game: GameDTO, uow: UnitOfWork, user: UserDTO,
    i18n: I18n, chat_info: ChatDTO | None, t: Translator,
) -> None:  # fmt: skip
    try:
        tracker = await core.load(uow, tracker.id, chat_id=message.chat.id, kind=service.KIND)
        tracker = await service.name_pending(
            uow, game, tracker, user_id=user.id, text=message.text or ""
        )
    except core.TrackerRefused as refused:
        await uow.rollback()
        await message.reply(t(refused.reason))
        return
    await uow.commit()
    await common.redraw(message, uow, common.chat_translator(i18n, chat_info), tracker)


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
    cb.register(press_toggle, views.FzToggleCD.filter(), HasGame())
    cb.register(press_start, views.FzStartCD.filter(), HasGame())
    cb.register(press_choice, views.FzChoiceCD.filter(), HasGame())
    cb.register(press_attack, views.FzAttackCD.filter(), HasGame())
    cb.register(press_defend, views.FzDefendCD.filter(), HasGame())
    cb.register(press_invoke, views.FzInvokeCD.filter(), HasGame())
    cb.register(press_accept, views.FzAcceptCD.filter(), HasGame())
    cb.register(press_absorb, views.FzAbsorbCD.filter(), HasGame())
    cb.register(press_advantage, views.FzAdvantageCD.filter(), HasGame())
    cb.register(press_move, views.FzMoveCD.filter(), HasGame())
    cb.register(press_end, views.FzEndCD.filter(), HasGame())
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
            uow, request_id=d.request_id, chat_id=message.chat.id, user_id=user.id,
            user_name=user.name, v=d.v, zone=d.z, aspect=d.a, mode=d.m,
        ),
        refusals=(RequestRefused, core.TrackerRefused),
    )  # fmt: skip
    if done is None:
        return
    invoked, tracker = done
    target = await uow.users.get(invoked.request.target_user_id)
    await edit_text(
        message,
        request_views.invoked_card(t, locale, invoked, target.name if target else user.name),
        request_views.invoke_menu_keyboard(t, invoked.request.id),
    )
    await common.redraw(message, uow, common.chat_translator(i18n, chat_info), tracker)
