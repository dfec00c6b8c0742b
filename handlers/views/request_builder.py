"""The GM's «🎲 Request a roll» from a character's /sheet: the trait, then the difficulty, by
buttons; the message then becomes the normal request card.

Each step's button carries the choices made so far (sheet indices, not names): ``t`` the trait,
``a`` (storyteller) the ability (0 none, n the sheet's ability n−1), ``d`` the difficulty.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Final

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import Translator
from bot.systems import SYSTEMS
from engine.common import SheetModel
from engine.systems import cliche, fate, lifegear, matter, storyteller
from engine.systems.base import RequestRules
from engine.systems.storyteller.traits import Attribute, trait_name
from engine.text import has_message, msg

UNSET: Final = -1
NONE: Final = -99  # "no difficulty / no ability" chosen
CANCEL: Final = -98
MAX_TRAITS: Final = 30


class BuildCD(CallbackData, prefix="rqb"):
    c: int  # the character
    t: int = UNSET  # the trait (index into ``traits``); CANCEL closes the builder
    a: int = UNSET  # storyteller: 0 no ability, n the sheet's ability n−1
    d: int = UNSET  # the difficulty / opposition; NONE for none


@dataclass(frozen=True)
class Trait:
    label: str  # on the button
    name: str  # what the sheet shorthand reads (bot.services.sheet_rolls)


def request_button(t: Translator, character_id: int) -> InlineKeyboardButton:
    return InlineKeyboardButton(
        text="🎲 " + t("Request a roll"), callback_data=BuildCD(c=character_id).pack()
    )


def _fate_traits(character: fate.Character, locale: str) -> list[Trait]:
    """By level, then by the name shown (the English keys' order put «Воздух» before
    «Внимательность»); only the skills above +0, unless there are none."""
    names = {s: msg(f"fate.skill.{s.value}").render(locale) for s in fate.Skill}
    ranked = sorted(fate.Skill, key=lambda s: (-character.skill(s), names[s].lower()))
    shown = [s for s in ranked if character.skill(s) > 0] or ranked
    return [Trait(f"{names[s]} {fate.signed(character.skill(s))}", names[s]) for s in shown]


def traits(system: str, character: SheetModel, locale: str) -> list[Trait]:
    """What the GM may ask for, from the sheet, in a fixed order."""
    found: list[Trait] = []
    if isinstance(character, fate.Character):
        found += _fate_traits(character, locale)
    elif isinstance(character, storyteller.Character):
        for attribute in Attribute:
            name = trait_name(attribute.value).render(locale)
            dots = getattr(character.attributes, attribute.value)
            found.append(Trait(f"{name} {dots}", name))
    elif isinstance(character, matter.Character):
        for key in character.skills:
            name = matter_label(key, locale)
            # The pool the states leave (Мини: a physical skill is one die).
            found.append(Trait(f"{name} {matter.action_dice(character, key).dice}", name))
    elif isinstance(character, cliche.Character):
        for item in character.cliches:
            dice = cliche.effective_dice(item)
            if not item.armor and dice > 0:
                found.append(Trait(f"{item.name} ({dice})", item.name))
    elif isinstance(character, lifegear.Character):
        for stat in character.stats:
            found.append(Trait(f"{stat.name} ({stat.dice})", stat.name))
    del system
    return found[:MAX_TRAITS]


def matter_label(key: str, locale: str) -> str:
    full = f"matter.trait.{key}"
    return msg(full).render(locale) if has_message(full) else key.replace("_", " ")


def abilities(character: storyteller.Character, locale: str) -> list[Trait]:
    return [
        Trait(f"{trait_name(a.key).render(locale)} {a.dots}", trait_name(a.key).render(locale))
        for a in character.abilities
        if a.dots > 0
    ][:MAX_TRAITS]


def levels(system: str, locale: str) -> list[tuple[int, str]]:
    """The difficulty / opposition buttons in the system's own words; [] when there is none."""
    spec = SYSTEMS.get(system)
    return spec.requests.levels(locale) if spec is not None else []


def sheet_text(system: str, trait: str, ability: str | None, level: int | None) -> str:
    """The sheet shorthand the request reads (``Атлетика vs 3``, ``Ловкость+Атлетизм 7``)."""
    spec = SYSTEMS.get(system)
    rules = spec.requests if spec is not None else RequestRules()
    return rules.sheet_text(trait, ability, level)


def _grid(buttons: list[InlineKeyboardButton], width: int) -> list[list[InlineKeyboardButton]]:
    return [buttons[i : i + width] for i in range(0, len(buttons), width)]


def _cancel(t: Translator, character_id: int) -> list[InlineKeyboardButton]:
    return [
        InlineKeyboardButton(
            text="✖ " + t("Cancel"), callback_data=BuildCD(c=character_id, t=CANCEL).pack()
        )
    ]


def trait_step(
    t: Translator, character_id: int, name: str, found: list[Trait]
) -> tuple[str, InlineKeyboardMarkup]:
    buttons = [
        InlineKeyboardButton(
            text=trait.label[:40], callback_data=BuildCD(c=character_id, t=i).pack()
        )
        for i, trait in enumerate(found)
    ]
    text = t("🎲 A roll for {name}: what does the player roll?", name=f"<b>{escape(name)}</b>")
    rows = [*_grid(buttons, 2), _cancel(t, character_id)]
    return text, InlineKeyboardMarkup(inline_keyboard=rows)


def ability_step(
    t: Translator, data: BuildCD, name: str, trait: Trait, found: list[Trait]
) -> tuple[str, InlineKeyboardMarkup]:
    buttons = [
        InlineKeyboardButton(
            text="— " + t("no ability"),
            callback_data=BuildCD(c=data.c, t=data.t, a=0).pack(),
        )
    ]
    buttons += [
        InlineKeyboardButton(
            text=ability.label[:40],
            callback_data=BuildCD(c=data.c, t=data.t, a=i + 1).pack(),
        )
        for i, ability in enumerate(found)
    ]
    text = t(
        "🎲 A roll for {name}: {trait} plus which ability?",
        name=f"<b>{escape(name)}</b>",
        trait=escape(trait.name),
    )
    rows = [*_grid(buttons, 2), _cancel(t, data.c)]
    return text, InlineKeyboardMarkup(inline_keyboard=rows)


def level_step(
    t: Translator, system: str, locale: str, data: BuildCD, name: str, what: str
) -> tuple[str, InlineKeyboardMarkup]:
    buttons = [
        InlineKeyboardButton(
            text=label[:40], callback_data=BuildCD(c=data.c, t=data.t, a=data.a, d=value).pack()
        )
        for value, label in levels(system, locale)
    ]
    spec = SYSTEMS[system]
    if not spec.requests.level_required:  # e.g. a storyteller roll: 6 by default
        buttons.append(
            InlineKeyboardButton(
                text="— " + t(spec.level_none),
                callback_data=BuildCD(c=data.c, t=data.t, a=data.a, d=NONE).pack(),
            )
        )
    ask = t(spec.level_ask)
    text = t(
        "🎲 A roll for {name}: {what} — {ask}",
        name=f"<b>{escape(name)}</b>",
        what=escape(what),
        ask=ask,
    )
    rows = [*_grid(buttons, 2), _cancel(t, data.c)]
    return text, InlineKeyboardMarkup(inline_keyboard=rows)
