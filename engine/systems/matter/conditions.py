"""The 11 scene conditions (Условия) of seed 004 as data.

«Туман/Сильный ливень» is one line of the seed but two conditions (Шторм names «Сильный ливень»
alone), hence 11 rows. The scene engine (``scene``) reads this table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Final

from engine.systems.matter.events import Hazard
from engine.systems.matter.states import Effect, EffectOp, StateId
from engine.systems.matter.traits import Element, Skill, Trait
from engine.text import register_messages


class ConditionId(StrEnum):
    HELLFIRE = "hellfire"
    FROST = "frost"
    HIGH_VOLTAGE = "high_voltage"
    UNSTEADY = "unsteady"
    SLIPPERY = "slippery"
    WHIRLWIND = "whirlwind"
    DELUGE = "deluge"
    STORM = "storm"
    POISON_CLOUD = "poison_cloud"
    MIST = "mist"
    HEAVY_RAIN = "heavy_rain"


class CheckKind(StrEnum):
    STANDARD = "standard"  # «стандартный шанс»: 1d10 / 2d10 / 3d10 on every second turn
    CHANCE_EACH_TURN = "chance_each_turn"  # «бросок шанса каждый ход»
    ROUND_START_RESISTANCE = "round_start_resistance"  # Наводнение
    COMBINATION = "combination"  # Шторм
    RANGE = "range"  # Туман / Сильный ливень: no rolls, range rules


@dataclass(frozen=True)
class ConditionDef:
    """One condition: what it rolls, whom it spares, what a hit or a failure does.

    ``element``: protection against it spares the character. ``inflicts``: the state a hit (or
    a failed chance roll) gives; ``resistible``: whether that state's own resistance is rolled.
    ``penalties`` hold until a successful chance roll; then ``footing_effects`` hold instead.
    """

    id: ConditionId
    name_ru: str
    name_en: str
    check: CheckKind
    element: Element | None = None
    inflicts: StateId | None = None
    hazard: Hazard | None = None
    resistible: bool = True
    cancels_speedup: bool = False
    penalties: tuple[Effect, ...] = ()
    footing_effects: tuple[Effect, ...] = ()
    components: tuple[ConditionId, ...] = ()
    blocks_long_range: bool = False


C = ConditionId
K = CheckKind

_ROWS: Final[tuple[ConditionDef, ...]] = (
    ConditionDef(C.HELLFIRE, "Пекло", "Hellfire", K.STANDARD, Element.FIRE, hazard=Hazard.BURN),
    ConditionDef(
        C.FROST, "Мороз", "Frost", K.STANDARD, Element.ICE, hazard=Hazard.FROSTBITE
    ),
    ConditionDef(
        C.HIGH_VOLTAGE, "Высокое напряжение", "High Voltage", K.STANDARD, Element.LIGHTNING,
        inflicts=StateId.STUN, resistible=False,
    ),
    ConditionDef(
        C.UNSTEADY, "Нетвёрдая почва", "Unsteady Ground", K.CHANCE_EACH_TURN, Element.EARTH,
        inflicts=StateId.PARALYZED, cancels_speedup=True,
        penalties=(
            Effect(Trait.ATTACK, EffectOp.ADD, -1), Effect(Trait.DODGE, EffectOp.ADD, -1),
        ),
    ),
    ConditionDef(
        C.SLIPPERY, "Скольжение", "Slippery Ground", K.CHANCE_EACH_TURN,
        inflicts=StateId.PRONE, cancels_speedup=True,
        penalties=(Effect(Skill.BRUTALITY, EffectOp.ADD, -1),),
        footing_effects=(Effect(Trait.DEFENCE, EffectOp.ADD, 1),),
    ),
    ConditionDef(C.WHIRLWIND, "Сильный ветер", "Whirlwind", K.STANDARD, inflicts=StateId.PRONE),
    ConditionDef(
        C.DELUGE, "Наводнение", "Deluge", K.ROUND_START_RESISTANCE,
        inflicts=StateId.DECELERATION,
    ),
    ConditionDef(
        C.STORM, "Шторм", "Storm", K.COMBINATION,
        components=(C.HEAVY_RAIN, C.WHIRLWIND, C.DELUGE),
    ),
    ConditionDef(
        C.POISON_CLOUD, "Ядовитое облако", "Poison Cloud", K.STANDARD, inflicts=StateId.POISON
    ),
    ConditionDef(C.MIST, "Туман", "Mist", K.RANGE, blocks_long_range=True),
    ConditionDef(C.HEAVY_RAIN, "Сильный ливень", "Heavy Rain", K.RANGE, blocks_long_range=True),
)  # fmt: skip

CONDITIONS: Final[Mapping[ConditionId, ConditionDef]] = MappingProxyType(
    {row.id: row for row in _ROWS}
)
"""Every condition by id, in the seed's order."""

register_messages(
    {f"matter.condition.{row.id}": {"ru": row.name_ru, "en": row.name_en} for row in _ROWS}
)


def condition_message_key(condition: ConditionId) -> str:
    return f"matter.condition.{condition}"
