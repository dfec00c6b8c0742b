"""What Matter tells the bot beyond one roll (``engine.systems.base``): its milestones and its roll
requests (multi-roll cards: ``cards.py``)."""

from __future__ import annotations

from typing import Final

from engine.common import Change, SheetModel
from engine.systems.base import NoRolledMilestone, RequestOption, RequestRules
from engine.systems.matter.milestones import MilestoneKind, apply_milestone
from engine.systems.matter.sheet import Character


class MatterMilestones(NoRolledMilestone):
    kinds: Final = tuple(k.value for k in MilestoneKind)

    def apply(
        self, kind: str, character: SheetModel, options: SheetModel
    ) -> tuple[SheetModel, list[Change]]:
        assert isinstance(character, Character)
        return apply_milestone(character, MilestoneKind(kind))


def _sheet_text(trait: str, ability: str | None, level: int | None) -> str:
    return trait  # no difficulty: the GM adds or removes dice


MILESTONES: Final = MatterMilestones()
REQUESTS: Final = RequestRules(
    sheet_text=_sheet_text, offers=frozenset({RequestOption.POOL_MODIFIERS})
)
