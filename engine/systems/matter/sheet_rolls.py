"""``/r`` shorthands against a Matter sheet: ``5`` (a pool), ``шанс``/``chance``, ``Жестокость
+1`` → ``<pool>d10>=7!`` or ``chance``; a roll here has no difficulty."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from engine import formats
from engine.common import SheetModel
from engine.systems import matter
from engine.systems.matter.rolls import CHANCE_NOTATION
from engine.systems.matter.rolls import pool_notation as matter_notation
from engine.systems.matter.states import state_message_key
from engine.systems.matter.traits import Skill as MatterSkill
from engine.systems.matter.traits import Trait as MatterTrait
from engine.systems.matter.traits import trait_message_key
from engine.systems.sheet_rolls import (
    INTEGER,
    VERSUS,
    VERSUS_EMPTY,
    Names,
    SheetRoll,
    SheetRollError,
    clean,
    html,
    normalize,
    number,
    render,
    require,
    split_modifiers,
)
from engine.text import msg, register_messages

MAX_MATTER_POOL: Final = 50
_CHANCE_WORDS: Final = frozenset({"шанс", "chance", "шанс-бросок"})

register_messages(
    {
        "sheetroll.matter.pool": {"ru": "Пул {dice}", "en": "Pool of {dice}"},
        "sheetroll.matter.chance": {"ru": "Шанс-бросок", "en": "Chance roll"},
        "sheetroll.matter.not_rolled": {
            "ru": "«{name}» не бросают. Бросьте навык ({skills}), пул (/r 5) или /r шанс.",
            "en": "“{name}” is not rolled. Roll a skill ({skills}), a pool (/r 5) or /r chance.",
        },
        "sheetroll.matter.one_die": {
            "ru": "{title} → 1 кубик (состояние «{state}»)",
            "en": "{title} → one die (state “{state}”)",
        },
    }
)

_MATTER_NAMES: Final[Mapping[str, tuple[str, str]]] = {
    skill.value: (
        render(msg(f"matter.trait.{skill.value}"), "ru"),
        render(msg(f"matter.trait.{skill.value}"), "en"),
    )
    for skill in MatterSkill
}


# The sheet's other values (Health, Willpower, Anger …): named, they are refused as not
# rolled rather than «the sheet has no Сила воли» (the seed rolls skills, pools, chance).
_NOT_ROLLED: Final = Names(
    (trait.value, (render(msg(trait_message_key(trait)), "ru"),
                   render(msg(trait_message_key(trait)), "en")))
    for trait in MatterTrait
)  # fmt: skip


def _matter_label(key: str, locale: str) -> str:
    names = _MATTER_NAMES.get(key)
    if names is None:
        return key
    return names[0] if locale == "ru" else names[1]


def _plan_matter(character: matter.Character, text: str, locale: str) -> SheetRoll:
    if VERSUS.search(text) or VERSUS_EMPTY.search(text):
        raise SheetRollError(msg("sheetroll.no_target_here"))
    if normalize(text) in _CHANCE_WORDS:
        return SheetRoll(CHANCE_NOTATION, render(msg("sheetroll.matter.chance"), locale), None,
                         "matter")  # fmt: skip
    rest, modifier = split_modifiers(text)
    require(rest, "Жестокость" if locale == "ru" else "Brutality")
    if INTEGER.fullmatch(rest):
        dots = number(rest)
        base = render(msg("sheetroll.matter.pool", dice=dots), locale)
        pool = dots + modifier
        title = base + (f" {formats.signed(modifier)}" if modifier else "")
    else:
        keys = list(dict.fromkeys([*_MATTER_NAMES, *character.skills]))
        names = Names((key, (*_MATTER_NAMES.get(key, ()), key.replace("_", " "))) for key in keys)
        if names.find(rest) is None and _NOT_ROLLED.find(rest) is not None:
            skills = ", ".join(_matter_label(k, locale) for k in keys)
            raise SheetRollError(
                msg("sheetroll.matter.not_rolled", name=html(rest), skills=html(skills))
            )
        key = names.get(rest, (_matter_label(k, locale) for k in keys))
        # The engine's pool for this skill now: effective dots, Мини/Жаба's single die.
        dice = matter.action_dice(character, key, modifier=modifier)
        pool = dice.dice
        title = f"{_matter_label(key, locale)} ({dice.dots})"
        title += f" {formats.signed(modifier)}" if modifier else ""
        if dice.one_die_by is not None:
            state = render(msg(state_message_key(dice.one_die_by)), locale)
            return SheetRoll(
                matter_notation(pool),
                render(msg("sheetroll.matter.one_die", title=title, state=state), locale),
                None,
                "matter",
            )
    if pool <= 0:
        chance = render(msg("sheetroll.matter.chance"), locale)
        return SheetRoll(CHANCE_NOTATION, f"{title} → {chance}", None, "matter")
    if pool > MAX_MATTER_POOL:
        raise SheetRollError(msg("sheetroll.number_too_big", value=pool, limit=MAX_MATTER_POOL))
    return SheetRoll(matter_notation(pool), title, None, "matter")


class MatterSheetRolls:
    """``base.SheetRolls`` for this system."""

    def plan(self, character: SheetModel, text: str, locale: str) -> SheetRoll:
        if not isinstance(character, matter.Character):
            raise ValueError(f"not a sheet of this system: {type(character).__name__}")
        return _plan_matter(character, clean(text), locale)

    def prefers_sheet_roll(self, text: str) -> bool:
        # A bare number is a pool (``/r 5`` → ``5d10>=7!``, not the constant 5) and
        # ``шанс``/``chance`` the chance roll read with its outcome words.
        cleaned = normalize(clean(text))
        return cleaned in _CHANCE_WORDS or INTEGER.fullmatch(cleaned.replace(" ", "")) is not None


SHEET_ROLLS: Final = MatterSheetRolls()
