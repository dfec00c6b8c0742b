"""/verify (this chat's log, or an uploaded export) and /odds: the CPU-heavy commands, whose work
runs in the worker process (``bot.cpu``) so that every other chat is still answered."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiogram import Bot, F, Router
from aiogram.exceptions import TelegramAPIError
from aiogram.filters import Command, CommandObject
from aiogram.types import Message, User

from bot.cpu import CpuError, CpuPool
from bot.i18n import Translator
from bot.services import odds as odds_service
from bot.services import verify as verify_service
from db.repositories.users import UserDTO
from db.uow import UnitOfWork
from engine.dice.errors import VerifyTooLarge
from engine.dice.hints import starts_as_notation
from engine.errors import EngineError
from handlers.views import dice as dice_views
from handlers.views import verify as views


async def odds(
    message: Message, command: CommandObject, t: Translator, locale: str, cpu: CpuPool,
    uow: UnitOfWork, user: UserDTO,
) -> None:  # fmt: skip
    if not command.args:
        await message.answer(t("Write an expression: <code>/odds 4dF+2 vs 3</code>."))
        return
    context = await odds_service.odds_context(uow, message.chat.id, user.id)
    try:
        view = await odds_service.odds_for(cpu, command.args, context, locale)
    except EngineError as error:
        if context.system is not None and context.character is None:
            if not starts_as_notation(command.args):  # a trait's name, and no sheet to read
                await message.reply(dice_views.odds_no_character(t, command.args))
                return
        await message.reply(views.engine_error(locale, error))
        return
    except CpuError as error:
        await message.reply(views.cpu_failed(t, error))
        return
    await message.reply(dice_views.odds_lines(t, view))


async def verify(
    message: Message, t: Translator, locale: str, uow: UnitOfWork, cpu: CpuPool
) -> None:
    try:
        report = await verify_service.verify_chat(uow, cpu, message.chat.id)
    except VerifyTooLarge as error:
        await message.answer(views.too_large(t, locale, error))
        return
    except CpuError as error:
        await message.answer(views.cpu_failed(t, error))
        return
    await message.answer(dice_views.verify_report(t, locale, report))


async def verify_file(
    message: Message, command: CommandObject, bot: Bot, t: Translator, locale: str,
    uow: UnitOfWork, cpu: CpuPool,
) -> None:  # fmt: skip
    """/verify sent with (or in reply to) an exported log file: check that file."""
    replied = message.reply_to_message
    document = message.document or (replied.document if replied is not None else None)
    assert document is not None
    if (document.file_size or 0) > verify_service.MAX_EXPORT_BYTES:
        await message.reply(t("The file is too large for a roll log."))
        return
    data = await bot.download(document.file_id)
    try:
        verdict = await verify_service.verify_file(
            uow, cpu, data.read() if data else b"", command.args or "",
            chat_id=message.chat.id, may_see=_member_of(bot, message.from_user),
        )  # fmt: skip
    except VerifyTooLarge as error:
        await message.reply(views.too_large(t, locale, error))
        return
    except EngineError as error:
        await message.reply(views.engine_error(locale, error))
        return
    except CpuError as error:
        await message.reply(views.cpu_failed(t, error))
        return
    await message.reply(views.file_verdict(t, locale, verdict))


def _member_of(bot: Bot, user: User | None) -> Callable[[int], Awaitable[bool]]:
    """Whether the user is in a chat (asked of Telegram): a file is compared with the log of
    the chat it names only for someone who can read that chat anyway."""

    async def check(chat_id: int) -> bool:
        if user is None:
            return False
        if chat_id == user.id:  # the user's own private chat with the bot
            return True
        user_id = user.id
        try:
            member = await bot.get_chat_member(chat_id, user_id)
        except TelegramAPIError:
            return False
        if member.status == "restricted":
            return bool(getattr(member, "is_member", False))
        return member.status in ("creator", "administrator", "member")

    return check


def create_router() -> Router:
    router = Router(name=__name__)
    router.message.register(odds, Command("odds"))
    with_file = F.document | F.reply_to_message.document
    router.message.register(verify_file, Command("verify"), with_file)
    router.message.register(verify, Command("verify"))
    return router
