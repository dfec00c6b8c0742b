"""What Matter tells the bot beyond one roll (``engine.systems.base``): its milestones, its
multi-roll cards and its roll requests."""

from __future__ import annotations

from typing import Final

from engine.common import Change, SheetModel
from engine.systems.base import (
    CardRules,
    Margin,
    NoRolledMilestone,
    PlainWords,
    RequestOption,
    RequestRules,
)
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
# Opposed: more successes wins, a tie is a stalemate (SPEC DECISION); extended rolls add the
# successes; no team rule.
CARDS: Final = CardRules(
    margin=Margin.SUCCESSES, plain_words=PlainWords.SUCCESSES, floor_at_zero=True
)
REQUESTS: Final = RequestRules(
    sheet_text=_sheet_text, offers=frozenset({RequestOption.POOL_MODIFIERS})
)
