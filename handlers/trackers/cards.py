"""Multi-roll cards (issue 8): opposed, extended and team rolls collected on one card.

``/opposed``, ``/extended``, ``/team`` (GM, in the game's group) open a card; each participant
presses their own 🎲 (a GM may press for anyone, NPCs are the GM's); the card is one message,
edited in the chat's language. The GM's «↩️ Undo» is the shared tracker button."""

from __future__ import annotations

import asyncio
import weakref

from aiogram import F, Router
from aiogram.exceptions import TelegramAPIError
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message
from aiogram.utils.callback_answer import CallbackAnswer

from bot.i18n import I18n, Translator
from bot.services.trackers import cards as service
from bot.services.trackers import core
from db.repositories.chats import ChatDTO
from db.repositories.games import GameDTO
from db.repositories.users import UserDTO
from db.uow import UnitOfWork
from handlers.callbacks import CardForCD, notify
from handlers.filters import HadGame, HasGame, IsGM
from handlers.games import gm_only, no_game
from handlers.owned import carries
from handlers.trackers import common, registry
from handlers.trackers.common import chat_translator, post, redraw, refresh
from handlers.views import requests as request_views
from handlers.views.edit import edit_markup
from handlers.views.trackers import cards as views
from handlers.views.trackers.cards import CardCancelCD, CardCloseYesCD, CardRollCD

COMMANDS = ("opposed", "extended", "team")
_OPEN = {
    "opposed": service.new_opposed,
    "extended": service.new_extended,
    "team": service.new_team,
}

for _kind in service.KINDS:
    registry.register(_kind, views.render)

# Presses on one card run one at a time in this process, the message edit included: two
# players pressing together commit in some order, and their edits must reach Telegram in that
# same order, or the card would show the older tally last.
_LOCKS: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()


def _lock(tracker_id: int) -> asyncio.Lock:
    lock = _LOCKS.get(tracker_id)
    if lock is None:
        lock = asyncio.Lock()
        _LOCKS[tracker_id] = lock
    return lock


async def new_card(
    message: Message, command: CommandObject, game: GameDTO, uow: UnitOfWork, user: UserDTO,
    i18n: I18n, chat_info: ChatDTO | None,
) -> None:  # fmt: skip
    t = chat_translator(i18n, chat_info)
    name = command.command.lower()
    if not command.args or not command.args.strip():
        await message.answer(views.usage(t, name))
        return
    try:
        tracker = await _OPEN[name](uow, game, command.args, gm_user_id=user.id, t=t)
    except service.CardInputError as error:
        usage = "\n\n" + views.usage(t, name) if error.usage else ""
        await message.reply(error.text + usage)
        return
    except core.TrackerRefused as refused:
        await message.reply(t(refused.reason))
        return
    await post(message, uow, t, tracker)


async def press_roll(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: CardRollCD,
    uow: UnitOfWork, user: UserDTO, t: Translator, i18n: I18n, chat_info: ChatDTO | None,
) -> None:  # fmt: skip
    message = query.message
    if not isinstance(message, Message):
        return
    card_t = chat_translator(i18n, chat_info)
    async with _lock(callback_data.tracker_id):
        await _roll(message, callback_answer, callback_data, uow, user, t, card_t)


async def _roll(
    message: Message, callback_answer: CallbackAnswer, callback_data: CardRollCD,
    uow: UnitOfWork, user: UserDTO, t: Translator, card_t: Translator,
) -> None:  # fmt: skip
    try:
        tracker = await service.press(
            uow, tracker_id=callback_data.tracker_id, chat_id=message.chat.id,
            message_id=message.message_id, slot=callback_data.slot, count=callback_data.n,
            user_id=user.id, user_name=user.name, t=card_t,
        )  # fmt: skip
    except service.RollForPlayer as asked:
        # the answer says it too; the confirmation is a message with buttons
        notify(callback_answer, t("Roll for the player? ({name})", name=asked.player))
        d = callback_data
        await message.reply(
            request_views.roll_for_question(t, asked.player),
            reply_markup=request_views.roll_for_keyboard(
                t, CardForCD, tracker_id=d.tracker_id, slot=d.slot, n=d.n
            ),
        )
        return
    except core.TrackerRefused as refused:
        # A second tap on one's own button is no mistake: a short note, not an alert.
        notify(callback_answer, t(refused.reason), alert=refused.reason != service.ROLLED)
        return
    roll = tracker.state["slots"][callback_data.slot]["rolls"][-1]
    notify(callback_answer, f"🎲 {roll['total']}")
    await refresh(message, uow, card_t, tracker)


async def roll_for(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: CardForCD,
    uow: UnitOfWork, user: UserDTO, t: Translator, i18n: I18n, chat_info: ChatDTO | None,
) -> None:  # fmt: skip
    """The GM's answer on the confirmation: roll the slot for its player (the card's own
    message shows it, and who rolled), or not; the confirmation goes either way."""
    message, d = query.message, callback_data
    if not isinstance(message, Message) or not carries(
        message, CardForCD, tracker_id=d.tracker_id, slot=d.slot, n=d.n
    ):
        notify(callback_answer, t("This button is no longer active."), alert=True)
        return
    if d.go:
        card_t = chat_translator(i18n, chat_info)
        async with _lock(d.tracker_id):
            try:
                tracker = await service.press(
                    uow, tracker_id=d.tracker_id, chat_id=message.chat.id, message_id=None,
                    slot=d.slot, count=d.n, user_id=user.id, user_name=user.name, t=card_t,
                    for_player=True,
                )  # fmt: skip
            except core.TrackerRefused as refused:
                notify(callback_answer, t(refused.reason), alert=refused.reason != service.ROLLED)
                return
            roll = tracker.state["slots"][d.slot]["rolls"][-1]
            notify(callback_answer, f"🎲 {roll['total']}")
            await redraw(message, uow, card_t, tracker)
    try:
        await message.delete()
    except TelegramAPIError:  # too old to delete: at least no buttons are left on it
        await edit_markup(message, None)


async def roll_for_refused(
    query: CallbackQuery, callback_answer: CallbackAnswer, t: Translator
) -> None:
    notify(callback_answer, t("Only the GM can do that."), alert=True)


async def ask_close(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: CardCancelCD,
    game: GameDTO, uow: UnitOfWork, t: Translator,
) -> None:  # fmt: skip
    """«Close the card» asks first (a closed card keeps no buttons): its keyboard turns into
    «Yes, close it» / «Cancel» in place."""
    d = callback_data
    async with _lock(d.tracker_id):
        await common.ask_end(
            query, callback_answer, uow, t, game, tracker_id=d.tracker_id, kind=service.KINDS,
            shown=d.v, yes=views.close_confirmed(t, d),
        )  # fmt: skip


async def press_cancel(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: CardCloseYesCD,
    uow: UnitOfWork, user: UserDTO, t: Translator, i18n: I18n, chat_info: ChatDTO | None,
) -> None:  # fmt: skip
    message = query.message
    if not isinstance(message, Message):
        return
    card_t = chat_translator(i18n, chat_info)
    async with _lock(callback_data.tracker_id):
        try:
            tracker = await service.cancel(
            uow, tracker_id=callback_data.tracker_id, chat_id=message.chat.id,
            message_id=message.message_id, version=callback_data.v, user_id=user.id, t=card_t,
            )  # fmt: skip
        except core.TrackerRefused as refused:
            notify(callback_answer, t(refused.reason), alert=True)
            return
        notify(callback_answer, t("Cancelled."))
        await refresh(message, uow, card_t, tracker)


def create_router() -> Router:
    router = Router(name=__name__)
    router.message.filter(F.chat.type.in_({"group", "supergroup"}))
    router.callback_query.filter(F.message.chat.type.in_({"group", "supergroup"}))
    router.message.register(new_card, Command(*COMMANDS), IsGM())
    router.message.register(gm_only, Command(*COMMANDS), HasGame())
    router.message.register(no_game, Command(*COMMANDS))
    router.callback_query.register(press_roll, CardRollCD.filter())
    router.callback_query.register(roll_for, CardForCD.filter(), IsGM())
    router.callback_query.register(roll_for_refused, CardForCD.filter())
    # a card outlives its game: an archived game's GM may still close it
    router.callback_query.register(ask_close, CardCancelCD.filter(), HasGame())
    router.callback_query.register(ask_close, CardCancelCD.filter(), HadGame())
    router.callback_query.register(press_cancel, CardCloseYesCD.filter())
    return router
