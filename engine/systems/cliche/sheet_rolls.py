"""``/r`` shorthands against a cliché sheet: ``Солдат vs 10`` → ``<effective dice>d6``."""

from __future__ import annotations

from typing import Final

from engine.common import SheetModel
from engine.errors import RuleViolation
from engine.systems import cliche
from engine.systems.sheet_rolls import (
    Names,
    SheetRoll,
    check_target,
    clean,
    html,
    require,
    split_user_named,
)
from engine.text import msg


def _plan_cliche(character: cliche.Character, text: str, locale: str) -> SheetRoll:
    names = [c.name for c in character.cliches]
    rest, target = split_user_named(text, names)
    require(rest, html(names[0]) if names else "Солдат vs 10")
    index = Names((str(i), (c.name,)) for i, c in enumerate(character.cliches))
    found = character.cliches[int(index.get(rest, names))]
    if found.armor:
        raise RuleViolation(msg("cliche.roll.armor_cannot_roll", name=html(found.name)))
    dice = cliche.effective_dice(found)
    if dice < 1:
        raise RuleViolation(msg("cliche.roll.cliche_unusable", name=html(found.name)))
    check_target(target)
    return SheetRoll(f"{dice}d6", f"{found.name} ({dice})", target, "cliche")


class ClicheSheetRolls:
    """``base.SheetRolls`` for this system."""

    def plan(self, character: SheetModel, text: str, locale: str) -> SheetRoll:
        if not isinstance(character, cliche.Character):
            raise ValueError(f"not a sheet of this system: {type(character).__name__}")
        return _plan_cliche(character, clean(text), locale)

    def prefers_sheet_roll(self, text: str) -> bool:
        return False


SHEET_ROLLS: Final = ClicheSheetRolls()
