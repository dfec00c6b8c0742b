"""/export and /import: a player's character (private chat) or the GM's whole game (group) as
a file, and such a file back in. The file's size is checked before it is downloaded; reading
it runs in the worker process (``bot.services.transfer.read``)."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.exceptions import TelegramForbiddenError
from aiogram.filters import Command, CommandObject, StateFilter
from aiogram.fsm.context import FSMContext
from aiogram.fsm.state import State, StatesGroup
from aiogram.types import BufferedInputFile, CallbackQuery, Document, Message
from aiogram.utils.callback_answer import CallbackAnswer

from bot.cpu import CpuError, CpuPool
from bot.i18n import I18n, Translator, own_locale
from bot.services import game_labels, names, own_characters
from bot.services import transfer as service
from db.repositories.games import GameDTO
from db.repositories.users import UserDTO
from db.uow import UnitOfWork
from engine.errors import EngineError
from engine.transfer import ImportFile
from handlers import submission
from handlers.callbacks import notify
from handlers.filters import IsGM
from handlers.views import characters as character_views
from handlers.views import transfer as views
from handlers.views import verify as verify_views
from handlers.wizards.common import WizardStart

# a retired character and one of an archived game stay exportable (issue 36 item 4)
OWN_STATUSES = (*service.EXPORT_STATUSES, "retired")
FILE_KEY = "import_file_id"


class ImportSG(StatesGroup):
    file = State()  # /import was sent without a file: the next document is it


# --- /export ---------------------------------------------------------------------------------


async def export_own(
    message: Message, command: CommandObject, t: Translator, uow: UnitOfWork, user: UserDTO
) -> None:
    """/export [name] in the private chat: one of the sender's characters as a file."""
    owned = await own_characters.characters_of(uow, user.id, statuses=OWN_STATUSES, archived=True)
    if command.args and owned:
        result = names.resolve([o.character for o in owned], command.args)
        if isinstance(result, names.NotFound):
            await message.answer(character_views.unresolved(t, result))
            return
        picked = (
            {result.character.id} if isinstance(result, names.Found)
            else {c.id for c in result.matches}
        )  # fmt: skip
        owned = [o for o in owned if o.character.id in picked]  # several: the picker asks
    if not owned:
        await message.answer(views.no_characters(t))
    elif len(owned) == 1:
        await _send_character(message, t, uow, owned[0].character.id, user)
    else:
        text, keyboard = views.pick_character(t, owned)
        await message.answer(text, reply_markup=keyboard)


async def export_pick(
    query: CallbackQuery, callback_data: views.ExportPickCD, t: Translator, uow: UnitOfWork,
    user: UserDTO, callback_answer: CallbackAnswer,
) -> None:  # fmt: skip
    if not isinstance(query.message, Message):
        return
    if not await _send_character(query.message, t, uow, callback_data.character_id, user):
        notify(callback_answer, t("This button is no longer active."), alert=True)


async def _send_character(
    message: Message, t: Translator, uow: UnitOfWork, character_id: int, user: UserDTO
) -> bool:
    owned = await own_characters.own_character(
        uow, user.id, character_id, statuses=OWN_STATUSES, archived=True
    )
    if owned is None:
        return False
    content = await service.character_file(uow, owned.character)
    await message.answer_document(
        BufferedInputFile(content, filename=f"character-{owned.character.id}.json"),
        caption=views.character_caption(t, owned.character),
    )
    return True


async def export_game(message: Message, t: Translator, uow: UnitOfWork, game: GameDTO) -> None:
    """/export game in the group, by the GM or a co-GM."""
    content = await service.game_file(uow, game)
    await message.answer_document(
        BufferedInputFile(content, filename=f"game-{game.id}.json"),
        caption=views.game_caption(t, game),
    )


async def export_hint(message: Message, t: Translator) -> None:
    await message.answer(views.export_in_group(t))


# --- /import ---------------------------------------------------------------------------------


def _document(message: Message) -> Document | None:
    replied = message.reply_to_message
    return message.document or (replied.document if replied is not None else None)


async def ask_file(message: Message, t: Translator, state: FSMContext) -> None:
    await state.set_state(ImportSG.file)
    await message.answer(views.send_file(t))


async def not_a_file(message: Message, t: Translator) -> None:
    await message.answer(views.no_file(t))


async def import_file(
    message: Message, bot: Bot, t: Translator, locale: str, i18n: I18n, uow: UnitOfWork,
    cpu: CpuPool, user: UserDTO, state: FSMContext,
) -> None:  # fmt: skip
    """A file with the caption /import (or in reply to one, or after /import)."""
    await state.set_state(None)
    document = _document(message)
    assert document is not None  # the filters let only a document through
    parsed = await _read(message, bot, t, locale, cpu, document)
    if parsed is None:
        return
    if message.chat.type == "private" and parsed.kind != "character":
        await message.answer(views.game_file_in_private(t))
    elif message.chat.type == "private":
        await _import_character(message, bot, t, locale, i18n, uow, parsed, user, state, document)
    elif parsed.kind == "game":
        await _import_game(message, t, locale, i18n, uow, parsed, user)
    elif (game := await uow.games.live_for_chat(message.chat.id)) is None:
        await message.reply(views.no_game_here(t))
    else:
        await _submit(message, bot, t, locale, i18n, uow, parsed, user, game)


async def _read(
    message: Message, bot: Bot, t: Translator, locale: str, cpu: CpuPool, document: Document
) -> ImportFile | None:
    # Telegram's own size first: a huge file is refused before a byte of it is fetched.
    if (document.file_size or 0) > service.MAX_FILE_BYTES:
        await message.reply(views.file_too_large(t, service.MAX_FILE_BYTES))
        return None
    data = await bot.download(document.file_id)
    try:
        return await service.read(cpu, data.read() if data else b"")
    except EngineError as error:
        await message.reply(verify_views.engine_error(locale, error))
    except CpuError as error:
        await message.reply(verify_views.cpu_failed(t, error))
    return None


async def _import_game(
    message: Message, t: Translator, locale: str, i18n: I18n, uow: UnitOfWork,
    parsed: ImportFile, user: UserDTO,
) -> None:  # fmt: skip
    try:
        done = await service.import_game(
            uow, parsed, chat_id=message.chat.id, user_id=user.id,
            locale=own_locale(user, i18n.default_locale),
        )  # fmt: skip
    except service.ImportRefused as error:
        await message.reply(views.refused(t, locale, error.refusal))
        return
    await message.reply(views.game_imported(t, done))


async def _import_character(
    message: Message, bot: Bot, t: Translator, locale: str, i18n: I18n, uow: UnitOfWork,
    parsed: ImportFile, user: UserDTO, state: FSMContext, document: Document,
) -> None:  # fmt: skip
    games = await service.games_for(uow, user.id, parsed.system)
    if not games:
        await message.answer(views.no_game_of_system(t, parsed.system))
    elif len(games) == 1:
        await _submit(message, bot, t, locale, i18n, uow, parsed, user, games[0])
    else:
        await state.update_data({FILE_KEY: document.file_id})
        text, keyboard = views.pick_game(t, games, await game_labels.labels(uow, games))
        await message.answer(text, reply_markup=keyboard)


async def import_into(
    query: CallbackQuery, callback_data: views.ImportToCD, bot: Bot, t: Translator,
    locale: str, i18n: I18n, uow: UnitOfWork, cpu: CpuPool, user: UserDTO, state: FSMContext,
    callback_answer: CallbackAnswer,
) -> None:  # fmt: skip
    """The game picked for the file waiting in the private chat."""
    message = query.message
    file_id = (await state.get_data()).get(FILE_KEY)
    if not isinstance(message, Message) or not isinstance(file_id, str):
        notify(callback_answer, t("This button is no longer active."), alert=True)
        return
    await state.update_data({FILE_KEY: None})
    data = await bot.download(file_id)
    try:
        parsed = await service.read(cpu, data.read() if data else b"")
    except (EngineError, CpuError):
        notify(callback_answer, t("This button is no longer active."), alert=True)
        return
    games = await service.games_for(uow, user.id, parsed.system)
    game = next((g for g in games if g.id == callback_data.game_id), None)
    if game is None:
        notify(callback_answer, t("This button is no longer active."), alert=True)
        return
    await _submit(message, bot, t, locale, i18n, uow, parsed, user, game)


async def _submit(
    message: Message, bot: Bot, t: Translator, locale: str, i18n: I18n, uow: UnitOfWork,
    parsed: ImportFile, user: UserDTO, game: GameDTO,
) -> None:  # fmt: skip
    """Checked like a finished wizard, then sent to the GM for approval the same way."""

    try:
        prepared = await service.prepare_character(uow, parsed, game, user.id)
    except service.ImportRefused as error:
        await message.answer(views.refused(t, locale, error.refusal))
        return
    start = WizardStart(game_id=game.id, system=game.system, options=game.options)
    try:
        problems = await submission.submit_from_wizard(
            uow,
            bot,
            i18n,
            t,
            start=start,
            user=user,
            character=prepared.sheet,
            history=prepared.history,
        )
    except TelegramForbiddenError:
        # Stored and posted to the GM; only the player's private note could not go (an
        # import sent in the group by someone who never opened our private chat).
        return
    if problems:  # the rules changed between the check and the submission: nothing stored
        await service.forget_import(uow)
        refusal = service.Refusal(service.PLAY_RULES, tuple(problems), system=game.system)
        await message.answer(views.refused(t, locale, refusal))


def create_router() -> Router:
    router = Router(name=__name__)
    private = F.chat.type == "private"
    router.message.register(export_own, Command("export"), private)
    router.message.register(export_game, Command("export", magic=F.args == "game"), IsGM())
    router.message.register(export_hint, Command("export"))
    pressed_in_private = F.message.chat.type == "private"
    router.callback_query.register(export_pick, views.ExportPickCD.filter(), pressed_in_private)
    router.callback_query.register(import_into, views.ImportToCD.filter(), pressed_in_private)
    with_file = F.document | F.reply_to_message.document
    router.message.register(import_file, Command("import"), with_file)
    router.message.register(ask_file, Command("import"))
    router.message.register(import_file, StateFilter(ImportSG.file), F.document)
    router.message.register(not_a_file, StateFilter(ImportSG.file), ~F.text.startswith("/"))
    return router
