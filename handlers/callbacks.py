"""Callback data: one class per action, short prefixes, ids and enum values only (≤ 64 bytes)."""

from __future__ import annotations

from enum import StrEnum

from aiogram.filters.callback_data import CallbackData


class Screen(StrEnum):
    HOME = "home"
    HELP = "help"
    LANG = "lang"


class ScreenCD(CallbackData, prefix="scr"):
    """Switch the start message between its screens (edits the message in place)."""

    screen: Screen


class LangCD(CallbackData, prefix="lang"):
    """Choose the interface language; in a group it sets the chat's language."""

    locale: str
