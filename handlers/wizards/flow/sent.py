"""A submitted wizard's message: the sheet as sent, not the preview it was.

Closing the dialog only takes the keyboard off, so the message would still ask the player to
«check the character, go back to any step, or send it» with nothing left to press. It is
redrawn as the sheet under «✅ Done», the record of what the GM received."""

from __future__ import annotations

from typing import Any

from aiogram.exceptions import TelegramAPIError
from aiogram.types import CallbackQuery, Message

from bot.i18n import Translator
from handlers.views.edit import edit_text
from handlers.views.sheets import fit


async def show_sent(callback: CallbackQuery, sheet_html: str, t: Translator) -> None:
    message: Any = callback.message
    if not isinstance(message, Message):
        return
    try:
        await edit_text(message, t("✅ <b>Done</b>") + "\n\n" + fit(sheet_html, 3500))
    except TelegramAPIError:
        pass  # the wizard is closed and the player was told in a new message: nothing is lost
