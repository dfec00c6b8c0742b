"""Roles and characters: a GM's role template becomes a character; validation of both.

Validators never raise: they return every violation at once, for the creation wizard.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from engine.common import Violation
from engine.text import msg

from .dice import parse_dice
from .errors import DiceExpressionError
from .gear import usable_count
from .models import Character, Item, ItemKind, ItemState, LifegearOptions, Protection, Role, Stat

MAX_LIVES_LIMIT: Final = 50


def new_character(name: str) -> Character:
    """An empty draft that the creation wizard fills in (usually via ``character_from_role``)."""
    return Character(name=name)


def character_from_role(role: Role, name: str) -> Character:
    """A fresh character of ``role``: its max lives, stats and starting gear, all ready."""
    gear = tuple(
        item.model_copy(update={"state": ItemState.READY, "temporary": False})
        for item in role.gear
    )
    return Character(
        name=name, role=role.name, max_lives=role.max_lives, stats=role.stats, gear=gear
    )


def role_of(character: Character) -> Role | None:
    """The role a character was made of (its name, max lives, stats and gear), as the player
    saw it; None for a character of no role."""
    if not character.role:
        return None
    return Role(
        name=character.role, max_lives=character.max_lives, stats=character.stats,
        gear=character.gear,
    )  # fmt: skip


def _stat_violations(stats: tuple[Stat, ...], *, required: bool) -> list[Violation]:
    found: list[Violation] = []
    if required and not stats:
        found.append(Violation("stats", msg("lifegear.validate.no_stats")))
    seen: set[str] = set()
    for stat in stats:
        key = stat.name.casefold()
        if key in seen:
            found.append(
                Violation("stats", msg("lifegear.validate.stat_duplicate", stat=stat.name))
            )
        seen.add(key)
        found.extend(_dice_violations(f"stats.{stat.name}", stat.dice))
    return found


def _dice_violations(field: str, text: str) -> list[Violation]:
    try:
        parse_dice(text)
    except DiceExpressionError as error:
        # the parser's own message is already translatable; the field says whose dice it was
        return [Violation(field, error.msg)]
    return []


def _gear_violations(gear: Iterable[Item], stats: tuple[Stat, ...]) -> list[Violation]:
    found: list[Violation] = []
    stat_names = {s.name.casefold() for s in stats}
    seen: set[str] = set()
    for item in gear:
        field = f"gear.{item.id}"
        if item.id in seen:
            found.append(Violation(field, msg("lifegear.validate.item_duplicate", item=item.id)))
        seen.add(item.id)
        if item.dice.strip():
            found.extend(_dice_violations(field, item.dice))
        if item.kind is ItemKind.WEAPON:
            for stat in item.stats:
                if stat.casefold() not in stat_names:
                    found.append(
                        Violation(
                            field,
                            msg("lifegear.validate.weapon_stat", item=item.name, stat=stat),
                        )
                    )
        if item.protection is Protection.REDUCE and item.reduce_by < 1:
            found.append(Violation(field, msg("lifegear.validate.reduce_by", item=item.name)))
    return found


def _lives_violations(max_lives: int, usable: int) -> list[Violation]:
    found: list[Violation] = []
    if not 1 <= max_lives <= MAX_LIVES_LIMIT:
        found.append(
            Violation(
                "max_lives",
                msg("lifegear.validate.max_lives", limit=MAX_LIVES_LIMIT, value=max_lives),
            )
        )
    if usable > max_lives:
        found.append(
            Violation(
                "gear",
                msg("lifegear.validate.too_much_gear", count=usable, max_lives=max_lives),
            )
        )
    return found


def validate_role(role: Role) -> list[Violation]:
    """Check a GM's role: max lives, unique readable stats, gear fitting in the max lives."""
    usable = sum(1 for item in role.gear if item.usable)
    return [
        *_lives_violations(role.max_lives, usable),
        *_stat_violations(role.stats, required=True),
        *_gear_violations(role.gear, role.stats),
    ]


def validate_character(
    character: Character, options: LifegearOptions | None = None
) -> list[Violation]:
    """Every violation of a character sheet at once (``options`` is the uniform contract's
    per-game options; lifegear has none)."""
    del options  # no per-game options in lifegear yet
    found: list[Violation] = []
    if not character.name.strip():
        found.append(Violation("name", msg("lifegear.validate.no_name")))
    if not character.role.strip():
        found.append(Violation("role", msg("lifegear.validate.no_role")))
    found.extend(_lives_violations(character.max_lives, usable_count(character)))
    found.extend(_stat_violations(character.stats, required=True))
    found.extend(_gear_violations(character.gear, character.stats))
    return found
