"""What lifegear tells the bot beyond one roll (``engine.systems.base``): its milestones and its
roll requests (multi-roll cards: ``cards.py``)."""

from __future__ import annotations

from typing import Final

from engine.common import Change, SheetModel
from engine.systems.base import NoRolledMilestone, RequestOption, RequestRules
from engine.systems.lifegear.milestones import MilestoneKind, apply_milestone
from engine.systems.lifegear.models import Character

LEVELS: Final = (5, 8, 10, 12, 15, 20)
"""The defence buttons of a roll request."""


class LifegearMilestones(NoRolledMilestone):
    kinds: Final = tuple(k.value for k in MilestoneKind)

    def apply(
        self, kind: str, character: SheetModel, options: SheetModel
    ) -> tuple[SheetModel, list[Change]]:
        assert isinstance(character, Character)
        return apply_milestone(character, MilestoneKind(kind))


def _levels(locale: str) -> list[tuple[int, str]]:
    return [(n, str(n)) for n in LEVELS]


MILESTONES: Final = LifegearMilestones()
REQUESTS: Final = RequestRules(
    levels=_levels, trait_option="stat", offers=frozenset({RequestOption.GEAR})
)
