"""Characters: the deep link into a wizard, GM approval in the group, /sheet and /history."""

from __future__ import annotations

import logging
from collections.abc import Callable

from aiogram import Bot, F, Router
from aiogram.exceptions import TelegramAPIError
from aiogram.filters import Command, CommandObject, CommandStart, StateFilter
from aiogram.fsm.context import FSMContext
from aiogram.fsm.state import State, StatesGroup
from aiogram.types import CallbackQuery, Message
from aiogram.utils.callback_answer import CallbackAnswer
from aiogram_dialog import DialogManager, StartMode

from bot.i18n import I18n, Translator, resolve_locale
from bot.services import characters as character_service
from bot.services import games as game_service
from bot.systems import SYSTEMS
from db.repositories.games import CharacterDTO, GameDTO
from db.repositories.users import UserDTO
from db.uow import UnitOfWork
from engine.common import SheetModel, Violation
from handlers import wizards
from handlers.callbacks import ApproveCD, ReturnCD, notify
from handlers.filters import HasGame, IsGM
from handlers.views import characters as views
from handlers.views.sheets import render_sheet
from handlers.wizards.common import WizardStart, clean_text

logger = logging.getLogger(__name__)


class ReturnSG(StatesGroup):
    comment = State()


async def _chat_translator(uow: UnitOfWork, i18n: I18n, chat_id: int) -> Translator:
    chat = await uow.chats.get(chat_id)
    return i18n.translator(chat.locale if chat and chat.locale else i18n.default_locale)


async def submit_from_wizard(
    uow: UnitOfWork, bot: Bot, i18n: I18n, t: Translator, *, start: WizardStart, user: UserDTO,
    character: SheetModel,
) -> list[Violation]:  # fmt: skip
    """Store the sheet, ask the GM in the group, tell the player. Returns blocking problems."""
    game = await uow.games.get(start.game_id)
    if game is None or game.archived:
        return []
    spec = SYSTEMS[game.system]
    blocking = spec.blocking(character, spec.options(game.options))
    if blocking:
        return blocking
    npc = start.npc and await game_service.is_gm(uow, game, user.id)
    submitted = await character_service.submit(
        uow, game=game, author_user_id=user.id, character=character, npc=npc
    )
    t_group = await _chat_translator(uow, i18n, game.chat_id)
    stored = submitted.character
    if npc:
        await bot.send_message(game.chat_id, views.npc_added(t_group, stored))
        await bot.send_message(user.id, views.npc_saved(t, stored))
    else:
        await bot.send_message(user.id, views.sent_for_approval(t, stored))
        await bot.send_message(
            game.chat_id,
            views.submitted(
                t_group, stored, user.name, _sheet_html(stored, t_group, t_group.locale)
            ),
            reply_markup=views.review_keyboard(t_group, stored.id),
        )
    return []


def _sheet_html(character: CharacterDTO, t: Translator, locale: str) -> str:
    spec = SYSTEMS[character.system]
    return render_sheet(character.system, spec.load(character.sheet), t, locale)


async def open_wizard(
    message: Message, command: CommandObject, dialog_manager: DialogManager, t: Translator,
    uow: UnitOfWork, user: UserDTO,
) -> None:  # fmt: skip
    game = await game_service.game_for_token(uow, command.args or "")
    if game is None:
        await message.answer(t("This link is no longer valid. Ask the GM for a new one (/game)."))
        return
    state = wizards.start_state(game.system)
    if state is None:
        await message.answer(t("Character creation for this system is not available yet."))
        return
    characters = await uow.characters.for_game(game.id, statuses=("active", "pending", "returned"))
    returned = [c for c in characters if c.owner_user_id == user.id and c.status == "returned"]
    start = WizardStart(
        game_id=game.id,
        system=game.system,
        options=SYSTEMS[game.system].options(game.options).model_dump(mode="json"),
        party=[c.name for c in characters if c.owner_user_id != user.id and c.status == "active"],
        draft=returned[-1].sheet if returned else None,
    )
    await dialog_manager.start(state, data=start.as_data(), mode=StartMode.RESET_STACK)


async def approve(
    query: CallbackQuery,
    callback_answer: CallbackAnswer, callback_data: ApproveCD, game: GameDTO, t: Translator,
    uow: UnitOfWork, user: UserDTO, bot: Bot, i18n: I18n,
) -> None:  # fmt: skip
    current = await uow.characters.get(callback_data.character_id)
    if current is None or current.game_id != game.id:
        notify(callback_answer, t("This button is no longer active."), alert=True)
        return
    approved = await character_service.approve(uow, current.id, user.id)
    if approved is None:
        notify(callback_answer, t("Already decided."))
        return
    if isinstance(query.message, Message):
        await query.message.edit_text(views.approved(t, approved))
    await _tell_owner(bot, i18n, uow, approved, views.approved_for_player)


async def ask_return_comment(
    query: CallbackQuery,
    callback_answer: CallbackAnswer, callback_data: ReturnCD, game: GameDTO, state: FSMContext,
    t: Translator, uow: UnitOfWork,
) -> None:  # fmt: skip
    current = await uow.characters.get(callback_data.character_id)
    if current is None or current.game_id != game.id or current.status != "pending":
        notify(callback_answer, t("Already decided."), alert=True)
        return
    await state.set_state(ReturnSG.comment)
    await state.set_data({"character_id": current.id})
    if isinstance(query.message, Message):
        await query.message.answer(views.ask_comment(t, current))


async def got_return_comment(
    message: Message, state: FSMContext, t: Translator, uow: UnitOfWork, user: UserDTO,
    bot: Bot, i18n: I18n,
) -> None:  # fmt: skip
    comment = clean_text(message.text)
    if comment is None:
        await message.answer(t("Write the comment as text (up to 500 characters)."))
        return
    character_id = int((await state.get_data())["character_id"])
    await state.clear()
    returned = await character_service.send_back(uow, character_id, user.id, comment)
    if returned is None:
        await message.answer(t("Already decided."))
        return
    await message.answer(views.returned(t, returned))
    await _tell_owner(bot, i18n, uow, returned, views.returned_for_player)


async def _tell_owner(
    bot: Bot,
    i18n: I18n,
    uow: UnitOfWork,
    character: CharacterDTO,
    render: Callable[[Translator, CharacterDTO], str],
) -> None:
    if character.owner_user_id is None:
        return
    owner = await uow.users.get(character.owner_user_id)
    locale = resolve_locale(
        chat_locale=None,
        user_locale=owner.locale if owner else None,
        language_code=owner.language_code if owner else None,
        default=i18n.default_locale,
        is_group=False,
    )
    t = i18n.translator(locale)
    try:
        await bot.send_message(character.owner_user_id, render(t, character))
    except TelegramAPIError:
        logger.info("could not reach the owner of character %s", character.id)


async def review_refused(
    query: CallbackQuery, callback_answer: CallbackAnswer, t: Translator
) -> None:
    notify(callback_answer, t("Only the GM can approve or return characters."), alert=True)


async def sheet(
    message: Message, command: CommandObject, game: GameDTO, t: Translator, locale: str,
    uow: UnitOfWork, user: UserDTO,
) -> None:  # fmt: skip
    characters = await uow.characters.for_game(game.id, statuses=("active", "pending"))
    if command.args:
        found = character_service.find_by_name(characters, command.args)
    else:
        found = next(
            (c for c in characters if c.owner_user_id == user.id and c.status == "active"), None
        )
    if found is None:
        names = ", ".join(c.name for c in characters) or "—"
        await message.answer(views.not_found(t, names))
        return
    await message.answer(_sheet_html(found, t, locale))


async def history(
    message: Message, command: CommandObject, game: GameDTO, t: Translator, uow: UnitOfWork
) -> None:
    characters = await uow.characters.for_game(
        game.id, statuses=("active", "pending", "returned", "retired")
    )
    found = character_service.find_by_name(characters, command.args or "")
    if found is None:
        await message.answer(views.not_found(t, ", ".join(c.name for c in characters) or "—"))
        return
    versions = await uow.characters.history(found.id)
    members = {m.user_id: m.name for m in await uow.games.members(game.id)}
    await message.answer(views.history(t, found, versions, members))


def create_router() -> Router:
    router = Router(name=__name__)
    router.message.register(open_wizard, CommandStart(deep_link=True), F.chat.type == "private")

    group = Router(name=__name__ + ".group")
    group.message.filter(F.chat.type.in_({"group", "supergroup"}))
    gm = Router(name=__name__ + ".gm")
    gm.callback_query.filter(IsGM())
    gm.message.filter(IsGM())
    gm.callback_query.register(approve, ApproveCD.filter())
    gm.callback_query.register(ask_return_comment, ReturnCD.filter())
    gm.message.register(got_return_comment, StateFilter(ReturnSG.comment), F.text)
    others = Router(name=__name__ + ".others")
    others.callback_query.register(review_refused, ApproveCD.filter())
    others.callback_query.register(review_refused, ReturnCD.filter())
    with_game = Router(name=__name__ + ".with_game")
    with_game.message.filter(HasGame())
    with_game.message.register(sheet, Command("sheet"))
    with_game.message.register(history, Command("history"))
    group.include_routers(gm, others, with_game)
    router.include_router(group)
    return router
