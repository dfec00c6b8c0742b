"""Stored shapes of ``lifegear``: gear items, stats, roles, characters, monsters, options.

Stats and item dice are kept as the text the GM typed (e.g. ``1d8+3``); ``validate_role`` and
``validate_character`` report unreadable ones as violations, and an operation that rolls a bad
expression raises ``DiceExpressionError``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from pydantic import Field

from engine.common import SheetModel

SCHEMA_VERSION: Final = 1


class ItemKind(StrEnum):
    """The five kinds of counted gear (Снаряжение) of the seed."""

    WEAPON = "weapon"  # оружие
    ARMOR = "armor"  # вооружение (броня)
    ABILITY = "ability"  # способность
    HELP = "help"  # «Помощь»
    ITEM = "item"  # вещь с параметрами

    @property
    def material(self) -> bool:
        """Material items break (or get lost) when they absorb damage; the others are wounds."""
        return self in (ItemKind.WEAPON, ItemKind.ARMOR, ItemKind.ITEM)


class ItemState(StrEnum):
    READY = "ready"
    SPENT = "spent"  # used up until full rest / fight end, or an immaterial item hurt by damage
    BROKEN = "broken"  # a material item destroyed by damage
    LOST = "lost"  # a material item that stayed whole but is gone


class UseTiming(StrEnum):
    """When an item is declared: before the roll (the seed's default) or after the result."""

    BEFORE = "before"
    AFTER = "after"


class UseLimit(StrEnum):
    """How often an item works: weapon — until broken; armor — once per fight; ability and
    Help — once until full rest. The GM may override per item (a potion, a reusable charm)."""

    UNLIMITED = "unlimited"
    PER_FIGHT = "per_fight"
    UNTIL_REST = "until_rest"


DEFAULT_USE_LIMIT: Final[dict[ItemKind, UseLimit]] = {
    ItemKind.WEAPON: UseLimit.UNLIMITED,
    ItemKind.ARMOR: UseLimit.PER_FIGHT,
    ItemKind.ABILITY: UseLimit.UNTIL_REST,
    ItemKind.HELP: UseLimit.UNTIL_REST,
    # DECISION: the seed gives items with parameters no default; a tool like a rope is reused
    # until it breaks, like a weapon. The GM sets UNTIL_REST/PER_FIGHT for consumables.
    ItemKind.ITEM: UseLimit.UNLIMITED,
}


class Protection(StrEnum):
    """What an item does against damage, "as its description says" (the seed's armor)."""

    NONE = "none"
    REDUCE = "reduce"  # reduce the damage by ``reduce_by``
    TEMPORARY = "temporary"  # the damage lasts only until the monster is defeated
    ABSORB_ALL = "absorb_all"  # take all of it, and the item breaks


class Item(SheetModel):
    """One counted gear item with its rules (from the role) and its current state."""

    id: str = Field(min_length=1, max_length=64)
    name: str = Field(min_length=1, max_length=200)
    kind: ItemKind
    description: str = ""
    timing: UseTiming = UseTiming.BEFORE
    use_limit: UseLimit | None = None  # None → the kind's default
    restores_on_rest: bool = True  # a SPENT item becomes READY after full rest
    stats: tuple[str, ...] = ()  # weapon: the stats it may be used with (empty = any)
    dice: str = ""  # dice the item adds to a roll, e.g. "1d6"
    protection: Protection = Protection.NONE
    reduce_by: int = Field(default=0, ge=0)
    in_hand: bool = False  # weapon already in hand: usable when surprised
    from_monster: str = ""  # a monster's ability taken after a victory; never traded
    state: ItemState = ItemState.READY
    temporary: bool = False  # lost to "temporary" damage: returns when the monster falls

    @property
    def limit(self) -> UseLimit:
        return self.use_limit if self.use_limit is not None else DEFAULT_USE_LIMIT[self.kind]

    @property
    def usable(self) -> bool:
        return self.state is ItemState.READY


class Stat(SheetModel):
    """A named stat rolled as a dice expression, e.g. Стрельба = ``1d8+3``."""

    name: str = Field(min_length=1, max_length=100)
    dice: str = Field(min_length=1, max_length=200)


class Role(SheetModel):
    """A GM's template: max lives, stats as dice expressions, starting gear with its rules."""

    name: str = Field(min_length=1, max_length=200)
    max_lives: int = Field(ge=0)
    stats: tuple[Stat, ...] = ()
    gear: tuple[Item, ...] = ()
    description: str = ""


class Character(SheetModel):
    """A character sheet. Lives are derived, never stored: see ``lives()``.

    ``unabsorbed_damage`` is damage that no usable item could take (it makes lives negative);
    ``temporary_unabsorbed`` is the part of it that disappears when the monster is defeated.
    """

    schema_version: int = SCHEMA_VERSION
    name: str = ""
    role: str = ""
    max_lives: int = Field(default=0, ge=0)
    stats: tuple[Stat, ...] = ()
    gear: tuple[Item, ...] = ()
    # things without parameters (shirts, boots): listed, never counted as lives
    uncounted: tuple[str, ...] = ()
    unabsorbed_damage: int = Field(default=0, ge=0)
    temporary_unabsorbed: int = Field(default=0, ge=0)
    dead: bool = False
    # A quick NPC that is a monster of fast combat (``/npc Тролль: защита 12``), else None.
    monster: Monster | None = None


class SpecialTiming(StrEnum):
    BEFORE_FIGHT = "before_fight"
    AFTER_FIGHT = "after_fight"


class MonsterSpecial(SheetModel):
    """A monster's special ability such as "extra damage before or after the fight"."""

    name: str = Field(min_length=1, max_length=200)
    timing: SpecialTiming
    damage: int = Field(default=0, ge=0)
    description: str = ""


class Monster(SheetModel):
    """A monster of fast combat: a defence level, specials, abilities victors may take."""

    name: str = Field(min_length=1, max_length=200)
    defence: int = Field(ge=0)
    specials: tuple[MonsterSpecial, ...] = ()
    abilities: tuple[Item, ...] = ()


Character.model_rebuild()  # ``monster`` names a class defined after it

DAMAGE_CHOICE_HOURS: Final = 24
"""Default time a player has to choose what their character loses before the GM may."""


class LifegearOptions(SheetModel):
    """Per-game options. The SPEC defines none for ``lifegear``'s rules; the table's own pace:

    ``damage_choice_hours`` — how long the player alone chooses the gear a hit takes (seed 001:
    «Вам предстоит выбрать»), after which the GM may choose for them (DECISION: 24 hours by
    default, a day of play by post)."""

    damage_choice_hours: int = Field(default=DAMAGE_CHOICE_HOURS, ge=1, le=168)
