"""Characters: the deep link into a wizard, GM approval in the group, /sheet and /history."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable

from aiogram import Bot, F, Router
from aiogram.exceptions import TelegramAPIError
from aiogram.filters import Command, CommandObject, CommandStart, StateFilter
from aiogram.filters.callback_data import CallbackData
from aiogram.fsm.context import FSMContext
from aiogram.fsm.state import State, StatesGroup
from aiogram.types import CallbackQuery, InlineKeyboardMarkup, Message
from aiogram.utils.callback_answer import CallbackAnswer
from aiogram_dialog import DialogManager, StartMode

from bot.delivery import Delivery
from bot.i18n import I18n, Translator
from bot.services import characters as character_service
from bot.services import games as game_service
from bot.services import names, own_characters
from bot.systems import SYSTEMS
from db.repositories.games import CharacterDTO, GameDTO
from db.repositories.users import UserDTO
from db.uow import UnitOfWork
from handlers import wizards
from handlers.callbacks import ApproveCD, ProposalCD, ReturnCD, SheetPageCD, notify
from handlers.callbacks_nav import SheetPickCD
from handlers.filters import HadGame, HasGame, IsGM
from handlers.owned import carries, show
from handlers.views import characters as views
from handlers.views.games import deep_link
from handlers.views.request_builder import BuildCD
from handlers.views.sheets import sheet_pages
from handlers.wizards.common import WizardStart, clean_text
from webapp.buttons import sheet_button

logger = logging.getLogger(__name__)


class ReturnSG(StatesGroup):
    comment = State()


def _draft(character: CharacterDTO) -> dict[str, object]:
    """A stored sheet as the current schema's JSON, for a wizard to start from."""
    spec = SYSTEMS[character.system]
    return spec.load(character.sheet, character.schema_version).model_dump(mode="json")


async def open_wizard(
    message: Message, command: CommandObject, dialog_manager: DialogManager, t: Translator,
    uow: UnitOfWork, user: UserDTO,
) -> None:  # fmt: skip
    link = await game_service.resolve_link(uow, command.args or "")
    if link is None:
        await message.answer(t("This link is no longer valid. Ask the GM for a new one (/game)."))
        return
    game = link.game
    state = wizards.start_state(game.system)
    if state is None:
        await message.answer(t("Character creation for this system is not available yet."))
        return
    characters = await uow.characters.for_game(game.id, statuses=("active", "pending", "returned"))
    if link.purpose == game_service.EDIT_CHARACTER:
        await _open_editor(message, dialog_manager, t, uow, user, link, state)
        return
    returned = [c for c in characters if c.owner_user_id == user.id and c.status == "returned"]
    start = WizardStart(
        game_id=game.id,
        system=game.system,
        options=SYSTEMS[game.system].options(game.options).model_dump(mode="json"),
        party=[c.name for c in characters if c.owner_user_id != user.id and c.status == "active"],
        draft=_draft(returned[-1]) if returned and link.purpose != game_service.NPC else None,
        # an NPC link opened by someone who is not the GM makes a player's character
        npc=link.purpose == game_service.NPC and await game_service.is_gm(uow, game, user.id),
    )
    await dialog_manager.start(state, data=start.as_data(), mode=StartMode.RESET_STACK)


async def _open_editor(
    message: Message, dialog_manager: DialogManager, t: Translator, uow: UnitOfWork,
    user: UserDTO, link: game_service.Link, state: State,
) -> None:  # fmt: skip
    game = link.game
    current = await uow.characters.get(link.character_id or 0)
    is_gm = await game_service.is_gm(uow, game, user.id)
    if (
        current is None
        or current.status != "active"
        or not character_service.can_edit(current, user.id, is_gm=is_gm)
    ):
        await message.answer(t("You cannot edit this character."))
        return
    start = WizardStart(
        game_id=game.id,
        system=game.system,
        options=SYSTEMS[game.system].options(game.options).model_dump(mode="json"),
        draft=_draft(current),
        character_id=current.id,
        base_version=current.version,
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
    try:
        approved = await character_service.approve(uow, current.id, user.id)
    except character_service.CharacterError as error:  # a taken name: the sheet stays pending
        notify(callback_answer, t(error.reason, **error.params), alert=True)
        return
    if approved is None:
        notify(callback_answer, t("Already decided."))
        return
    if isinstance(query.message, Message):  # the submission card, never another message
        text = views.approved(t, approved)
        await show(query.message, text, None, ApproveCD, character_id=approved.id)
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
    card = query.message.message_id if isinstance(query.message, Message) else None
    await state.set_data({"character_id": current.id, "card": card})
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
    data = await state.get_data()
    character_id = int(data["character_id"])
    await state.clear()
    returned = await character_service.send_back(uow, character_id, user.id, comment)
    if returned is None:
        await message.answer(t("Already decided."))
        return
    if data.get("card"):  # the submission card loses «Approve»: a returned sheet comes back anew
        with contextlib.suppress(TelegramAPIError):
            await bot.edit_message_reply_markup(
                chat_id=message.chat.id, message_id=int(data["card"]), reply_markup=None
            )
    await message.answer(views.returned(t, returned))
    await _tell_owner(
        bot, i18n, uow, returned, views.returned_for_player, await _fix_link(bot, uow, returned)
    )


async def _fix_link(bot: Bot, uow: UnitOfWork, character: CharacterDTO) -> str | None:
    """The game's «Create character» link, which reopens a returned sheet at its preview."""
    game = await uow.games.get(character.game_id)
    if game is None:
        return None
    me = await bot.me()
    return deep_link(me.username or "", await game_service.character_link_token(uow, game))


async def _tell_owner(
    bot: Bot,
    i18n: I18n,
    uow: UnitOfWork,
    character: CharacterDTO,
    render: Callable[[Translator, CharacterDTO], str],
    fix_url: str | None = None,
) -> None:
    if character.owner_user_id is None:
        return
    owner = await uow.users.get(character.owner_user_id)
    t = i18n.of_user(owner)
    game = await uow.games.get(character.game_id)
    markup = views.link_keyboard("🧙 " + t("Fix the character"), fix_url) if fix_url else None
    try:  # skipped for a player who blocked the bot (the GM is told once)
        await Delivery.beside(uow, i18n).private(
            bot, character.owner_user_id, render(t, character), game=game, reply_markup=markup
        )
    except TelegramAPIError:
        logger.info("could not reach the owner of character %s", character.id)


async def decide_proposal(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: ProposalCD,
    game: GameDTO, t: Translator, uow: UnitOfWork, user: UserDTO, bot: Bot, i18n: I18n,
) -> None:  # fmt: skip
    proposal = await uow.characters.proposal(callback_data.proposal_id)
    target = await uow.characters.get(proposal.character_id) if proposal else None
    if target is None or target.game_id != game.id:
        notify(callback_answer, t("This button is no longer active."), alert=True)
        return
    try:
        decided = await character_service.decide(
            uow, callback_data.proposal_id, user.id, accept=callback_data.accept
        )
    except character_service.CharacterError as error:
        notify(callback_answer, t(error.reason, **error.params), alert=True)
        return
    if decided is None:
        notify(callback_answer, t("Already decided."))
        return
    _, character = decided
    render = views.change_accepted if callback_data.accept else views.change_rejected
    if isinstance(query.message, Message):  # the proposal's card, never another message
        text = render(t, character)
        await show(query.message, text, None, ProposalCD, proposal_id=callback_data.proposal_id)
    await _tell_owner(bot, i18n, uow, character, render)


async def review_refused(
    query: CallbackQuery, callback_answer: CallbackAnswer, t: Translator
) -> None:
    notify(callback_answer, t("Only the GM can approve or return characters."), alert=True)


SHEET_STATUSES = ("active", "pending")
# what a name or a button opens: a retired character too, read-only and marked archived
OPENED_STATUSES = (*SHEET_STATUSES, "retired")
OWN_LISTED = ("active", "pending", "returned", "retired")


async def sheet(
    message: Message, command: CommandObject, game: GameDTO, t: Translator, locale: str,
    uow: UnitOfWork, user: UserDTO, bot: Bot,
) -> None:  # fmt: skip
    characters = await uow.characters.for_game(game.id, statuses=OPENED_STATUSES)
    if command.args:
        result = names.resolve(characters, command.args)
        if isinstance(result, names.Found):
            await _send_sheet(message, result.character, game, t, locale, uow, bot, user=user)
        elif isinstance(result, names.Ambiguous):
            keyboard = views.pick_keyboard(list(result.matches))
            await message.answer(views.unresolved(t, result), reply_markup=keyboard)
        else:
            await message.answer(views.unresolved(t, result))
        return
    mine = [
        c for c in characters
        if c.owner_user_id == user.id and not c.is_npc and c.status in SHEET_STATUSES
    ]  # fmt: skip
    active = [c for c in mine if c.status == "active"]
    if not mine:
        await message.answer(
            views.no_own_character(t, [c.name for c in names.distinct(characters)])
        )
        return
    if not active:  # only a sheet still waiting for the GM
        await message.answer(views.own_pending(t))
    await _send_sheet(message, (active or mine)[0], game, t, locale, uow, bot, user=user)


async def _send_sheet(
    message: Message, found: CharacterDTO, game: GameDTO, t: Translator, locale: str,
    uow: UnitOfWork, bot: Bot, *, user: UserDTO, in_group: bool = True,
    replacing: type[CallbackData] | None = None, webapp_url: str | None = None,
) -> None:  # fmt: skip
    """The sheet's first page; its GM-only button only for the GM and co-GMs, «Edit» only for
    those who may edit it. ``replacing``: redraw the pressed message if it is of that kind (a
    choice), else send a new one. An archived one (its game archived, or retired) is marked
    so and has no button that changes anything."""
    is_gm = await game_service.is_gm(uow, game, user.id)
    archived = own_characters.archived(game, found)
    active = found.status == "active" and not archived
    edit_url = None
    if active and character_service.can_edit(found, user.id, is_gm=is_gm):
        token = await game_service.edit_link_token(uow, game, found.id)
        me = await bot.me()
        edit_url = deep_link(me.username or "", token)
    pages = _pages(found, t, locale, archived=archived)
    keyboard = views.sheet_keyboard(
        t, found.id, pages, 0, edit_url, active=active, gm=in_group and is_gm, in_group=in_group
    )
    if webapp_url and not in_group:  # the Mini App opens in a private chat only
        keyboard = _with_app(keyboard, t, webapp_url)
    if replacing is None:
        await message.answer(pages[0], reply_markup=keyboard)
    else:
        await show(message, pages[0], keyboard, replacing)


def _with_app(
    keyboard: InlineKeyboardMarkup | None, t: Translator, webapp_url: str
) -> InlineKeyboardMarkup:
    """«📱 Sheet» under a keyboard (wherever a sheet or a list of them is, in private)."""
    rows = list(keyboard.inline_keyboard) if keyboard is not None else []
    return InlineKeyboardMarkup(inline_keyboard=[*rows, [sheet_button(t, webapp_url)]])


async def pick_sheet(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: SheetPickCD,
    game: GameDTO, t: Translator, locale: str, uow: UnitOfWork, user: UserDTO, bot: Bot,
) -> None:  # fmt: skip
    found = await uow.characters.get(callback_data.character_id)
    if (
        found is None
        or found.game_id != game.id
        or found.status not in OPENED_STATUSES
        or not isinstance(query.message, Message)
    ):
        notify(callback_answer, t("This button is no longer active."))
        return
    await _send_sheet(
        query.message, found, game, t, locale, uow, bot, user=user, replacing=SheetPickCD
    )


async def own_sheets(
    message: Message, command: CommandObject, t: Translator, locale: str, uow: UnitOfWork,
    user: UserDTO, bot: Bot, webapp_url: str | None = None,
) -> None:  # fmt: skip
    """/sheet in the private chat: the sender's own characters in every game."""
    owned = await own_characters.characters_of(uow, user.id, statuses=OWN_LISTED, archived=True)
    if command.args and owned:
        by_id = {o.character.id: o for o in owned}
        result = names.resolve([o.character for o in owned], command.args)
        if isinstance(result, names.Found) and result.character.status in OPENED_STATUSES:
            picked = by_id[result.character.id]
            await _send_sheet(
                message, picked.character, picked.game, t, locale, uow, bot, user=user,
                in_group=False, webapp_url=webapp_url,
            )  # fmt: skip
            return
        if not isinstance(result, names.Found):
            await message.answer(views.unresolved(t, result))
            return
    if not owned:
        await _no_own_characters(message, t, uow, user, webapp_url)
        return
    shown = [o for o in owned if o.character.status in OPENED_STATUSES]
    keyboard = views.pick_keyboard(
        [o.character for o in shown], archived={o.character.id for o in shown if o.archived}
    ) if shown else None  # fmt: skip
    if keyboard is not None and webapp_url:  # the Mini App: the whole sheet on one screen
        keyboard = _with_app(keyboard, t, webapp_url)
    await message.answer(
        views.own_list(t, [(o.game.title, o.character, o.archived) for o in owned]),
        reply_markup=keyboard,
    )


async def _no_own_characters(
    message: Message, t: Translator, uow: UnitOfWork, user: UserDTO, webapp_url: str | None
) -> None:
    """No character of one's own: a GM still reads their games' sheets in the Mini App."""
    runs = await uow.games.games_of(user.id, roles=("gm", "cogm"))
    if not (runs and webapp_url):
        await message.answer(views.no_characters_anywhere(t))
        return
    text = views.no_characters_anywhere(t) + "\n" + t("Your games' characters open in «📱 Sheet».")
    await message.answer(text, reply_markup=_with_app(None, t, webapp_url))


async def pick_own_sheet(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: SheetPickCD,
    t: Translator, locale: str, uow: UnitOfWork, user: UserDTO, bot: Bot,
    webapp_url: str | None = None,
) -> None:  # fmt: skip
    owned = await own_characters.own_character(
        uow, user.id, callback_data.character_id, statuses=OPENED_STATUSES, archived=True
    )
    if owned is None or not isinstance(query.message, Message):
        notify(callback_answer, t("This button is no longer active."))
        return
    await _send_sheet(
        query.message, owned.character, owned.game, t, locale, uow, bot, user=user,
        in_group=False, webapp_url=webapp_url,
    )  # fmt: skip


async def own_sheet_page(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: SheetPageCD,
    t: Translator, locale: str, uow: UnitOfWork, user: UserDTO,
) -> None:  # fmt: skip
    """A page of one's own sheet in the private chat."""
    owned = await own_characters.own_character(
        uow, user.id, callback_data.character_id, statuses=OPENED_STATUSES, archived=True
    )
    if owned is None or not isinstance(query.message, Message):
        notify(callback_answer, t("This button is no longer active."))
        return
    await _redraw_page(
        query.message, owned.character, callback_data.page, t, locale, archived=owned.archived
    )


def _pages(
    character: CharacterDTO, t: Translator, locale: str, *, archived: bool = False
) -> list[str]:
    spec = SYSTEMS[character.system]
    model = spec.load(character.sheet, character.schema_version)
    pages = sheet_pages(character.system, model, t, locale)
    return [f"{views.archived_mark(t)}\n{page}" for page in pages] if archived else pages


async def sheet_page(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: SheetPageCD,
    game: GameDTO, t: Translator, locale: str, uow: UnitOfWork,
) -> None:  # fmt: skip
    found = await uow.characters.get(callback_data.character_id)
    if found is None or found.game_id != game.id or not isinstance(query.message, Message):
        notify(callback_answer, t("This button is no longer active."))
        return
    await _redraw_page(
        query.message, found, callback_data.page, t, locale, in_group=True,
        archived=own_characters.archived(game, found),
    )  # fmt: skip


async def _redraw_page(
    message: Message, found: CharacterDTO, page: int, t: Translator, locale: str, *,
    in_group: bool = False, archived: bool = False,
) -> None:  # fmt: skip
    pages = _pages(found, t, locale, archived=archived)
    page = min(max(page, 0), len(pages) - 1)
    # Only the same character's sheet is redrawn, keeping its buttons as they were drawn (the
    # «Edit» link; the roll request for whoever asked as the GM); a forged press anywhere else
    # gets the page as a new message, without them.
    own = carries(message, SheetPageCD, character_id=found.id)
    markup = message.reply_markup if own else None
    edit_url = next(
        (b.url for row in (markup.inline_keyboard if markup else []) for b in row if b.url), None
    )
    gm = own and carries(message, BuildCD, c=found.id)
    active = found.status == "active" and not archived
    edit_url = None if archived else edit_url
    keyboard = views.sheet_keyboard(
        t, found.id, pages, page, edit_url, active=active, gm=gm, in_group=in_group
    )
    await show(message, pages[page], keyboard, SheetPageCD, character_id=found.id)


async def history(
    message: Message, command: CommandObject, game: GameDTO, t: Translator, uow: UnitOfWork,
    user: UserDTO,
) -> None:  # fmt: skip
    characters = await uow.characters.for_game(game.id, statuses=OWN_LISTED)
    if not (command.args or "").strip():  # one's own character, as /sheet without a name
        mine = _own_first(characters, user.id)
        if mine is None:
            await message.answer(
                views.history_usage(t, [c.name for c in names.distinct(characters)])
            )
            return
        result: names.Resolved = names.Found(mine)
    else:
        result = names.resolve(characters, command.args or "")
    if not isinstance(result, names.Found):
        await message.answer(views.unresolved(t, result))
        return
    changes = await character_service.history(uow, game, result.character)
    await message.answer(views.history(t, result.character, changes, game.timezone))


def _own_first(characters: list[CharacterDTO], user_id: int) -> CharacterDTO | None:
    """The sender's own character: the active one, else the newest of the rest (a sheet
    waiting for the GM, returned or retired)."""
    mine = [c for c in characters if c.owner_user_id == user_id and not c.is_npc]
    order = {status: i for i, status in enumerate(OWN_LISTED)}
    mine.sort(key=lambda c: (order.get(c.status, len(order)), -c.id))
    return mine[0] if mine else None


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
    gm.callback_query.register(decide_proposal, ProposalCD.filter())
    gm.message.register(got_return_comment, StateFilter(ReturnSG.comment), F.text)
    others = Router(name=__name__ + ".others")
    others.callback_query.register(review_refused, ApproveCD.filter())
    others.callback_query.register(review_refused, ReturnCD.filter())
    others.callback_query.register(review_refused, ProposalCD.filter())
    with_game = Router(name=__name__ + ".with_game")
    with_game.message.filter(HasGame())
    with_game.message.register(sheet, Command("sheet"))
    with_game.message.register(history, Command("history"))
    with_game.callback_query.filter(HasGame())
    with_game.callback_query.register(sheet_page, SheetPageCD.filter())
    with_game.callback_query.register(pick_sheet, SheetPickCD.filter())
    # a chat whose game is archived: its sheets and history stay readable
    had_game = Router(name=__name__ + ".had_game")
    had_game.message.filter(HadGame())
    had_game.message.register(sheet, Command("sheet"))
    had_game.message.register(history, Command("history"))
    had_game.callback_query.filter(HadGame())
    had_game.callback_query.register(sheet_page, SheetPageCD.filter())
    had_game.callback_query.register(pick_sheet, SheetPickCD.filter())
    group.include_routers(gm, others, with_game, had_game)

    private = Router(name=__name__ + ".private")
    private.message.filter(F.chat.type == "private")
    private.callback_query.filter(F.message.chat.type == "private")
    private.message.register(own_sheets, Command("sheet"))
    private.callback_query.register(pick_own_sheet, SheetPickCD.filter())
    private.callback_query.register(own_sheet_page, SheetPageCD.filter())
    router.include_routers(group, private)
    return router
