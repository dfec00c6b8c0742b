"""Callback data of the navigation screens: help pages and picking one character of several.

(Kept apart from ``handlers.callbacks`` so the help pages can grow without touching it.)"""

from __future__ import annotations

from aiogram.filters.callback_data import CallbackData


class HelpCD(CallbackData, prefix="hlp"):
    """Open one page of the help (``handlers.views.help.PAGES``); read-only."""

    page: str


class SheetPickCD(CallbackData, prefix="spk"):
    """Show this character's sheet: the choice after an ambiguous ``/sheet name`` or the list of
    a player's characters in the private chat. Read-only; checked against the chat's game (in
    a group) or the presser's own characters (in private)."""

    character_id: int
