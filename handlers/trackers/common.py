"""What every tracker shares: /tracker re-posts the open one at the bottom of the chat, and
the GM's «↩️ Undo» button takes back the last step. Also the helpers the systems' modules use
to post and refresh their tracker message in the chat's language."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import TypeVar

from aiogram import F, Router
from aiogram.exceptions import TelegramAPIError
from aiogram.filters import Command
from aiogram.filters.callback_data import CallbackData
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message
from aiogram.utils.callback_answer import CallbackAnswer

from bot.i18n import I18n, Translator
from bot.services import unit
from bot.services.ledger import LedgerError
from bot.services.requests import RequestRefused
from bot.services.trackers import core
from db.repositories.chats import ChatDTO
from db.repositories.games import GameDTO
from db.repositories.trackers import TrackerDTO
from db.uow import UnitOfWork
from engine.errors import EngineError
from handlers.callbacks import notify
from handlers.filters import HasGame
from handlers.games import no_game
from handlers.trackers.registry import render
from handlers.views.edit import edit_markup, edit_text

MAX_TEXT = 4096


class TrackerUndoCD(CallbackData, prefix="tku"):
    """The GM takes back the step that is the newest of tracker ``tracker_id`` at version ``v``
    (the version the button was drawn at: that names one step, refused once it moved on)."""

    tracker_id: int
    v: int


class TrackerCancelCD(CallbackData, prefix="tkn"):
    """«Cancel» under the question a GM's first «End» press draws in place (``ask_end``): the
    tracker's own keyboard comes back; nothing was changed."""

    tracker_id: int
    v: int


def chat_translator(i18n: I18n, chat: ChatDTO | None) -> Translator:
    """Trackers speak the chat's language, not the presser's: the message must render the same
    whoever presses (so a repeated press is a no-op edit, and nobody flips its language)."""
    return i18n.of_group(chat.locale if chat else None)


def button(text: str, data: CallbackData) -> InlineKeyboardButton:
    """A button that sends ``data`` (packed)."""
    return InlineKeyboardButton(text=text, callback_data=data.pack())


def in_rows(
    buttons: Sequence[InlineKeyboardButton], width: int
) -> list[list[InlineKeyboardButton]]:
    """``buttons`` laid out ``width`` to a row (the last row may be shorter)."""
    return [list(buttons[i : i + width]) for i in range(0, len(buttons), width)]


def undo_button(t: Translator, tracker: TrackerDTO) -> InlineKeyboardButton:
    return InlineKeyboardButton(
        text=t("↩️ Undo"),
        callback_data=TrackerUndoCD(tracker_id=tracker.id, v=tracker.version).pack(),
    )


async def ask_end(
    query: CallbackQuery, callback_answer: CallbackAnswer, uow: UnitOfWork, t: Translator,
    game: GameDTO, *, tracker_id: int, kind: str | tuple[str, ...], shown: int,
    yes: InlineKeyboardButton, also: Callable[[TrackerDTO], Awaitable[bool]] | None = None,
) -> None:  # fmt: skip
    """The first press of a tracker's «End»: an end cannot be undone (the ended tracker has no
    buttons), so its keyboard turns in place into ``yes`` (the same end, confirmed) and
    «Cancel»; the tracker itself is not touched. An old «End» button (drawn before the
    question existed) asks too. Who may ask: the GM, and whom ``also`` lets end it."""
    message = query.message
    if not isinstance(message, Message):
        return
    try:
        tracker = await core.may_end(
            uow, game, tracker_id, chat_id=message.chat.id, message_id=message.message_id,
            kind=kind, shown=shown, user_id=query.from_user.id, also=also,
        )  # fmt: skip
    except core.TrackerRefused as refused:
        notify(callback_answer, t(refused.reason), alert=True)
        return
    notify(callback_answer, t("End it for everyone?"))
    cancel = button(t("Cancel"), TrackerCancelCD(tracker_id=tracker.id, v=tracker.version))
    await edit_markup(message, InlineKeyboardMarkup(inline_keyboard=[[yes], [cancel]]))


async def press_cancel(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: TrackerCancelCD,
    uow: UnitOfWork, i18n: I18n, chat_info: ChatDTO | None, t: Translator,
) -> None:  # fmt: skip
    message = query.message
    if not isinstance(message, Message):
        return
    try:
        tracker = await core.load(
            uow, callback_data.tracker_id, chat_id=message.chat.id, message_id=message.message_id
        )
    except core.TrackerRefused as refused:
        notify(callback_answer, t(refused.reason), alert=True)
        return
    await refresh(message, uow, chat_translator(i18n, chat_info), tracker)


def clip(head: list[str], log: list[str], *, limit: int = MAX_TEXT - 96) -> str:
    """``head`` lines then as many of the newest ``log`` lines as fit in one message; older
    lines give way to an ellipsis so a long fight never outgrows Telegram's 4,096 characters."""
    text = "\n".join(head)
    kept: list[str] = []
    size = len(text)
    for line in reversed(log):
        if size + len(line) + 1 > limit:
            kept.append("…")
            break
        kept.append(line)
        size += len(line) + 1
    return "\n".join([*head, *reversed(kept)]) if kept else text


async def post(message: Message, uow: UnitOfWork, t: Translator, tracker: TrackerDTO) -> None:
    """Send the tracker as a new message in ``message``'s chat and remember it (commits)."""
    text, keyboard = await render(uow, t, tracker)
    sent = await message.answer(text, reply_markup=keyboard)
    await unit.committed(uow, partial(core.attach_message, uow, tracker, sent.message_id))


async def refresh(message: Message, uow: UnitOfWork, t: Translator, tracker: TrackerDTO) -> None:
    """Edit the tracker's message (the one the button was on) into its current state."""
    text, keyboard = await render(uow, t, tracker)
    await edit_text(message, text, keyboard)


async def open_and_post(
    message: Message,
    uow: UnitOfWork,
    t: Translator,
    chat_t: Translator,
    open_tracker: Callable[[], Awaitable[TrackerDTO]],
) -> None:
    """A GM's command that opens a tracker: a refusal is answered in the sender's language
    ``t``; otherwise the new tracker is posted in the chat's language ``chat_t`` (commits)."""
    try:
        tracker = await open_tracker()
    except core.TrackerRefused as refused:
        await message.answer(t(refused.reason))
        return
    await post(message, uow, chat_t, tracker)


async def redraw(message: Message, uow: UnitOfWork, t: Translator, tracker: TrackerDTO) -> None:
    """Edit the tracker's own message (``tracker.message_id``) from a message that is not it,
    e.g. a reply naming an aspect or a request card; a failed edit is let go."""
    if message.bot is None or tracker.message_id is None:
        return
    text, keyboard = await render(uow, t, tracker)
    with contextlib.suppress(TelegramAPIError):
        await message.bot.edit_message_text(
            text, chat_id=message.chat.id, message_id=tracker.message_id, reply_markup=keyboard
        )


Refusal = core.TrackerRefused | LedgerError | RequestRefused
T = TypeVar("T")


async def attempt(
    callback_answer: CallbackAnswer,
    uow: UnitOfWork,
    t: Translator,
    step: Callable[[], Awaitable[T]],
    *,
    refusals: tuple[type[Refusal], ...] = (core.TrackerRefused,),
    rollback: bool = True,
) -> T | None:
    """Run one press's use case and commit. A refusal (one of ``refusals``; its ``reason`` is a
    msgid) or an ``EngineError`` is an alert in the presser's language ``t`` and gives None;
    with ``rollback`` whatever the step wrote before refusing is rolled back first."""
    undo_on = (*refusals, EngineError) if rollback else (core.NotItsMessage,)
    try:
        return await unit.committed(uow, step, undo_on=undo_on)
    except refusals as refused:
        # A refusal may name what changed (``params``, e.g. who pressed first).
        notify(callback_answer, t(refused.reason, **getattr(refused, "params", {})), alert=True)
    except EngineError as error:
        notify(callback_answer, error.render(t.locale), alert=True)
    return None


async def step_on(
    message: Message,
    callback_answer: CallbackAnswer,
    uow: UnitOfWork,
    t: Translator,
    step: Callable[[], Awaitable[TrackerDTO]],
    *,
    refusals: tuple[type[Refusal], ...] = (core.TrackerRefused,),
    rollback: bool = True,
) -> TrackerDTO | None:
    """``attempt`` a step pressed on ``message``, which must be the stepped tracker's current
    message: a press on an old copy (re-posted by /tracker) or on any other message (a forged
    button) is refused and what the step wrote is rolled back, so such a press never moves a
    tracker nor redraws a message that is not the tracker's. The step loads the tracker
    locked, so /tracker cannot move it in between."""

    async def on_its_message() -> TrackerDTO:
        tracker = await step()
        if not core.shown_on(tracker, chat_id=message.chat.id, message_id=message.message_id):
            raise core.NotItsMessage()
        return tracker

    return await attempt(
        callback_answer, uow, t, on_its_message, refusals=(*refusals, core.NotItsMessage),
        rollback=rollback,
    )  # fmt: skip


async def step_and_refresh(
    message: Message,
    callback_answer: CallbackAnswer,
    uow: UnitOfWork,
    t: Translator,
    chat_t: Translator,
    step: Callable[[], Awaitable[TrackerDTO]],
    *,
    refusals: tuple[type[Refusal], ...] = (core.TrackerRefused,),
    rollback: bool = True,
) -> None:
    """The usual tracker button: ``step_on`` the pressed message, then redraw it in the chat's
    language ``chat_t``."""
    tracker = await step_on(
        message, callback_answer, uow, t, step, refusals=refusals, rollback=rollback
    )
    if tracker is not None:
        await refresh(message, uow, chat_t, tracker)


async def show_tracker(
    message: Message, game: GameDTO, uow: UnitOfWork, i18n: I18n, chat_info: ChatDTO | None
) -> None:
    t = chat_translator(i18n, chat_info)
    tracker = await core.current(uow, game)
    if tracker is None:
        await message.answer(t("Nothing is going on: no fight or scene is open."))
        return
    old = tracker.message_id
    await post(message, uow, t, tracker)
    if old is not None and message.bot is not None:
        # The old copy stops being a second set of live buttons.
        with contextlib.suppress(TelegramAPIError):
            await message.bot.edit_message_text(
                chat_id=message.chat.id, message_id=old, text=t("⤵️ Moved below.")
            )


async def press_undo(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: TrackerUndoCD,
    game: GameDTO, uow: UnitOfWork, i18n: I18n, chat_info: ChatDTO | None, t: Translator,
) -> None:  # fmt: skip
    message = query.message
    if not isinstance(message, Message):
        return

    async def undo() -> TrackerDTO:
        tracker = await core.load(
            uow, callback_data.tracker_id, chat_id=message.chat.id, message_id=message.message_id
        )
        tracker, _action = await core.undo(
            uow, game, tracker, actor_user_id=query.from_user.id, shown=callback_data.v
        )
        return tracker

    try:
        tracker = await unit.committed(uow, undo, undo_on=(core.TrackerRefused,))
    except core.TrackerRefused as refused:
        notify(callback_answer, t(refused.reason), alert=True)
        return
    notify(callback_answer, t("Undone."))
    await refresh(message, uow, chat_translator(i18n, chat_info), tracker)


def create_router() -> Router:
    router = Router(name=__name__)
    router.message.filter(F.chat.type.in_({"group", "supergroup"}))
    router.callback_query.filter(F.message.chat.type.in_({"group", "supergroup"}))
    router.message.register(show_tracker, Command("tracker"), HasGame())
    router.message.register(no_game, Command("tracker"))
    router.callback_query.register(press_undo, TrackerUndoCD.filter(), HasGame())
    router.callback_query.register(press_cancel, TrackerCancelCD.filter(), HasGame())
    return router
