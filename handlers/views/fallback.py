"""The replies that tell a lost user what to do next."""

from __future__ import annotations

from html import escape

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.commands import ChatCommand
from bot.i18n import Translator
from bot.systems import SYSTEMS


def unknown(t: Translator, word: str, suggestion: str | None) -> str:
    typed = escape("/" + word[:40])
    if suggestion is None:
        return t("I do not know the command {typed}. All commands: /help", typed=typed)
    return t(
        "I do not know the command {typed}. Did you mean /{suggestion}? All commands: /help",
        typed=typed,
        suggestion=escape(suggestion),
    )


MAX_GAMES_NAMED = 3


def _clip(title: str, width: int = 40) -> str:
    return title if len(title) <= width else title[: width - 1] + "…"


def group_only(t: Translator, name: str, games: list[str] | None = None) -> str:
    """A group command sent to our private chat; ``games``: the titles of the sender's live
    games (a GM who runs one is not told to start a game)."""
    if games:
        return t(
            "/{name} works in the group where the game is played: send it there. Your games: "
            "{titles}.",
            name=escape(name),
            titles=", ".join(f"«{escape(_clip(title))}»" for title in games[:MAX_GAMES_NAMED])
            + (", …" if len(games) > MAX_GAMES_NAMED else ""),
        )
    return t(
        "/{name} works in the group where the game is played: send it there. To start a game, "
        "add me to a group and send /newgame there.",
        name=escape(name),
    )


def private_only(t: Translator, name: str) -> str:
    return t("/{name} works in our private chat: send it to me there.", name=escape(name))


def dm_keyboard(t: Translator, username: str | None) -> InlineKeyboardMarkup | None:
    if not username:
        return None
    button = InlineKeyboardButton(
        text="💬 " + t("Open our private chat"), url=f"https://t.me/{username}"
    )
    return InlineKeyboardMarkup(inline_keyboard=[[button]])


def not_here(t: Translator, command: ChatCommand) -> str:
    """A known command that no handler took here (e.g. one system's command in another's game)."""
    if command.systems:
        titles = ", ".join(t(SYSTEMS[s].title) for s in command.systems if s in SYSTEMS)
        return t(
            "/{name} is for games of these systems: {titles}. What this game offers: /help",
            name=escape(command.name),
            titles=escape(titles),
        )
    return t("/{name} cannot be used here now. All commands: /help", name=escape(command.name))
