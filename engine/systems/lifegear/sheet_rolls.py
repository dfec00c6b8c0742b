"""``/r`` shorthands against a lifegear sheet: ``Стрельба vs 10`` → the stat's dice
expression (``1d8+1d6+3``)."""

from __future__ import annotations

from typing import Final

from engine.common import SheetModel
from engine.systems import lifegear
from engine.systems.sheet_rolls import (
    Names,
    SheetRoll,
    check_target,
    clean,
    html,
    require,
    split_user_named,
)


def _plan_lifegear(character: lifegear.Character, text: str, locale: str) -> SheetRoll:
    names = [s.name for s in character.stats]
    rest, target = split_user_named(text, names)
    require(rest, html(names[0]) if names else "Стрельба vs 10")
    index = Names((str(i), (s.name,)) for i, s in enumerate(character.stats))
    stat = character.stats[int(index.get(rest, names))]
    check_target(target)
    notation = lifegear.parse_dice(stat.dice).render()
    return SheetRoll(notation, f"{stat.name} ({notation})", target, "lifegear")


class LifegearSheetRolls:
    """``base.SheetRolls`` for this system."""

    def plan(self, character: SheetModel, text: str, locale: str) -> SheetRoll:
        if not isinstance(character, lifegear.Character):
            raise ValueError(f"not a sheet of this system: {type(character).__name__}")
        return _plan_lifegear(character, clean(text), locale)

    def prefers_sheet_roll(self, text: str) -> bool:
        return False


SHEET_ROLLS: Final = LifegearSheetRolls()
