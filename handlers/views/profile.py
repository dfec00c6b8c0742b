from __future__ import annotations

from html import escape

from bot.i18n import Translator
from engine import formats


def ask_name(t: Translator) -> str:
    return t("Step 1 of 2. How should the table call you? (up to 64 characters)")


def bad_name(t: Translator) -> str:
    return t("That name does not fit: one line, 1 to 64 characters. Try again, or /cancel.")


def ask_timezone(t: Translator, name: str) -> str:
    return t(
        "Step 2 of 2. Nice to meet you, {name}! Your time zone? For example Europe/Moscow or +3.",
        name=f"<b>{escape(name)}</b>",
    )


def bad_timezone(t: Translator) -> str:
    return t("I don't know that time zone. Write it like Europe/Moscow or +3, or /cancel.")


def saved(t: Translator, name: str, zone: str) -> str:
    return t(
        "Saved: {name}, time zone {zone}.",
        name=f"<b>{escape(name)}</b>",
        zone=f"<code>{escape(formats.zone_name(zone))}</code>",
    )
