"""Gear and lives: lookups, the lives formula, capacity, gaining, dropping, repairing items.

Lives are never stored: ``lives = usable items − unabsorbed damage`` (the seed: «жизни и
учитываемое снаряжение отныне — одно и то же»). Every operation returns a new ``Character``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.text import msg

from .errors import LifegearRuleViolation, UnknownItemError, UnknownStatError
from .models import Character, Item, ItemKind, ItemState, Stat, UseLimit


class LifeStatus(StrEnum):
    ALIVE = "alive"
    DYING = "dying"  # lives below 0: the death rules apply, the GM decides
    DEAD = "dead"


def usable_count(character: Character) -> int:
    """How many counted items can still be used (state READY)."""
    return sum(1 for item in character.gear if item.usable)


def lives(character: Character) -> int:
    """Lives now: usable items minus damage that no item could absorb (may be negative)."""
    return usable_count(character) - character.unabsorbed_damage


def life_status(character: Character) -> LifeStatus:
    """At exactly 0 the character is alive; below 0 the (unwritten) death rules start."""
    if character.dead:
        return LifeStatus.DEAD
    return LifeStatus.DYING if lives(character) < 0 else LifeStatus.ALIVE


def capacity_excess(character: Character) -> int:
    """How many items must be dropped or used before the turn ends (0 when within max lives)."""
    return max(0, lives(character) - character.max_lives)


def end_turn(character: Character) -> None:
    """Check the capacity rule at the end of a turn: lives must not exceed the role's maximum.

    Raises ``LifegearRuleViolation`` telling how many items to drop («выложить») or use.
    """
    excess = capacity_excess(character)
    if excess:
        raise LifegearRuleViolation(
            msg(
                "lifegear.capacity.over",
                lives=lives(character),
                max_lives=character.max_lives,
                excess=excess,
            )
        )


def find_item(character: Character, item_id: str) -> Item:
    """The gear item with ``item_id``; ``UnknownItemError`` if there is none."""
    for item in character.gear:
        if item.id == item_id:
            return item
    raise UnknownItemError(msg("lifegear.item.unknown", item=item_id))


def find_stat(character: Character, name: str) -> Stat:
    """The stat called ``name`` (case-insensitive); ``UnknownStatError`` if there is none."""
    folded = name.casefold()
    for stat in character.stats:
        if stat.name.casefold() == folded:
            return stat
    raise UnknownStatError(msg("lifegear.stat.unknown", stat=name))


def replace_item(character: Character, item: Item) -> Character:
    """Put ``item`` in place of the gear item with the same id (the GM's edit, or a state move)."""
    find_item(character, item.id)
    gear = tuple(item if old.id == item.id else old for old in character.gear)
    return character.model_copy(update={"gear": gear})


def set_state(character: Character, item_id: str, state: ItemState) -> Character:
    """Move one item to ``state`` (the GM may do this at any time); clears a temporary mark.

    An item used until it breaks is never spent: ``LifegearRuleViolation`` (seed 001: «Оружие,
    пока не сломано, применяется многократно»)."""
    item = find_item(character, item_id)
    if state is ItemState.SPENT and item.limit is UseLimit.UNLIMITED:
        raise LifegearRuleViolation(msg("lifegear.item.never_spent", item=item.name))
    return replace_item(character, item.model_copy(update={"state": state, "temporary": False}))


def check_surprised(item: Item) -> None:
    """Round 1 of a surprise: only Help and a weapon already in hand («Помощь и оружие (если уже
    держали его в руках)»). Worn armor always works, so protections are never checked here."""
    allowed = item.kind is ItemKind.HELP or (item.kind is ItemKind.WEAPON and item.in_hand)
    if not allowed:
        raise LifegearRuleViolation(msg("lifegear.surprise.forbidden", item=item.name))


def require_ready(item: Item) -> None:
    if not item.usable:
        raise LifegearRuleViolation(
            msg(
                "lifegear.item.not_ready",
                item=item.name,
                state=msg(f"lifegear.item.state.{item.state.value}"),
            )
        )


def spend_on_use(item: Item) -> Item:
    """The item after one use: weapons stay ready; armor, abilities and Help become SPENT."""
    if item.limit is UseLimit.UNLIMITED:
        return item
    return item.model_copy(update={"state": ItemState.SPENT})


@dataclass(frozen=True)
class UseOutcome:
    item_id: str
    spent: bool
    lives_before: int
    lives_after: int


def use_item(
    character: Character, item_id: str, *, surprised: bool = False
) -> tuple[Character, UseOutcome]:
    """Use an item outside a roll (e.g. a foresight ability): it is spent per its use limit.

    Using an ability or Help costs one life until full rest («использовали одну способность —
    вплоть до полноценного отдыха у вас на 1 меньше жизней»).
    """
    reject_dead(character)
    item = find_item(character, item_id)
    require_ready(item)
    if surprised:
        check_surprised(item)
    used = spend_on_use(item)
    after = replace_item(character, used)
    outcome = UseOutcome(item_id, used.state is ItemState.SPENT, lives(character), lives(after))
    return after, outcome


def gain_item(character: Character, item: Item) -> Character:
    """Add a new counted item (+1 life). Over the maximum is allowed only until the turn ends:
    call ``end_turn`` after the player has dropped or used something («выложить или
    использовать»)."""
    if any(old.id == item.id for old in character.gear):
        raise LifegearRuleViolation(msg("lifegear.item.duplicate", item=item.id))
    return character.model_copy(update={"gear": (*character.gear, item)})


def give_parameters(character: Character, thing: str, item: Item) -> Character:
    """The GM gives parameters to a thing without them (or the party crafted one from such
    things after the GM's checks): it leaves the uncounted list and becomes counted (+1 life)."""
    uncounted = list(character.uncounted)
    if thing in uncounted:
        uncounted.remove(thing)
    return gain_item(character.model_copy(update={"uncounted": tuple(uncounted)}), item)


def drop_item(character: Character, item_id: str) -> Character:
    """Remove an item from the sheet entirely («выложить»): a usable one costs a life."""
    find_item(character, item_id)
    gear = tuple(item for item in character.gear if item.id != item_id)
    return character.model_copy(update={"gear": gear})


def repair_item(character: Character, item_id: str) -> Character:
    """Repair a broken (or recover a lost) material item: it is ready again, +1 life."""
    item = find_item(character, item_id)
    if not item.kind.material:
        raise LifegearRuleViolation(msg("lifegear.repair.not_material", item=item.name))
    if item.state not in (ItemState.BROKEN, ItemState.LOST):
        raise LifegearRuleViolation(msg("lifegear.repair.not_broken", item=item.name))
    return set_state(character, item_id, ItemState.READY)


def take_monster_ability(character: Character, ability: Item, *, replace_id: str) -> Character:
    """Take a defeated monster's ability in place of an existing gear item.

    The old item is gone for good: after full rest the new ability recovers instead of it.
    DECISION (the seed says only that it «занимает место»): the new ability takes over the
    slot's usability — if the replaced item was usable it arrives ready, otherwise it arrives
    spent and recovers at full rest — so taking it never changes lives by itself.
    """
    if ability.kind is not ItemKind.ABILITY or not ability.from_monster:
        raise LifegearRuleViolation(msg("lifegear.monster.not_ability", item=ability.name))
    old = find_item(character, replace_id)
    if ability.id != replace_id and any(item.id == ability.id for item in character.gear):
        raise LifegearRuleViolation(msg("lifegear.item.duplicate", item=ability.id))
    state = ItemState.READY if old.usable else ItemState.SPENT
    new = ability.model_copy(update={"state": state, "temporary": False})
    gear = tuple(new if item.id == replace_id else item for item in character.gear)
    return character.model_copy(update={"gear": gear})


def give_item(giver: Character, receiver: Character, item_id: str) -> tuple[Character, Character]:
    """Hand a material item to another character (−1 life for one, +1 for the other).

    Abilities and Help are part of the person and never change hands; abilities from monsters
    are shared out right after the victory (``take_monster_ability``) and never traded later.
    """
    item = find_item(giver, item_id)
    if not item.kind.material or item.from_monster:
        raise LifegearRuleViolation(msg("lifegear.trade.forbidden", item=item.name))
    return drop_item(giver, item_id), gain_item(receiver, item)


def reject_dead(character: Character) -> None:
    if character.dead:
        raise LifegearRuleViolation(msg("lifegear.dead", name=character.name))


def settle_dying(character: Character, *, survives: bool) -> Character:
    """The GM's ruling on a dying character (the seed's death rules are in a post not given).

    DECISION: survival clears the unabsorbed damage (lives become the usable items, ≥ 0);
    otherwise the character is marked dead.
    """
    if life_status(character) is not LifeStatus.DYING:
        raise LifegearRuleViolation(msg("lifegear.dying.not_dying", name=character.name))
    if survives:
        return character.model_copy(update={"unabsorbed_damage": 0, "temporary_unabsorbed": 0})
    return character.model_copy(update={"dead": True})
