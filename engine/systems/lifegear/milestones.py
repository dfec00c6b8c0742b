"""Milestones: the end of a fight (armor resets, temporary damage ends) and full rest.

Full rest (полноценный отдых) is three hours of sleep without alarms or attacks; it restores
what each item's rules say — by default spent abilities and Help, including immaterial items
made unusable by damage. Broken or lost material items need repair, not rest.
"""

from __future__ import annotations

from enum import StrEnum

from engine.common import Change
from engine.formats import ValueKind
from engine.text import msg

from .gear import lives
from .models import Character, Item, ItemState, UseLimit


class MilestoneKind(StrEnum):
    FIGHT_END = "fight_end"
    FULL_REST = "full_rest"


def _state_change(before: Item, after: Item) -> Change:
    return Change(
        f"gear.{before.id}.state",
        msg("lifegear.change.item_state", item=before.name),
        before.state.value,
        after.state.value,
        ValueKind.ITEM_STATE,
    )


def _after_fight(item: Item, monster_defeated: bool) -> Item:
    if item.temporary:
        # Temporary damage lasts «только пока чудовище не повержено»; if it was not defeated
        # (the party fled) the loss stays.
        state = ItemState.READY if monster_defeated else item.state
        return item.model_copy(update={"state": state, "temporary": False})
    if item.limit is UseLimit.PER_FIGHT and item.state is ItemState.SPENT:
        return item.model_copy(update={"state": ItemState.READY})
    return item


def _after_rest(item: Item) -> Item:
    fight_reset = _after_fight(item, monster_defeated=False)
    if fight_reset.state is ItemState.SPENT and item.restores_on_rest:
        return fight_reset.model_copy(update={"state": ItemState.READY})
    return fight_reset


def _rebuild(
    character: Character, gear: tuple[Item, ...], update: dict[str, object]
) -> tuple[Character, list[Change]]:
    changes = [
        _state_change(old, new)
        for old, new in zip(character.gear, gear, strict=True)
        if old.state is not new.state
    ]
    after = character.model_copy(update={"gear": gear, **update})
    if character.unabsorbed_damage != after.unabsorbed_damage:
        changes.append(
            Change(
                "unabsorbed_damage",
                msg("lifegear.change.unabsorbed"),
                character.unabsorbed_damage,
                after.unabsorbed_damage,
            )
        )
    if lives(character) != lives(after):
        changes.append(
            Change("lives", msg("lifegear.change.lives"), lives(character), lives(after))
        )
    return after, changes


def end_fight(
    character: Character, *, monster_defeated: bool = True
) -> tuple[Character, list[Change]]:
    """Reset armor (and other once-per-fight items) spent in the fight; end temporary damage
    if the monster was defeated."""
    gear = tuple(_after_fight(item, monster_defeated) for item in character.gear)
    temp = character.temporary_unabsorbed
    unabsorbed = character.unabsorbed_damage - temp if monster_defeated else None
    update: dict[str, object] = {"temporary_unabsorbed": 0}
    if unabsorbed is not None:
        update["unabsorbed_damage"] = unabsorbed
    return _rebuild(character, gear, update)


def full_rest(character: Character) -> tuple[Character, list[Change]]:
    """Restore spent items whose rules allow it. Lives may then exceed the maximum: check
    ``capacity_excess`` and let the player drop items down to it."""
    gear = tuple(_after_rest(item) for item in character.gear)
    return _rebuild(character, gear, {"temporary_unabsorbed": 0})


def apply_milestone(
    character: Character, kind: MilestoneKind, *, monster_defeated: bool = True
) -> tuple[Character, list[Change]]:
    """Apply a milestone; ``monster_defeated`` matters only for ``FIGHT_END``."""
    if kind is MilestoneKind.FIGHT_END:
        return end_fight(character, monster_defeated=monster_defeated)
    return full_rest(character)
