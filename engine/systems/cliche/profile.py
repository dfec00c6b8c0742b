"""What the cliché system tells the bot beyond one roll (``engine.systems.base``): its milestones
and its roll requests (multi-roll cards: ``cards.py``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.common import Change, SheetModel
from engine.dice.source import RandomSource
from engine.systems.base import MilestoneRoll, RequestOption, RequestRules, RolledMilestone
from engine.systems.cliche.advancement import AdvancementOutcome, MilestoneKind, apply_milestone
from engine.systems.cliche.rolls import TargetNumber
from engine.systems.cliche.sheet import MAX_CLICHE_DICE, Character, ClicheOptions
from engine.text import msg


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

    def planned_rolls(self, character: SheetModel) -> tuple[MilestoneRoll, ...]:
        """DECISION: every cliché that can advance is rolled (the bot cannot know which ones
        were used actively); armour clichés are never rolled, a cliché at 6 cannot rise."""
        assert isinstance(character, Character)
        return tuple(
            MilestoneRoll(
                c.name, f"{c.dice}d6", msg("cliche.advancement.plan", name=c.name, dice=c.dice)
            )
            for c in character.cliches
            if not c.armor and 1 <= c.dice < MAX_CLICHE_DICE
        )

    def apply_rolled(
        self, character: SheetModel, rolls: Sequence[MilestoneRoll], source: RandomSource
    ) -> tuple[SheetModel, list[Change], list[RolledMilestone]]:
        assert isinstance(character, Character)
        made: list[AdvancementOutcome] = []
        after, changes = apply_milestone(
            character, MilestoneKind.END_OF_ADVENTURE, source=source,
            used=[r.key for r in rolls], rolls=made,
        )  # fmt: skip
        rolled = [
            RolledMilestone(
                o.cliche,
                o.notation,
                o.faces,
                msg("cliche.advancement.rose" if o.advanced else "cliche.advancement.same"),
            )
            for o in made
            if o.faces
        ]
        return after, changes, rolled


def _levels(locale: str) -> list[tuple[int, str]]:
    return [(int(n), f"{int(n)} · {n.label.render(locale)}") for n in TargetNumber]


MILESTONES: Final = ClicheMilestones()
REQUESTS: Final = RequestRules(
    levels=_levels, trait_option="cliche", offers=frozenset({RequestOption.PUMP})
)
