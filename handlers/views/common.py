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


def help_text(t: Translator) -> str:
    title = t("Commands")
    table = t("At the table (group)")
    lines = [
        f"<b>{title}</b>",
        "/r 2d6+1 — " + t("roll dice, or a trait of your character: /r Athletics vs 2"),
        "/help dice — " + t("the dice notation"),
        "/odds 4dF+2 vs 3 — " + t("exact odds of a roll"),
        "/log — " + t("the roll log; /log export, /verify"),
        "/profile — " + t("your name and time zone"),
        "/lang — " + t("interface language"),
        "/cancel — " + t("cancel the current step"),
        "",
        f"<b>{table}</b>",
        "/newgame — " + t("start a game in this chat"),
        "/game — " + t("this chat's game"),
        "/sheet — " + t("a character sheet"),
        "/res — " + t("your character's resources (fate points, stress, dice…)"),
        "/tracker — " + t("the fight or scene in progress"),
        "/request, /milestone, /schedule, /sroll, /options — " + t("for the GM"),
        "/fight, /opposed, /extended, /team — " + t("fights, scenes and roll cards (GM)"),
    ]
    return "\n".join(lines)


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


def back_keyboard(t: Translator) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(
                    text="⬅️ " + t("Back"), callback_data=ScreenCD(screen=Screen.HOME).pack()
                )
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
