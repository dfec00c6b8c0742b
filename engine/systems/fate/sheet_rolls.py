"""``/r`` shorthands against a FATE sheet: ``Атлетика``, ``Атлетика +1 vs 2``, ``Athletics vs
Хорошо`` → ``4dF+<skill>`` (a ladder name reads as its value)."""

from __future__ import annotations

import re
from typing import Final

from engine import formats
from engine.common import SheetModel
from engine.systems import fate
from engine.systems.fate.models import SKILL_NAMES_RU
from engine.systems.sheet_rolls import (
    Names,
    SheetRoll,
    clean,
    render,
    require,
    split_modifiers,
    split_target,
)
from engine.text import msg


def _fate_names() -> Names:
    return Names(
        (skill.value, (SKILL_NAMES_RU[skill], render(msg(f"fate.skill.{skill.value}"), "en")))
        for skill in fate.Skill
    )


_LADDER_NAMES: Final = Names((str(value), (ru, en)) for value, (ru, en) in fate.LADDER.items())


def _fate_target(text: str) -> tuple[str, int | None]:
    """As ``split_target``, also reading a ladder name: ``Атлетика vs Хорошо``."""
    words = re.match(r"^(.*?)\s+(?:vs\.?|против)\s+(\S.*?)\s*$", text, re.IGNORECASE)
    if words is not None:
        value = _LADDER_NAMES.find(words.group(2).rstrip("!"))
        if value is None:
            value = _LADDER_NAMES.find(words.group(2))
        if value is not None:
            return words.group(1), int(value)
    return split_target(text, example=2)


def _plan(character: fate.Character, text: str, locale: str) -> SheetRoll:
    rest, target = _fate_target(text)
    name, modifier = split_modifiers(rest)
    require(name, "Атлетика vs 2" if locale == "ru" else "Athletics vs 2")
    names = _fate_names()
    skill = fate.Skill(names.get(name, (_skill_label(s, locale) for s in fate.Skill)))
    value = character.skill(skill)
    title = f"{_skill_label(skill, locale)} ({fate.signed(value)})"
    if modifier:
        title += f" {formats.signed(modifier)}"
    return SheetRoll(fate.fate_notation(value + modifier), title, target, "fate")


def _skill_label(skill: fate.Skill, locale: str) -> str:
    return render(msg(f"fate.skill.{skill.value}"), locale)


class FateSheetRolls:
    """``base.SheetRolls`` for this system."""

    def plan(self, character: SheetModel, text: str, locale: str) -> SheetRoll:
        if not isinstance(character, fate.Character):
            raise ValueError(f"not a sheet of this system: {type(character).__name__}")
        return _plan(character, clean(text), locale)

    def prefers_sheet_roll(self, text: str) -> bool:
        return False


SHEET_ROLLS: Final = FateSheetRolls()
