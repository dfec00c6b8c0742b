"""/sroll (GM secret rolls) and the sealed placeholder's «🔓 Reveal» button (GM only)."""

from __future__ import annotations

import logging
from collections import OrderedDict

from aiogram import Bot, F, Router
from aiogram.exceptions import TelegramAPIError, TelegramBadRequest, TelegramForbiddenError
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message
from aiogram.utils.callback_answer import CallbackAnswer

from bot.i18n import I18n, Translator
from bot.services import secret as secret_service
from db.repositories.chats import ChatDTO
from db.repositories.users import UserDTO
from db.uow import UnitOfWork
from engine.errors import EngineError
from handlers.callbacks import notify
from handlers.filters import HasGame, IsGM
from handlers.games import no_game
from handlers.views import secret as views
from handlers.views.dice import epoch_opened
from handlers.views.safe import error_text
from handlers.views.secret import SecretRevealCD

logger = logging.getLogger(__name__)

# Placeholders this process revealed, newest last. A press's answer goes out before its edit
# (bot/answers.py), so whether a press is the one that reveals must be known before editing.
# The GM's racing presses are handled one at a time (one chat, one user): a repeat finds its
# placeholder here. A repeat handled by another process is told «Revealed.» as well, while
# Telegram still refuses the identical second edit, so the card changes once.
REVEALED_KEPT = 1024
_revealed: OrderedDict[str, None] = OrderedDict()  # the log entries' hashes


def _group_translator(i18n: I18n, chat: ChatDTO | None) -> Translator:
    """The placeholder and the revealed card speak the chat's language, not the presser's: the
    card must render identically whoever presses (a repeated reveal is then a no-op edit)."""
    return i18n.of_group(chat.locale if chat else None)


async def secret_roll(
    message: Message, command: CommandObject, t: Translator, locale: str, uow: UnitOfWork,
    user: UserDTO, bot: Bot, i18n: I18n, chat_info: ChatDTO | None,
) -> None:  # fmt: skip
    if not command.args:
        await message.answer(views.usage(t))
        return
    try:
        rolled = await secret_service.roll_secret(
            uow, chat_id=message.chat.id, message_id=message.message_id, gm=user,
            text=command.args,
        )  # fmt: skip
    except EngineError as error:
        await message.reply(error_text(error, locale))
        return
    except secret_service.NoPrivateChat:
        keyboard = views.open_private_keyboard(t, (await bot.me()).username)
        await message.reply(views.no_private_chat(t, user.name), reply_markup=keyboard)
        return
    if not await _tell_gm(bot, i18n, user, rolled, message.chat.title):
        await message.reply(views.unreachable(t, user.name))
        return
    t_group = _group_translator(i18n, chat_info)
    await message.answer(
        views.sealed(t_group, rolled),
        reply_markup=views.reveal_keyboard(t_group, gm_id=user.id, message_id=message.message_id),
    )
    await _hide_command(message)


async def _tell_gm(
    bot: Bot, i18n: I18n, user: UserDTO, rolled: secret_service.SecretRoll, title: str | None
) -> bool:
    """The full result to the GM privately; False when the GM cannot be reached (blocked the
    bot): the roll is then in the GM's own log but shown to no one, so nothing is sealed."""
    t_gm = i18n.of_user(user)
    try:
        if rolled.opened_epoch is not None:
            await bot.send_message(user.id, epoch_opened(t_gm, rolled.opened_epoch))
        await bot.send_message(user.id, views.gm_result(t_gm, t_gm.locale, rolled, title))
    except TelegramForbiddenError:
        logger.info("secret roll %s: the GM %s cannot be reached", rolled.entry.roll_id, user.id)
        return False
    except TelegramBadRequest as error:
        if "chat not found" not in error.message:
            raise
        return False
    return True


async def _hide_command(message: Message) -> None:
    """The command shows the expression (an NPC's bonus, say): delete it where the bot may
    (an admin bot can; otherwise Telegram refuses and the command stays)."""
    try:
        await message.delete()
    except TelegramAPIError:
        logger.debug("could not delete /sroll %s in %s", message.message_id, message.chat.id)


async def not_gm(message: Message, t: Translator) -> None:
    await message.answer(views.not_gm(t))


async def groups_only(message: Message, t: Translator) -> None:
    await message.answer(views.groups_only(t))


async def reveal(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: SecretRevealCD,
    t: Translator, uow: UnitOfWork, i18n: I18n, chat_info: ChatDTO | None,
) -> None:  # fmt: skip
    message = query.message
    if not isinstance(message, Message):
        return
    rolled = await secret_service.find(
        uow, chat_id=message.chat.id, gm_id=callback_data.gm_id,
        message_id=callback_data.message_id,
    )  # fmt: skip
    if rolled is None:
        notify(callback_answer, t("This button is no longer active."), alert=True)
        return
    if not views.has_reveal_button(message.reply_markup, callback_data):
        if views.is_revealed_card(message.text, rolled):
            notify(callback_answer, t("Already revealed."))
        else:  # a forged press on some other message: leave it alone
            notify(callback_answer, t("This button is no longer active."), alert=True)
        return
    placeholder = rolled.entry.hash
    if placeholder in _revealed:
        notify(callback_answer, t("Already revealed."))
        return
    notify(callback_answer, t("Revealed."))  # goes out before the edit (bot/answers.py)
    t_group = _group_translator(i18n, chat_info)
    await _edit_once(message, views.revealed(t_group, t_group.locale, rolled))
    _revealed[placeholder] = None
    if len(_revealed) > REVEALED_KEPT:
        _revealed.popitem(last=False)


async def _edit_once(message: Message, text: str) -> bool:
    """Edit the placeholder into the card (dropping the button); False when it already was —
    two presses racing each other both saw the button, and Telegram refuses the identical
    second edit as "not modified"."""
    try:
        await message.edit_text(text, reply_markup=None)
    except TelegramBadRequest as error:
        if "message is not modified" in error.message:
            return False
        raise
    return True


async def reveal_refused(
    query: CallbackQuery, callback_answer: CallbackAnswer, t: Translator
) -> None:
    notify(callback_answer, t("Only the GM can reveal a secret roll."), alert=True)


def create_router() -> Router:
    router = Router(name=__name__)
    in_group = F.chat.type.in_({"group", "supergroup"})
    router.message.register(groups_only, Command("sroll"), F.chat.type == "private")
    router.message.register(secret_roll, Command("sroll"), in_group, IsGM())
    router.message.register(not_gm, Command("sroll"), in_group, HasGame())
    router.message.register(no_game, Command("sroll"), in_group)
    router.callback_query.register(reveal, SecretRevealCD.filter(), IsGM())
    router.callback_query.register(reveal_refused, SecretRevealCD.filter())
    return router
