"""What the Storyteller system tells the bot beyond one roll (``engine.systems.base``): its
milestones and its roll requests (multi-roll cards: ``cards.py``)."""

from __future__ import annotations

from typing import Final

from engine.common import Change, SheetModel
from engine.systems.base import NoRolledMilestone, RequestRules
from engine.systems.storyteller.milestones import MilestoneKind, apply_milestone
from engine.systems.storyteller.options import StorytellerOptions
from engine.systems.storyteller.rolls import difficulty_name
from engine.systems.storyteller.sheet import Character

LEVELS: Final = tuple(range(3, 11))
"""The difficulty buttons of a roll request."""


class StorytellerMilestones(NoRolledMilestone):
    kinds: Final = tuple(k.value for k in MilestoneKind)

    def apply(
        self, kind: str, character: SheetModel, options: SheetModel
    ) -> tuple[SheetModel, list[Change]]:
        assert isinstance(character, Character) and isinstance(options, StorytellerOptions)
        return apply_milestone(character, MilestoneKind(kind), options=options)


def _levels(locale: str) -> list[tuple[int, str]]:
    return [(d, f"{d} · {difficulty_name(d).render(locale)}") for d in LEVELS]


def _sheet_text(trait: str, ability: str | None, level: int | None) -> str:
    pool = trait + (f"+{ability}" if ability else "")
    return pool if level is None else f"{pool} {level}"


MILESTONES: Final = StorytellerMilestones()
# A storyteller roll always has a difficulty (6 by default).
REQUESTS: Final = RequestRules(levels=_levels, level_required=True, sheet_text=_sheet_text)
