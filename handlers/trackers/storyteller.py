"""storyteller tracker (issue 10): /scene and /fight open the scene; its buttons run set-up,
initiative, turns, rolls, health, extended actions and the end. Handlers only parse the press,
call the use case and refresh the one message."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, InlineKeyboardMarkup, Message
from aiogram.utils.callback_answer import CallbackAnswer

from bot.i18n import I18n, Translator
from bot.services import ledger
from bot.services.trackers import core
from bot.services.trackers import storyteller as service
from db.repositories.chats import ChatDTO
from db.repositories.games import GameDTO
from db.repositories.trackers import TrackerDTO
from db.repositories.users import UserDTO
from db.uow import UnitOfWork
from handlers.callbacks import notify
from handlers.filters import GameSystem, HasGame, IsGM
from handlers.games import gm_only, no_game
from handlers.trackers.common import (
    chat_translator,
    open_and_post,
    refresh,
    step_and_refresh,
    step_on,
)
from handlers.trackers.registry import register
from handlers.views.edit import edit_text
from handlers.views.trackers import storyteller as views

SYSTEM = "storyteller"


async def render(
    uow: UnitOfWork, t: Translator, tracker: TrackerDTO
) -> tuple[str, InlineKeyboardMarkup | None]:
    state = tracker.state
    found = await service.sheets(uow, state.get("order") or [])
    cards = await uow.trackers.open_for_game(tracker.game_id, exclusive=False)
    return views.scene_text(t, state, found, cards), views.scene_keyboard(t, tracker, found)


register(service.KIND, render)


async def open_scene(
    message: Message, game: GameDTO, uow: UnitOfWork, user: UserDTO, i18n: I18n,
    chat_info: ChatDTO | None, t: Translator,
) -> None:  # fmt: skip
    fight = bool(message.text and message.text.lstrip("/").lower().startswith("fight"))
    await open_and_post(
        message,
        uow,
        t,
        chat_translator(i18n, chat_info),
        lambda: service.open_scene(uow, game, actor_user_id=user.id, fight=fight),
    )


UseCase = Callable[..., Awaitable[TrackerDTO]]


class _Pressed(Protocol):
    tracker_id: int
    v: int


async def _apply(
    query: CallbackQuery, callback_answer: CallbackAnswer, uow: UnitOfWork, i18n: I18n,
    chat_info: ChatDTO | None, t: Translator, game: GameDTO, pressed: _Pressed,
    use_case: UseCase, **params: Any,
) -> None:  # fmt: skip
    """Run one use case for this press on the tracker and version the button names; a refusal
    is an alert and nothing is written; otherwise commit and refresh the message."""
    message = query.message
    if not isinstance(message, Message):
        return
    await step_and_refresh(
        message, callback_answer, uow, t, chat_translator(i18n, chat_info),
        lambda: use_case(
            uow, game, pressed.tracker_id, chat_id=message.chat.id, v=pressed.v,
            user_id=query.from_user.id, **params,
        ),
        # LedgerError: e.g. a participant retired since the scene opened
        refusals=(core.TrackerRefused, ledger.LedgerError),
    )  # fmt: skip


async def press_toggle(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: views.ZtToggleCD,
    game: GameDTO, uow: UnitOfWork, i18n: I18n, chat_info: ChatDTO | None, t: Translator,
) -> None:  # fmt: skip
    await _apply(query, callback_answer, uow, i18n, chat_info, t, game, callback_data,
                 service.toggle, character_id=callback_data.cid)  # fmt: skip


async def press_start(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: views.ZtStartCD,
    game: GameDTO, uow: UnitOfWork, user: UserDTO, i18n: I18n, chat_info: ChatDTO | None,
    t: Translator,
) -> None:  # fmt: skip
    await _apply(query, callback_answer, uow, i18n, chat_info, t, game, callback_data,
                 service.start, user_name=user.name)  # fmt: skip


async def press_next(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: views.ZtNextCD,
    game: GameDTO, uow: UnitOfWork, i18n: I18n, chat_info: ChatDTO | None, t: Translator,
) -> None:  # fmt: skip
    await _apply(query, callback_answer, uow, i18n, chat_info, t, game, callback_data,
                 service.next_turn)  # fmt: skip


async def press_roll(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: views.ZtRollCD,
    game: GameDTO, uow: UnitOfWork, user: UserDTO, i18n: I18n, chat_info: ChatDTO | None,
    t: Translator,
) -> None:  # fmt: skip
    cd = callback_data
    await _apply(query, callback_answer, uow, i18n, chat_info, t, game, cd, service.roll,
                 user_name=user.name, attribute=cd.a, ability=cd.b, difficulty=cd.d,
                 willpower=bool(cd.w))  # fmt: skip


async def press_health(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: views.ZtHealthCD,
    game: GameDTO, uow: UnitOfWork, user: UserDTO, i18n: I18n, chat_info: ChatDTO | None,
    t: Translator,
) -> None:  # fmt: skip
    """One level of damage or healing; the menu stays open for the next level (it says «one
    level a press»), under the scene redrawn with the change. «↩️» closes it."""
    message, cd = query.message, callback_data
    if not isinstance(message, Message):
        return
    tracker = await step_on(
        message, callback_answer, uow, t,
        lambda: service.health(
            uow, game, cd.tracker_id, chat_id=message.chat.id, v=cd.v,
            user_id=query.from_user.id, user_name=user.name, character_id=cd.c, op=cd.op,
        ),
        refusals=(core.TrackerRefused, ledger.LedgerError),
    )  # fmt: skip
    if tracker is not None:
        view = views.ZtViewCD(tracker_id=tracker.id, v=tracker.version, s="k", m="h", c=cd.c)
        await _draw_chooser(message, uow, chat_translator(i18n, chat_info), tracker, view)


async def press_extended(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: views.ZtExtStartCD,
    game: GameDTO, uow: UnitOfWork, i18n: I18n, chat_info: ChatDTO | None, t: Translator,
) -> None:  # fmt: skip
    cd = callback_data
    await _apply(query, callback_answer, uow, i18n, chat_info, t, game, cd,
                 service.start_extended, attribute=cd.a, ability=cd.b, difficulty=cd.d,
                 target=cd.g)  # fmt: skip


async def press_extended_roll(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: views.ZtExtRollCD,
    game: GameDTO, uow: UnitOfWork, user: UserDTO, i18n: I18n, chat_info: ChatDTO | None,
    t: Translator,
) -> None:  # fmt: skip
    await _apply(query, callback_answer, uow, i18n, chat_info, t, game, callback_data,
                 service.roll_extended, user_name=user.name)  # fmt: skip


async def press_end(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: views.ZtEndCD,
    game: GameDTO, uow: UnitOfWork, i18n: I18n, chat_info: ChatDTO | None, t: Translator,
) -> None:  # fmt: skip
    await _apply(query, callback_answer, uow, i18n, chat_info, t, game, callback_data,
                 service.end)  # fmt: skip


async def press_view(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: views.ZtViewCD,
    game: GameDTO, uow: UnitOfWork, i18n: I18n, chat_info: ChatDTO | None, t: Translator,
) -> None:  # fmt: skip
    """A chooser only swaps the buttons: nothing is written, the version stays."""
    message, cd = query.message, callback_data
    if not isinstance(message, Message):
        return
    try:
        tracker = await service.check_view(
            uow, game, cd.tracker_id, chat_id=message.chat.id, v=cd.v,
            user_id=query.from_user.id, mode=cd.m if cd.s != "m" else "",
        )  # fmt: skip
        if not core.shown_on(tracker, chat_id=message.chat.id, message_id=message.message_id):
            raise core.NotItsMessage()
    except core.TrackerRefused as refused:
        notify(callback_answer, t(refused.reason), alert=True)
        return
    chat_t = chat_translator(i18n, chat_info)
    if cd.s == "m":
        await refresh(message, uow, chat_t, tracker)
        return
    await _draw_chooser(message, uow, chat_t, tracker, cd)


async def _draw_chooser(
    message: Message, uow: UnitOfWork, chat_t: Translator, tracker: TrackerDTO,
    cd: views.ZtViewCD,
) -> None:  # fmt: skip
    """The scene with chooser ``cd``'s prompt and buttons in place of its own."""
    # the health screen acts on the character chosen there, the others on the actor
    whose = cd.c if cd.s == "k" else service.actor_id(tracker.state)
    found = await service.sheets(uow, [whose]) if whose is not None else {}
    sheet = found[whose][1] if whose in found else None
    text, _keyboard = await render(uow, chat_t, tracker)
    prompt = views.chooser_prompt(chat_t, tracker.state, cd)
    await edit_text(
        message, f"{text}\n\n{prompt}", views.chooser_keyboard(chat_t, tracker, cd, sheet)
    )


def create_router() -> Router:
    router = Router(name=__name__)
    router.message.filter(F.chat.type.in_({"group", "supergroup"}))
    router.callback_query.filter(F.message.chat.type.in_({"group", "supergroup"}))
    commands = Command("scene", "fight")
    router.message.register(open_scene, commands, GameSystem(SYSTEM), IsGM())
    router.message.register(gm_only, commands, GameSystem(SYSTEM))
    router.message.register(no_game, commands, ~HasGame())
    system = GameSystem(SYSTEM)
    router.callback_query.register(press_toggle, views.ZtToggleCD.filter(), system)
    router.callback_query.register(press_start, views.ZtStartCD.filter(), system)
    router.callback_query.register(press_next, views.ZtNextCD.filter(), system)
    router.callback_query.register(press_roll, views.ZtRollCD.filter(), system)
    router.callback_query.register(press_health, views.ZtHealthCD.filter(), system)
    router.callback_query.register(press_extended, views.ZtExtStartCD.filter(), system)
    router.callback_query.register(press_extended_roll, views.ZtExtRollCD.filter(), system)
    router.callback_query.register(press_end, views.ZtEndCD.filter(), system)
    router.callback_query.register(press_view, views.ZtViewCD.filter(), system)
    return router
