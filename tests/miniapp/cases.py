"""One character per system, the action the page offers for it, and how the database shows
the change: shared by the API tests and the browser tests."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.services.resources import item_key
from engine.common import SheetModel
from engine.systems import cliche, fate, lifegear, matter, storyteller
from engine.systems.fate import AspectRole, CharacterAspect, Skill, StressMarks
from engine.systems.lifegear import Item, ItemKind
from engine.systems.storyteller import AbilityGroup
from engine.systems.storyteller.sheet import AbilityDots, PoolTrait


def _fate() -> SheetModel:
    return fate.new_character("Ира").model_copy(
        update={
            "aspects": (
                CharacterAspect(text="Последняя из ордена <Зари>", role=AspectRole.CONCEPT),
                CharacterAspect(text="Долг контрабандистам", role=AspectRole.TROUBLE),
            ),
            "skills": {Skill.FIGHT: 4, Skill.WILL: 3, Skill.NOTICE: 3, Skill.ATHLETICS: 2,
                       Skill.PHYSIQUE: 2, Skill.DECEIVE: 1},
            "fate_points": 3,
            "stress": StressMarks(mental=(1,)),
        }
    )  # fmt: skip


def _storyteller() -> SheetModel:
    return storyteller.new_character("Эйлин").model_copy(
        update={
            "willpower": PoolTrait(rating=5, pool=4),
            "glamour": PoolTrait(rating=4, pool=4),
            "abilities": (AbilityDots(key="alertness", group=AbilityGroup.TALENTS, dots=3),),
        }
    )


def _cliche() -> SheetModel:
    return cliche.new_character("Мал").model_copy(
        update={
            "cliches": (
                cliche.Cliche(name="Солдат-ветеран", dice=4),
                cliche.Cliche(name="Бронежилет", dice=2, armor=True),
            )
        }
    )


def _lifegear() -> SheetModel:
    bow = Item(id="bow", name="Лук", kind=ItemKind.WEAPON, dice="1d6")
    cloak = Item(id="cloak", name="Плащ", kind=ItemKind.ARMOR)
    return lifegear.new_character("Лина").model_copy(update={"max_lives": 3, "gear": (bow, cloak)})


def _matter() -> SheetModel:
    return matter.new_character("Кай")


@dataclass(frozen=True)
class Case:
    system: str
    make: Callable[[], SheetModel]
    op: dict[str, Any]  # the button the page offers, as its data-op
    shown: Callable[[dict[str, Any]], Any]  # the value the page shows for it, from the DB
    field: str  # CSS selector of that value on the page (its data-value)
    kind: str  # the ledger entry the action writes
    notice: str  # in the group's notice ("… → …")


CASES: dict[str, Case] = {
    c.system: c
    for c in (
        Case("fate", _fate, {"kind": "fate_points", "delta": -1},
             lambda s: s["fate_points"], '[data-field="fate_points"]', "fate.fp.spend",
             "3 → 2"),
        Case("storyteller", _storyteller, {"kind": "pool", "trait": "willpower", "delta": -1},
             lambda s: s["willpower"]["pool"], '[data-field="willpower"] .num',
             "storyteller.willpower.spend", "4 → 3"),
        Case("cliche", _cliche,
             {"kind": "cliche", "index": 0, "key": item_key("Солдат-ветеран"), "delta": -1},
             lambda s: s["cliches"][0]["dice"] - s["cliches"][0]["lost"],
             '[data-cliche="0"] .dice', "cliche.dice.lose", "4 → 3"),
        Case("lifegear", _lifegear,
             {"kind": "gear", "index": 0, "key": item_key("bow"), "state": "broken"},
             lambda s: lifegear.lives(lifegear.Character.model_validate(s)),
             '[data-field="lives"] .num', "lifegear.item.broken", "Лук"),
        Case("matter", _matter, {"kind": "health", "delta": -1},
             lambda s: s["health"], '[data-field="health"] .num', "matter.health.damage",
             "5/5 → 4/5"),
    )
}  # fmt: skip
