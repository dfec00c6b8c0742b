"""/res and the resource panel: every press is one ledger change, checked on the server."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from aiogram import Bot, F, Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command, CommandObject, StateFilter
from aiogram.filters.callback_data import CallbackData
from aiogram.fsm.context import FSMContext
from aiogram.fsm.state import State, StatesGroup
from aiogram.types import CallbackQuery, Message
from aiogram.utils.callback_answer import CallbackAnswer

from bot.i18n import Translator
from bot.services import grants as grant_service
from bot.services import names, own_characters
from bot.services import panels as panel_service
from bot.services import resources as service
from db.repositories.games import GameDTO
from db.repositories.users import UserDTO
from db.uow import UnitOfWork
from engine.errors import EngineError
from engine.systems.fate import Nature, SlotId
from handlers import grants
from handlers.callbacks import notify
from handlers.filters import HadGame, HasGame
from handlers.games import no_game
from handlers.owned import own
from handlers.views import characters as character_views
from handlers.views import resources as views
from handlers.views.edit import edit_text
from handlers.views.safe import error_text
from handlers.wizards.common import clean_text


class ConsequenceSG(StatesGroup):
    aspect = State()


_TO_OP: Final[dict[type[CallbackData], Callable[[Any], service.Op]]] = {
    views.FatePointCD: lambda d: service.FatePoints(d.delta),
    views.StressCD: lambda d: service.Stress(d.track, d.box, d.mark),
    views.ClearSlotCD: lambda d: service.ClearConsequence(d.slot),
    views.PoolCD: lambda d: service.Pool(d.trait, d.delta),
    views.ClicheDiceCD: lambda d: service.ClicheDice(d.index, d.key, d.delta),
    views.GearStateCD: lambda d: service.GearState(d.index, d.key, d.state),
    views.MatterStateCD: lambda d: service.MatterState(d.state, d.on),
    views.MatterHealthCD: lambda d: service.MatterHealth(d.delta),
}


# Every button of a character's panel: a press that changes the panel must come from that
# character's panel (``own``), never from another message.
PANEL: Final[tuple[type[CallbackData], ...]] = (
    views.ResViewCD,
    views.TakeSlotCD,
    views.UndoCD,
    *_TO_OP,
)


async def open_command(
    message: Message, command: CommandObject, game: GameDTO, t: Translator, locale: str,
    uow: UnitOfWork, user: UserDTO,
) -> None:  # fmt: skip
    found = await service.character_for_command(uow, game, user.id, command.args)
    if isinstance(found, (names.NotFound, names.Ambiguous)):
        await message.answer(character_views.unresolved(t, found))
        return
    if found is None:
        await message.answer(views.usage(t, await service.active_names(uow, game)))
        return
    sheet = service.load(found)
    if found.status != "active" or game.archived:  # to read, changeable by no one
        line = views.archived_line(t)
        await message.answer(views.panel_text(t, locale, found, sheet, line=line))
        return
    asks = await grant_service.gains_asked(uow, game, found)
    sent = await message.answer(
        views.panel_text(t, locale, found, sheet),
        reply_markup=views.panel_keyboard(t, locale, found, sheet, asks=asks),
    )
    await panel_service.remember(uow, found, sent.chat.id, sent.message_id, locale)


async def open_button(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: views.ResOpenCD,
    game: GameDTO, t: Translator, locale: str, uow: UnitOfWork,
) -> None:  # fmt: skip
    try:
        found = await service.viewable(uow, game, callback_data.character_id)
    except service.Refused as refused:
        notify(callback_answer, t(refused.reason), alert=True)
        return
    sheet = service.load(found)
    asks = await grant_service.gains_asked(uow, game, found)
    if isinstance(query.message, Message):
        sent = await query.message.answer(
            views.panel_text(t, locale, found, sheet),
            reply_markup=views.panel_keyboard(t, locale, found, sheet, asks=asks),
        )
        await panel_service.remember(uow, found, sent.chat.id, sent.message_id, locale)


async def switch_view(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: views.ResViewCD,
    game: GameDTO, t: Translator, locale: str, uow: UnitOfWork, user: UserDTO,
) -> None:  # fmt: skip
    message = own(query, callback_answer, t, *PANEL, character_id=callback_data.character_id)
    if message is None:
        return
    try:
        found = await service.changeable(uow, game, callback_data.character_id, user.id)
    except service.Refused as refused:
        notify(callback_answer, t(refused.reason), alert=True)
        return
    sheet = service.load(found)
    asks = await grant_service.gains_asked(uow, game, found)
    keyboard = views.panel_keyboard(t, locale, found, sheet, callback_data.view, asks=asks)
    await edit_text(message, views.panel_text(t, locale, found, sheet), keyboard)


async def press(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: Any, game: GameDTO,
    t: Translator, locale: str, uow: UnitOfWork, user: UserDTO,
) -> None:  # fmt: skip
    message = own(query, callback_answer, t, *PANEL, character_id=callback_data.character_id)
    if message is None:
        return
    op = _TO_OP[type(callback_data)](callback_data)
    if await grant_service.needs_grant(uow, game, user.id, op):  # a player's gain: the GM's call
        await grants.ask(
            message, callback_answer, t, uow, game, user, callback_data.character_id, op
        )
        return
    applied = await _apply(callback_answer, t, locale, uow, game, user, callback_data, op)
    if applied is not None:
        asks = await grant_service.gains_asked(uow, game, applied.character)
        await _show(message, t, locale, applied, user.name, asks)


async def _apply(
    callback_answer: CallbackAnswer, t: Translator, locale: str, uow: UnitOfWork, game: GameDTO,
    user: UserDTO, callback_data: Any, op: service.Op,
) -> service.Applied | None:  # fmt: skip
    try:
        applied = await service.apply(
            uow, game=game, user_id=user.id, character_id=callback_data.character_id, op=op,
            actor_name=user.name, locale=locale,
        )  # fmt: skip
    except service.Refused as refused:
        notify(callback_answer, t(refused.reason), alert=True)
        return None
    except EngineError as error:
        notify(callback_answer, error.render(locale), alert=True)
        return None
    notify(callback_answer, views.change_summary(t, locale, applied))
    return applied


async def _show(
    message: Message, t: Translator, locale: str, applied: service.Applied, by: str, asks: bool
) -> None:
    character, sheet = applied.character, applied.after
    await edit_text(
        message,
        views.panel_text(
            t, locale, character, sheet, line=views.change_line(t, locale, applied, by)
        ),
        views.panel_keyboard(t, locale, character, sheet, asks=asks),
    )


async def choose_slot(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: views.TakeSlotCD,
    game: GameDTO, state: FSMContext, t: Translator, locale: str, uow: UnitOfWork,
    user: UserDTO,
) -> None:  # fmt: skip
    message = own(query, callback_answer, t, *PANEL, character_id=callback_data.character_id)
    if message is None:  # the aspect typed next would be written onto this message
        return
    try:
        found = await service.check_free_slot(
            uow, game=game, user_id=user.id, character_id=callback_data.character_id,
            slot=callback_data.slot, nature=callback_data.nature,
        )  # fmt: skip
    except service.Refused as refused:
        notify(callback_answer, t(refused.reason), alert=True)
        return
    await state.set_state(ConsequenceSG.aspect)
    await state.set_data(
        {
            "character_id": found.id,
            "slot": callback_data.slot.value,
            "nature": callback_data.nature.value,
            "panel": message.message_id,
        }
    )
    await message.answer(views.ask_aspect(t, locale, found, callback_data.slot))


async def got_aspect(
    message: Message, state: FSMContext, game: GameDTO, t: Translator, locale: str,
    uow: UnitOfWork, user: UserDTO, bot: Bot,
) -> None:  # fmt: skip
    text = clean_text(message.text, service.TEXT_MAX)
    if text is None:
        await message.answer(t("Write the aspect as text (up to 200 characters), or /cancel."))
        return
    data = await state.get_data()
    await state.clear()
    op = service.TakeConsequence(SlotId(data["slot"]), Nature(data["nature"]), text)
    try:
        applied = await service.apply(
            uow, game=game, user_id=user.id, character_id=int(data["character_id"]), op=op
        )
    except service.Refused as refused:
        await message.reply(t(refused.reason))
        return
    except EngineError as error:
        await message.reply(error_text(error, locale))
        return
    line = views.change_line(t, locale, applied, user.name)
    await message.reply(line)
    asks = await grant_service.gains_asked(uow, game, applied.character)
    await _edit_panel(bot, message.chat.id, int(data["panel"]), t, locale, applied, line, asks)


async def _edit_panel(
    bot: Bot, chat_id: int, message_id: int, t: Translator, locale: str,
    applied: service.Applied, line: str, asks: bool,
) -> None:  # fmt: skip
    character, sheet = applied.character, applied.after
    try:
        await bot.edit_message_text(
            text=views.panel_text(t, locale, character, sheet, line=line),
            chat_id=chat_id,
            message_id=message_id,
            reply_markup=views.panel_keyboard(t, locale, character, sheet, asks=asks),
        )
    except TelegramBadRequest:
        pass  # the panel was deleted or is unchanged; the reply above already says it all


async def undo(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: views.UndoCD,
    game: GameDTO, t: Translator, locale: str, uow: UnitOfWork, user: UserDTO,
) -> None:  # fmt: skip
    message = own(query, callback_answer, t, *PANEL, character_id=callback_data.character_id)
    if message is None:
        return
    try:
        undone = await service.undo(
            uow, game=game, user_id=user.id, character_id=callback_data.character_id,
            version=callback_data.version,
        )  # fmt: skip
    except service.Refused as refused:
        notify(callback_answer, t(refused.reason), alert=True)
        return
    notify(callback_answer, t("Undone."))
    line = views.undone_line(t, undone, game.system)
    try:
        found = await service.viewable(uow, game, callback_data.character_id)
    except service.Refused:
        await message.answer(line)
        return
    sheet = service.load(found)
    text = views.panel_text(t, locale, found, sheet, line=line)
    asks = await grant_service.gains_asked(uow, game, found)
    keyboard = views.panel_keyboard(t, locale, found, sheet, undo=False, asks=asks)
    await edit_text(message, text, keyboard)


async def own_resources(
    message: Message, t: Translator, locale: str, uow: UnitOfWork, user: UserDTO
) -> None:
    """/res in the private chat: the resources of the sender's characters in every game, to
    read; they are changed on the panel in the game's group."""
    owned = await own_characters.characters_of(
        uow, user.id, statuses=("active", "retired"), archived=True
    )
    if not owned:
        await message.answer(views.no_own_resources(t))
        return
    for entry in owned[:OWN_PANELS]:
        sheet = service.load(entry.character)
        line = views.panel_game_line(t, entry.game.title)
        if entry.archived:
            line += "\n" + views.archived_line(t)
        await message.answer(views.panel_text(t, locale, entry.character, sheet, line=line))
    live = any(not e.archived for e in owned[:OWN_PANELS])
    hint = views.own_resources_hint(t, len(owned), OWN_PANELS, changeable=live)
    if hint:
        await message.answer(hint)


OWN_PANELS = 5


def create_router() -> Router:
    outer = Router(name=__name__ + ".outer")
    private = Router(name=__name__ + ".private")
    private.message.register(own_resources, Command("res"), F.chat.type == "private")
    router = Router(name=__name__)
    router.message.filter(F.chat.type.in_({"group", "supergroup"}))
    router.callback_query.filter(HasGame())
    router.message.register(open_command, Command("res"), HasGame())
    router.message.register(open_command, Command("res"), HadGame())  # to read
    router.message.register(no_game, Command("res"))
    router.message.register(got_aspect, StateFilter(ConsequenceSG.aspect), F.text, HasGame())
    router.callback_query.register(open_button, views.ResOpenCD.filter())
    router.callback_query.register(switch_view, views.ResViewCD.filter())
    router.callback_query.register(choose_slot, views.TakeSlotCD.filter())
    router.callback_query.register(undo, views.UndoCD.filter())
    for data in _TO_OP:
        router.callback_query.register(press, data.filter())
    outer.include_routers(private, router)
    return outer
