"""The Mini App's button for a keyboard (no server imports: handlers use it)."""

from __future__ import annotations

from aiogram.types import InlineKeyboardButton, WebAppInfo

from bot.i18n import Translator


def sheet_button(t: Translator, url: str) -> InlineKeyboardButton:
    """«📱 Sheet»: opens the Mini App (Telegram allows it in private chats only)."""
    return InlineKeyboardButton(text=t("📱 Sheet"), web_app=WebAppInfo(url=url))
