from __future__ import annotations

from html import escape

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import Translator
from handlers.callbacks import LangCD, Screen, ScreenCD

LANGUAGE_NAMES = {"ru": "Русский", "en": "English"}


def start_text(t: Translator, name: str, *, in_group: bool) -> str:
    greeting = t("Hello, {name}!", name=f"<b>{escape(name)}</b>")
    if in_group:
        body = t(
            "I run tabletop role-playing games in this chat: dice, character sheets, "
            "roll requests and milestones."
        )
    else:
        body = t(
            "I am a game master's companion for play-by-post games: dice you can verify, "
            "character sheets and roll requests."
        )
    return f"{greeting}\n\n{body}"


def start_keyboard(t: Translator) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(
                    text="❓ " + t("Help"), callback_data=ScreenCD(screen=Screen.HELP).pack()
                ),
                InlineKeyboardButton(
                    text="🌐 " + t("Language"), callback_data=ScreenCD(screen=Screen.LANG).pack()
                ),
            ]
        ]
    )


def language_text(t: Translator) -> str:
    return t("Choose the language:")


def language_keyboard(current: str) -> InlineKeyboardMarkup:
    buttons = [
        InlineKeyboardButton(
            text=("✅ " if code == current else "") + name,
            callback_data=LangCD(locale=code).pack(),
        )
        for code, name in LANGUAGE_NAMES.items()
    ]
    return InlineKeyboardMarkup(inline_keyboard=[buttons])
