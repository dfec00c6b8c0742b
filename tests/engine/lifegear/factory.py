"""Shared test data: an archer role in the spirit of the seed's bow example."""

from __future__ import annotations

from engine.systems.lifegear import (
    Character,
    Item,
    ItemKind,
    Protection,
    Role,
    Stat,
    UseTiming,
    character_from_role,
)

BOW = Item(
    id="bow",
    name="Лук",
    kind=ItemKind.WEAPON,
    stats=("Ловкость", "Стрельба"),
    dice="1d6",
    description="Ловкость или Стрельба + 1d6",
)
KNIFE = Item(id="knife", name="Нож", kind=ItemKind.WEAPON, dice="1d4", in_hand=True)
LEATHER = Item(
    id="leather",
    name="Кожаная куртка",
    kind=ItemKind.ARMOR,
    protection=Protection.REDUCE,
    reduce_by=1,
)
CLOAK = Item(id="cloak", name="Плащ-морок", kind=ItemKind.ARMOR, protection=Protection.TEMPORARY)
SHIELD = Item(id="shield", name="Щит", kind=ItemKind.ARMOR, protection=Protection.ABSORB_ALL)
FORESIGHT = Item(id="foresight", name="Предчувствие", kind=ItemKind.ABILITY, dice="1d4")
PATRON = Item(id="patron", name="Помощь покровителя", kind=ItemKind.HELP, dice="1d6")
LUCK = Item(id="luck", name="Удача", kind=ItemKind.ABILITY, dice="1d4", timing=UseTiming.AFTER)
ROPE = Item(id="rope", name="Верёвка", kind=ItemKind.ITEM, dice="2")

STATS = (
    Stat(name="Стрельба", dice="1d8+3"),
    Stat(name="Ловкость", dice="1d6+2"),
    Stat(name="Сила", dice="1d4+1"),
)

ALL_GEAR = (BOW, KNIFE, LEATHER, CLOAK, SHIELD, FORESIGHT, PATRON, LUCK, ROPE)


def archer_role(*gear: Item, max_lives: int = 9) -> Role:
    return Role(name="Лучник", max_lives=max_lives, stats=STATS, gear=gear or ALL_GEAR)


def archer(*gear: Item, max_lives: int = 9, name: str = "Ариэль") -> Character:
    return character_from_role(archer_role(*gear, max_lives=max_lives), name)
