"""/roll (/r), /log (pages, export) and /reveal; /verify and /odds are ``handlers.verify``."""

from __future__ import annotations

from html import escape

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import BufferedInputFile, CallbackQuery, Message, Update

from bot.i18n import Translator
from bot.services import multi_rolls, sheet_rolls
from bot.services import rolls as roll_service
from bot.services import verify as verify_service
from bot.systems import SYSTEMS
from db.repositories.users import UserDTO
from db.uow import UnitOfWork
from engine.dice.hints import starts_as_notation
from engine.dice.parser import parse
from engine.dice.request import RollRequest, parse_request
from engine.errors import EngineError
from handlers.callbacks import LogPageCD
from handlers.filters import ChatAdmin
from handlers.owned import show
from handlers.views import dice as views
from handlers.views.safe import error_text

ROLL_COMMANDS = ("roll", "r")  # the filter's and the hint's: one list


class NoCharacter(Exception):
    """``/r <trait>`` from a player without an active character in the chat's game."""


class GameArchived(Exception):
    """``/r <trait>`` in a chat whose game is archived: its sheets are read-only."""


def message_roll_id(chat_id: int, message_id: int) -> str:
    """The roll id of a ``/r`` message: the same message always yields the same roll."""
    return f"msg:{chat_id}:{message_id}"


def roll_hint(update: Update) -> tuple[int, str] | None:
    """(chat id, roll id) when the update is a ``/r`` with valid notation, which ``roll``
    will log: its claim then reads the log's head (``UnitOfWorkMiddleware``). Strict, so a
    log is rarely locked for nothing: no bot mention (the filter checks it), no sheet trait
    (``/r Атлетика`` takes the usual path, after the character is read); a lock taken for a
    message the bot then ignores (one from another bot) ends with its unit."""
    message = update.message
    text = message.text if message is not None else None
    if message is None or not text or not text.startswith("/r"):
        return None
    command, _, args = text.partition(" ")
    if command.removeprefix("/") not in ROLL_COMMANDS or not _is_notation(args.strip()):
        return None
    return message.chat.id, message_roll_id(message.chat.id, message.message_id)


async def roll(
    message: Message, command: CommandObject, t: Translator, locale: str, uow: UnitOfWork,
    user: UserDTO,
) -> None:  # fmt: skip
    if not command.args:
        await message.answer(views.roll_usage(t))
        return
    sheet = None
    try:
        request = parse_request(command.args)  # None for one roll: the usual path
        if request is not None:
            await _roll_many(message, request, t, locale, uow, user)
            return
        sheet = await _sheet_roll_plan(message, command.args, locale, uow, user)
        plan = sheet[0] if sheet else None
        logged = await roll_service.roll_logged(
            uow,
            chat_id=message.chat.id,
            roll_id=message_roll_id(message.chat.id, message.message_id),
            text=plan.notation if plan else command.args,
            actor=user.name,
            subject=sheet[1] if sheet else user.name,  # a sheet roll is its character's
            actor_user_id=user.id,
        )
    except EngineError as error:
        await message.reply(error_text(error, locale))
        return
    except NoCharacter:
        await message.reply(views.no_character(t, command.args))
        return
    except GameArchived:
        await message.reply(views.game_archived(t, command.args))
        return
    if logged.opened_epoch is not None:
        await message.answer(views.epoch_opened(t, logged.opened_epoch))
    if sheet is None:
        await message.reply(views.rolled(t, locale, logged, user.name))
        return
    plan, character = sheet
    # A roll for a character is signed with its name, and the player's.
    who = t("{character}, played by {player}", character=character, player=user.name)
    words = sheet_rolls.outcome_words(plan, logged.result, locale)
    lines = [escape(plan.title), views.rolled(t, locale, logged, who, words)]
    await message.reply("\n".join(line for line in lines if line))


async def _roll_many(
    message: Message, request: RollRequest, t: Translator, locale: str, uow: UnitOfWork,
    user: UserDTO,
) -> None:  # fmt: skip
    """A roll set (``6 4d6k3``), rolls separated by ``;`` or a flagged roll (``s 4d6``): each
    roll its own log entry, one reply."""
    logged = await multi_rolls.roll_many(
        uow,
        request,
        chat_id=message.chat.id,
        roll_id=message_roll_id(message.chat.id, message.message_id),
        actor=user.name,
        actor_user_id=user.id,
    )
    opened = next((item.opened_epoch for item in logged if item.opened_epoch), None)
    if opened is not None:
        await message.answer(views.epoch_opened(t, opened))
    text = views.rolled_many(
        t, locale, logged, user.name, is_set=request.is_set, short=request.short
    )
    await message.reply(text)


async def _sheet_roll_plan(
    message: Message, args: str, locale: str, uow: UnitOfWork, user: UserDTO
) -> tuple[sheet_rolls.SheetRoll, str] | None:
    """A roll by a trait of the sender's active character (``/r Атлетика vs 2``), when the text
    is not dice notation (or is a matter shorthand like ``/r 5``), with the character's name;
    None for plain notation."""
    game = await uow.games.live_for_chat(message.chat.id)
    if game is None:
        if starts_as_notation(args) or _is_notation(args):
            return None
        if await uow.games.archived_for_chat(message.chat.id) is not None:
            raise GameArchived  # a trait's name, and the sheets are archived
        return None
    if not sheet_rolls.prefers_sheet_roll(game.system, args) and (
        starts_as_notation(args) or _is_notation(args)
    ):
        return None
    active = await uow.characters.active_of(game.id, user.id)
    if active is None:
        if starts_as_notation(args) or _is_notation(args):
            return None
        raise NoCharacter  # a trait's name, and no sheet to read it from
    spec = SYSTEMS[game.system]
    character = spec.load(active.sheet, active.schema_version)
    return sheet_rolls.plan_sheet_roll(game.system, character, args, locale), active.name


def _is_notation(text: str) -> bool:
    try:
        parse(text)
    except EngineError:
        return False
    return True


async def show_log(message: Message, t: Translator, uow: UnitOfWork) -> None:
    rolls, total = await roll_service.recent(
        uow, message.chat.id, page=0, per_page=views.LOG_PAGE_SIZE
    )
    sealed = await roll_service.sealed_epoch(uow, message.chat.id)
    await message.answer(
        views.log_page(t, rolls, total, 0, sealed), reply_markup=views.log_keyboard(t, total, 0)
    )


async def log_page(
    query: CallbackQuery, callback_data: LogPageCD, t: Translator, uow: UnitOfWork
) -> None:
    if not isinstance(query.message, Message):
        return
    page = max(0, callback_data.page)
    rolls, total = await roll_service.recent(
        uow, query.message.chat.id, page=page, per_page=views.LOG_PAGE_SIZE
    )
    sealed = await roll_service.sealed_epoch(uow, query.message.chat.id) if page == 0 else None
    text = views.log_page(t, rolls, total, page, sealed)
    await show(query.message, text, views.log_keyboard(t, total, page), LogPageCD)


async def export_log(message: Message, t: Translator, uow: UnitOfWork) -> None:
    exported = await verify_service.export_text(uow, message.chat.id)
    if exported is None:
        await message.answer(t("No rolls in this chat yet."))
        return
    content, entries = exported
    document = BufferedInputFile(content, filename="roll-log.json")
    await message.answer_document(document, caption=views.log_caption(t, entries))


async def reveal(message: Message, t: Translator, uow: UnitOfWork) -> None:
    result = await roll_service.reveal(uow, message.chat.id)
    await message.answer(views.revealed(t, result))


async def reveal_refused(message: Message, t: Translator) -> None:
    await message.answer(t("Only the chat's admins and the GM can reveal the seed."))


def create_router() -> Router:
    router = Router(name=__name__)
    router.message.register(roll, Command(*ROLL_COMMANDS))
    router.message.register(export_log, Command("log"), F.text.regexp(r"^/\S+\s+export\s*$"))
    router.message.register(show_log, Command("log"))
    router.callback_query.register(log_page, LogPageCD.filter())
    router.message.register(reveal, Command("reveal"), ChatAdmin())
    router.message.register(reveal_refused, Command("reveal"))
    return router
