"""A player's request for a gain, the GM's one-tap answer, and the /options switch for it."""

from __future__ import annotations

import html
from typing import Any

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import Translator
from bot.services import resources as service
from bot.services.grants import Decided
from bot.services.resources import PoolName
from db.repositories.games import CharacterDTO
from handlers.views import resources as panel


class GrantCD(CallbackData, prefix="grq"):
    """The GM grants (``yes``) or refuses a player's request."""

    grant_id: int
    yes: bool


class GrantTrustCD(CallbackData, prefix="gtr"):
    """/options: players gain without asking (``on``) or ask the GM."""

    on: bool


def _e(text: str) -> str:
    return html.escape(text, quote=False)


def what(t: Translator, op: service.Op, character: CharacterDTO) -> str:
    """The gain asked for, in words (plain text)."""
    if isinstance(op, service.FatePoints):
        return t("+1 fate point")
    if isinstance(op, service.Pool):
        return t("+1 Willpower") if op.trait is PoolName.WILLPOWER else t("+1 Glamour")
    if isinstance(op, service.MatterHealth):
        return t("+1 Health")
    if isinstance(op, service.ClicheDice):
        cliches: Any = getattr(service.load(character), "cliches", ())
        name = cliches[op.index].name if 0 <= op.index < len(cliches) else "?"
        return t("a lost die back to «{name}»", name=name)
    if isinstance(op, service.GearState):
        gear: Any = getattr(service.load(character), "gear", ())
        name = gear[op.index].name if 0 <= op.index < len(gear) else "?"
        return t("«{name}» ready again", name=name)
    if isinstance(op, service.MatterState):
        return t("without the state «{name}»", name=panel._state_name(op.state, t.locale))
    return t("Nothing changed.")


def request_text(t: Translator, character: CharacterDTO, op: service.Op, asker: str) -> str:
    return t(
        "🙋 <b>{name}</b>: {what}?\nAsked by {asker}; the GM decides.",
        name=_e(character.name), what=_e(what(t, op, character)), asker=_e(asker),
    )  # fmt: skip


def request_keyboard(t: Translator, grant_id: int) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(
                    text=t("✅ Grant"), callback_data=GrantCD(grant_id=grant_id, yes=True).pack()
                ),
                InlineKeyboardButton(
                    text=t("✖️ Refuse"),
                    callback_data=GrantCD(grant_id=grant_id, yes=False).pack(),
                ),
            ]
        ]
    )


def decided_text(t: Translator, locale: str, decided: Decided, asker: str, gm: str) -> str:
    name, asked = _e(decided.character.name), _e(what(t, decided.op, decided.character))
    if decided.applied is None:
        return t(
            "✖️ <b>{name}</b>: {what} — refused by the GM ({gm}). Asked by {asker}.",
            name=name, what=asked, gm=_e(gm), asker=_e(asker),
        )  # fmt: skip
    return t(
        "✅ <b>{name}</b>: {summary}. Asked by {asker}, granted by {gm}.",
        name=name, summary=_e(panel.change_summary(t, locale, decided.applied)), gm=_e(gm),
        asker=_e(asker),
    )  # fmt: skip


def trust_line(t: Translator, trusted: bool) -> str:
    return (
        t("Players gain resources: <b>without asking</b>")
        if trusted
        else t("Players gain resources: <b>the GM grants each request</b>")
    )


def trust_button(t: Translator, trusted: bool) -> InlineKeyboardButton:
    label = t("🙋 Gains: ask the GM") if trusted else t("🤝 Gains: no asking")
    return InlineKeyboardButton(text=label, callback_data=GrantTrustCD(on=not trusted).pack())


def with_trust(
    t: Translator, text: str, keyboard: InlineKeyboardMarkup, trusted: bool
) -> tuple[str, InlineKeyboardMarkup]:
    """The /options message with the gains switch added (every system has it)."""
    rows = [*keyboard.inline_keyboard, [trust_button(t, trusted)]]
    shown = "\n\n".join(part for part in (text, trust_line(t, trusted)) if part)
    return shown, InlineKeyboardMarkup(inline_keyboard=rows)
