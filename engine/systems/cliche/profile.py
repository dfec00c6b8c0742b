"""What the cliché system tells the bot beyond one roll (``engine.systems.base``): its milestones
and its roll requests (multi-roll cards: ``cards.py``)."""

from __future__ import annotations

from typing import Final

from engine.common import Change, SheetModel
from engine.systems.base import RequestOption, RequestRules
from engine.systems.cliche.advancement import MilestoneKind, apply_milestone
from engine.systems.cliche.rolls import TargetNumber
from engine.systems.cliche.sheet import Character, ClicheOptions


class ClicheMilestones:
    # WOW (one roll mid-game) is the GM's call on one character, not a table milestone.
    kinds: Final = (MilestoneKind.RECOVERY.value, MilestoneKind.END_OF_ADVENTURE.value)
    rolled_kind: Final = MilestoneKind.END_OF_ADVENTURE.value

    def apply(
        self, kind: str, character: SheetModel, options: SheetModel
    ) -> tuple[SheetModel, list[Change]]:
        assert isinstance(character, Character) and isinstance(options, ClicheOptions)
        if kind != MilestoneKind.RECOVERY.value:
            raise ValueError(f"not applied without dice: {kind}")
        return apply_milestone(character, MilestoneKind.RECOVERY, options=options)


def _levels(locale: str) -> list[tuple[int, str]]:
    return [(int(n), f"{int(n)} · {n.label.render(locale)}") for n in TargetNumber]


MILESTONES: Final = ClicheMilestones()
REQUESTS: Final = RequestRules(
    levels=_levels, trait_option="cliche", offers=frozenset({RequestOption.PUMP})
)
