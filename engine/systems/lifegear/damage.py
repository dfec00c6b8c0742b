"""Damage: protections (armor behaviours), the legal choices of absorbing items, applying it.

Damage N takes N usable items: material ones break (rarely: are lost), immaterial ones are
wounds that make them unusable until full rest. If fewer than N items are usable, all of them go
and the rest is "unabsorbed damage", which makes lives negative (2 usable, damage 3 → −1).
Armor, by its description, may first reduce the damage, make it temporary (until the monster
falls), or take all of it and break; using armor spends it for the rest of the fight.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from engine.text import msg

from .errors import LifegearRuleViolation
from .gear import (
    LifeStatus,
    find_item,
    life_status,
    lives,
    reject_dead,
    replace_item,
    require_ready,
    spend_on_use,
)
from .models import Character, Item, ItemState, Protection


@dataclass(frozen=True)
class ProtectionOption:
    """A ready item whose description lets it act against this damage."""

    item_id: str
    protection: Protection
    reduce_by: int


@dataclass(frozen=True)
class ProtectionResult:
    """How one protection changed the damage (``damage_after`` is what items still absorb)."""

    item_id: str
    protection: Protection
    damage_before: int
    damage_after: int


@dataclass(frozen=True)
class DamageOptions:
    """What the player may choose for ``damage`` after the given protections.

    Choose exactly ``must_choose`` distinct ids from ``candidates``; ``unabsorbed`` points are
    left over whatever is chosen (they lower lives below the usable items).
    """

    damage: int
    remaining: int  # after protections
    temporary: bool
    protections: tuple[ProtectionOption, ...]  # still available
    candidates: tuple[str, ...]
    must_choose: int
    unabsorbed: int

    def choices(self) -> Iterator[tuple[str, ...]]:
        """Every legal set of absorbing items (in gear order)."""
        return combinations(self.candidates, self.must_choose)


@dataclass(frozen=True)
class DamageOutcome:
    """Applied damage: what protected, which items broke, were lost or wounded (immaterial,
    until full rest), how much no item could absorb, and lives before and after."""

    damage: int
    protections: tuple[ProtectionResult, ...]
    absorbed_by: tuple[str, ...]
    broken: tuple[str, ...]
    lost: tuple[str, ...]
    wounded: tuple[str, ...]  # immaterial items unusable until full rest
    unabsorbed: int
    temporary: bool
    lives_before: int
    lives_after: int
    status: LifeStatus


def _check_damage(damage: int) -> None:
    if damage < 0:
        raise LifegearRuleViolation(msg("lifegear.damage.negative", damage=damage))


def _damaged(item: Item, *, lose: bool) -> Item:
    """The state an item takes when it absorbs damage."""
    if not item.kind.material:
        state = ItemState.SPENT
    else:
        state = ItemState.LOST if lose else ItemState.BROKEN
    return item.model_copy(update={"state": state})


def _apply_protection(
    character: Character, item_id: str, damage: int
) -> tuple[Character, ProtectionResult, bool]:
    """Apply one protection; return the new sheet, the result and whether damage is temporary."""
    item = find_item(character, item_id)
    if item.protection is Protection.NONE:
        raise LifegearRuleViolation(msg("lifegear.damage.no_protection", item=item.name))
    require_ready(item)
    if damage == 0:
        raise LifegearRuleViolation(msg("lifegear.damage.nothing_left", item=item.name))
    after = damage
    if item.protection is Protection.ABSORB_ALL:
        used = _damaged(item, lose=False)
        after = 0
    else:
        used = spend_on_use(item)
        if item.protection is Protection.REDUCE:
            after = max(0, damage - item.reduce_by)
    result = ProtectionResult(item.id, item.protection, damage, after)
    temporary = item.protection is Protection.TEMPORARY
    return replace_item(character, used), result, temporary


def _protect(
    character: Character, damage: int, protections: Sequence[str]
) -> tuple[Character, int, bool, tuple[ProtectionResult, ...]]:
    if len(set(protections)) != len(protections):
        dup = next(p for p in protections if protections.count(p) > 1)
        raise LifegearRuleViolation(msg("lifegear.item.used_twice", item=dup))
    results: list[ProtectionResult] = []
    temporary = False
    for item_id in protections:
        character, result, temp = _apply_protection(character, item_id, damage)
        damage = result.damage_after
        temporary = temporary or temp
        results.append(result)
    return character, damage, temporary, tuple(results)


def damage_options(
    character: Character, damage: int, *, protections: Sequence[str] = ()
) -> DamageOptions:
    """List the legal choices for taking ``damage`` after applying ``protections`` in order."""
    _check_damage(damage)
    protected, remaining, temporary, _ = _protect(character, damage, protections)
    candidates = tuple(item.id for item in protected.gear if item.usable)
    left = (
        tuple(
            ProtectionOption(item.id, item.protection, item.reduce_by)
            for item in protected.gear
            if item.usable and item.protection is not Protection.NONE
        )
        if remaining
        else ()
    )
    must = min(remaining, len(candidates))
    return DamageOptions(damage, remaining, temporary, left, candidates, must, remaining - must)


def take_damage(
    character: Character,
    damage: int,
    *,
    absorb: Sequence[str] = (),
    protections: Sequence[str] = (),
    lose_instead_of_break: Collection[str] = (),
) -> tuple[Character, DamageOutcome]:
    """Apply ``damage``: protections first (in order), then the chosen absorbing items.

    ``absorb`` must name exactly as many distinct usable items as the remaining damage (or all
    usable items when there are fewer); material items break unless listed in
    ``lose_instead_of_break`` (the seed's rare case of an item that stays whole but is lost).
    """
    reject_dead(character)
    options = damage_options(character, damage, protections=protections)
    protected, _, temporary, results = _protect(character, damage, protections)
    _check_choice(protected, options, absorb)
    for item_id in lose_instead_of_break:
        if item_id not in absorb:
            raise LifegearRuleViolation(msg("lifegear.damage.lost_not_chosen", item=item_id))
    gear, hurt = _absorb(protected.gear, absorb, lose_instead_of_break, temporary)
    update: dict[str, object] = {
        "gear": gear,
        "unabsorbed_damage": protected.unabsorbed_damage + options.unabsorbed,
    }
    if temporary:
        update["temporary_unabsorbed"] = protected.temporary_unabsorbed + options.unabsorbed
    after = protected.model_copy(update=update)
    outcome = DamageOutcome(
        damage=damage,
        protections=results,
        absorbed_by=tuple(absorb),
        broken=_ids_in(hurt, ItemState.BROKEN),
        lost=_ids_in(hurt, ItemState.LOST),
        wounded=_ids_in(hurt, ItemState.SPENT),
        unabsorbed=options.unabsorbed,
        temporary=temporary,
        lives_before=lives(character),
        lives_after=lives(after),
        status=life_status(after),
    )
    return after, outcome


def _absorb(
    gear: tuple[Item, ...], absorb: Sequence[str], lose: Collection[str], temporary: bool
) -> tuple[tuple[Item, ...], tuple[Item, ...]]:
    """Damage the chosen items; return the new gear and the damaged items (in gear order)."""
    new: list[Item] = []
    hurt: list[Item] = []
    for item in gear:
        if item.id in absorb:
            if item.id in lose and not item.kind.material:
                raise LifegearRuleViolation(
                    msg("lifegear.damage.lost_not_material", item=item.name)
                )
            item = _damaged(item, lose=item.id in lose).model_copy(update={"temporary": temporary})
            hurt.append(item)
        new.append(item)
    return tuple(new), tuple(hurt)


def _ids_in(items: tuple[Item, ...], state: ItemState) -> tuple[str, ...]:
    return tuple(item.id for item in items if item.state is state)


def _check_choice(character: Character, options: DamageOptions, absorb: Sequence[str]) -> None:
    if len(set(absorb)) != len(absorb):
        dup = next(a for a in absorb if absorb.count(a) > 1)
        raise LifegearRuleViolation(msg("lifegear.item.used_twice", item=dup))
    for item_id in absorb:
        require_ready(find_item(character, item_id))
    if len(absorb) != options.must_choose:
        raise LifegearRuleViolation(
            msg("lifegear.damage.wrong_count", need=options.must_choose, got=len(absorb))
        )
