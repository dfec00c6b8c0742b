"""Which message a press may edit. Callback data is forgeable text: a modified client can send
any button's data on any message (a sealed /sroll card, a live tracker). So a handler edits the
pressed message only when that message is its own kind:

* messages the database knows (a tracker's, a roll request's card) are checked against the
  message id stored with them (``bot/services/trackers/core.load``, ``RequestDTO.shown_at``);
* read-only screens (the start message, help, the language menu, /log pages, sheet pages) are
  recognised by the keyboard the pressed message carries: a button of the same kind must be on
  it. A read-only press anywhere else is answered with a fresh message (``show``);
* panels that change something (/options, /game's buttons, /milestone, /schedule, /res) are
  recognised the same way, and a press on any other message is refused (``own``).
"""

from __future__ import annotations

from typing import Any

from aiogram.filters.callback_data import CallbackData
from aiogram.types import CallbackQuery, InlineKeyboardMarkup, Message
from aiogram.utils.callback_answer import CallbackAnswer

from bot.i18n import Translator
from handlers.callbacks import notify
from handlers.views.edit import edit_text


def carries(message: Message, *kinds: type[CallbackData], **same: Any) -> bool:
    """Whether the message's own keyboard has a button of one of ``kinds`` (by prefix) whose
    fields equal ``same`` (e.g. the same character)."""
    markup = message.reply_markup
    if markup is None:
        return False
    for row in markup.inline_keyboard:
        for button in row:
            data = button.callback_data
            if data is None:
                continue
            for kind in kinds:
                prefix = kind.__prefix__
                if data != prefix and not data.startswith(prefix + kind.__separator__):
                    continue  # (a kind without fields packs as its bare prefix)
                try:
                    unpacked = kind.unpack(data)
                except (TypeError, ValueError):
                    continue
                if all(getattr(unpacked, name, None) == value for name, value in same.items()):
                    return True
    return False


async def show(
    message: Message,
    text: str,
    reply_markup: InlineKeyboardMarkup | None,
    *kinds: type[CallbackData],
    **same: Any,
) -> None:
    """A read-only screen: redraw the pressed message when it is one of ``kinds`` (see
    ``carries``); otherwise leave it alone and send the screen as a new message."""
    if carries(message, *kinds, **same):
        await edit_text(message, text, reply_markup)
    else:
        await message.answer(text, reply_markup=reply_markup)


def own(
    query: CallbackQuery,
    callback_answer: CallbackAnswer,
    t: Translator,
    *kinds: type[CallbackData],
    **same: Any,
) -> Message | None:
    """The pressed message when it is one of ``kinds`` (see ``carries``). Otherwise the press is
    refused with a word and None comes back: the handler then changes nothing."""
    message = query.message
    if isinstance(message, Message) and carries(message, *kinds, **same):
        return message
    notify(callback_answer, t("This button is no longer active."), alert=True)
    return None
