"""What FATE tells the bot beyond one roll (``engine.systems.base``): its milestones and its roll
requests (multi-roll cards: ``cards.py``)."""

from __future__ import annotations

from typing import Final

from engine.common import Change, SheetModel
from engine.systems.base import NoRolledMilestone, RequestRules
from engine.systems.fate.ladder import LADDER, signed
from engine.systems.fate.milestones import MilestoneKind, apply_milestone
from engine.systems.fate.models import Character

LEVELS: Final = tuple(range(-1, 7))
"""The opposition buttons of a roll request: Mediocre (−1) … Legendary (+6)… on the ladder."""


class FateMilestones(NoRolledMilestone):
    kinds: Final = tuple(k.value for k in MilestoneKind)

    def apply(
        self, kind: str, character: SheetModel, options: SheetModel
    ) -> tuple[SheetModel, list[Change]]:
        assert isinstance(character, Character)
        return apply_milestone(character, MilestoneKind(kind))


def _levels(locale: str) -> list[tuple[int, str]]:
    ru = locale == "ru"
    return [(v, f"{LADDER[v][0 if ru else 1]} {signed(v)}") for v in LEVELS]


MILESTONES: Final = FateMilestones()
REQUESTS: Final = RequestRules(levels=_levels)
