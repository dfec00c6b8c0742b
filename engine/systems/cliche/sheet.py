"""The stored character sheet and the per-game options of the ``cliche`` system."""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from pydantic import Field

from engine.common import SheetModel
from engine.errors import RuleViolation
from engine.systems.cliche import messages as _messages  # noqa: F401  (registers texts)
from engine.text import msg

SYSTEM_ID: Final = "cliche"
SCHEMA_VERSION: Final = 1

#: Hard cap on a cliché's dice after advancement («ни одно клише не может быть повышено более
#: чем до 6-ти»).
MAX_CLICHE_DICE: Final = 6


class ToolEffect(StrEnum):
    """What a missing tool of the trade does to its cliché (the GM picks per tool).

    Seed: «Солдат (4) может сражаться без бронежилета как Солдат (3)» (``MINUS_ONE``), «Хакер не
    может влезать в сеть без лаптопа» (``DISABLED``), «с другим компьютером … с половинной
    мощностью» (``HALF``).
    """

    MINUS_ONE = "minus_one"
    HALF = "half"
    DISABLED = "disabled"


class Tool(SheetModel):
    """A tool of the trade (орудие труда) a cliché relies on."""

    name: str
    present: bool = True
    when_missing: ToolEffect = ToolEffect.MINUS_ONE


class Cliche(SheetModel):
    """A cliché: ``dice`` is its rating; ``lost`` counts dice lost in fights, not yet recovered.

    ``armor`` marks an armor cliché (a vest, a bunker, a vehicle's hull): it only absorbs damage
    and is never rolled.
    """

    name: str
    dice: int = Field(ge=0)
    description: str = ""
    tools: tuple[Tool, ...] = ()
    lost: int = Field(default=0, ge=0)
    armor: bool = False

    @property
    def current(self) -> int:
        """Dice left now: the rating minus the dice lost (never below 0)."""
        return max(0, self.dice - self.lost)


class Attributes(SheetModel):
    """Физический, Ментальный, Социальный; the seed gives them no mechanical use."""

    physical: int = Field(default=0, ge=0)
    mental: int = Field(default=0, ge=0)
    social: int = Field(default=0, ge=0)


class Character(SheetModel):
    """A ``cliche`` character sheet.

    ``gm_bonus_dice`` are the extra creation dice the GM grants for a good backstory (квента) or
    hooks (зацепки).
    """

    schema_version: int = SCHEMA_VERSION
    name: str
    attributes: Attributes = Attributes()
    cliches: tuple[Cliche, ...] = ()
    hooks: tuple[str, ...] = ()
    backstory: str = ""
    gm_bonus_dice: int = Field(default=0, ge=0)

    def cliche(self, name: str) -> Cliche:
        """The cliché called ``name``; ``RuleViolation`` when there is none."""
        for item in self.cliches:
            if item.name == name:
                return item
        raise RuleViolation(msg("cliche.roll.unknown_cliche", who=self.name, name=name))

    def replace_cliche(self, updated: Cliche) -> Character:
        """A copy with the cliché of the same name replaced by ``updated``."""
        self.cliche(updated.name)
        items = tuple(updated if c.name == updated.name else c for c in self.cliches)
        return self.model_copy(update={"cliches": items})


class ClicheOptions(SheetModel):
    """Per-game options, defaults from the SPEC.

    ``recovery_dice``: dice each cliché gets back per recovery step after a fight («со
    скоростью, заданной Мастером»); ``None`` means everything comes back at once.
    """

    base_dice: int = Field(default=10, ge=0)
    attribute_points: int = Field(default=9, ge=0)
    attribute_min: int = Field(default=1, ge=0)
    attribute_max: int = Field(default=4, ge=0)
    creation_cap: int = Field(default=4, ge=1)
    max_at_cap: int = Field(default=2, ge=0)
    novice_threshold: int = Field(default=3, ge=1)
    cliche_count_warning: int = Field(default=10, ge=1)
    recovery_dice: int | None = Field(default=None, ge=1)


def new_character(name: str) -> Character:
    """An empty draft for the creation wizard to fill in."""
    return Character(name=name)


def effective_dice(cliche: Cliche) -> int:
    """Dice the cliché rolls now: current dice reduced by every missing tool.

    DECISION (seed silent): penalties apply to the current dice (a wounded Soldier without his
    vest is still one die down); all ``MINUS_ONE`` tools are subtracted first, then ``HALF``
    halves once, rounding up — «с половинной мощностью» still functions, so Hacker (1) with a
    borrowed computer keeps one die. Any missing ``DISABLED`` tool makes it 0.
    """
    missing = [tool.when_missing for tool in cliche.tools if not tool.present]
    if ToolEffect.DISABLED in missing:
        return 0
    dice = max(0, cliche.current - missing.count(ToolEffect.MINUS_ONE))
    if ToolEffect.HALF in missing:
        dice = (dice + 1) // 2
    return dice


def lose_dice(cliche: Cliche, count: int) -> tuple[Cliche, int]:
    """Remove up to ``count`` dice; returns the cliché and the dice actually lost.

    Lost dice never exceed the rating: a cliché at 0 cannot lose more.
    """
    taken = max(0, min(count, cliche.current))
    return cliche.model_copy(update={"lost": cliche.lost + taken}), taken
