"""What a fight offers a character now: the attacks the sheet allows, the only legal way to take
damage when there is no choice, and a logged roll turned back into the engine's outcome.

Used by the chat's fight tracker (issue 10); the rules themselves stay in ``combat`` and
``damage``: an attack here is exactly a ``RollPlan`` that ``roll`` accepts.
"""

from __future__ import annotations

from collections.abc import Sequence

from .combat import RollOutcome, RollPlan
from .damage import DamageOptions
from .dice import parse_dice
from .models import Character, Item, ItemKind, Stat, UseTiming

_BOOST_KINDS = (ItemKind.ABILITY, ItemKind.HELP, ItemKind.ITEM)


def allowed_stats(character: Character, weapon_stats: Sequence[str]) -> tuple[Stat, ...]:
    """The sheet's stats a weapon is used with (any stat when the weapon names none)."""
    folded = {s.casefold() for s in weapon_stats}
    return tuple(s for s in character.stats if not folded or s.name.casefold() in folded)


def attack_plans(character: Character, *, surprised: bool = False) -> tuple[RollPlan, ...]:
    """Every attack the sheet allows now: each ready weapon with each stat it may be used with
    (weapons first, in gear order), then each stat on its own (no weapon).

    ``surprised`` (round 1 of a surprise) keeps only weapons already in hand; a bare stat needs
    no gear, so it stays available.
    """
    plans: list[RollPlan] = []
    for item in character.gear:
        if item.kind is not ItemKind.WEAPON or not item.usable:
            continue
        if surprised and not item.in_hand:
            continue
        plans.extend(RollPlan(stat.name, item.id) for stat in allowed_stats(character, item.stats))
    plans.extend(RollPlan(stat.name) for stat in character.stats)
    return tuple(plans)


def boost_items(
    character: Character, *, surprised: bool = False, timing: UseTiming = UseTiming.BEFORE
) -> tuple[Item, ...]:
    """Items that add dice to a roll (abilities, Help, items with parameters; each is spent per
    its rule): declared before the roll, or — ``timing`` AFTER — added to a result already
    known (``boost_after``). ``surprised`` leaves only Help («Помощь»)."""
    return tuple(
        item
        for item in character.gear
        if item.kind in _BOOST_KINDS
        and item.usable
        and item.timing is timing
        and item.dice.strip()
        and (not surprised or item.kind is ItemKind.HELP)
    )


def forced_absorb(options: DamageOptions) -> tuple[str, ...] | None:
    """The absorbing items when the player has nothing to choose: no protection is available
    and every usable item must go (or none: the damage was fully protected). ``None`` when
    there is a real choice."""
    if options.protections:
        return None
    if options.must_choose == 0 or options.must_choose == len(options.candidates):
        return options.candidates[: options.must_choose]
    return None


def stored_outcome(
    character: str,
    plan: RollPlan,
    *,
    notation: str,
    faces: Sequence[int],
    total: int,
    used: Sequence[str] = (),
) -> RollOutcome:
    """A roll kept between asynchronous presses (e.g. one duellist's, waiting for the other's),
    rebuilt so ``judge_pvp`` compares it like a fresh one."""
    expr = parse_dice(notation)
    return RollOutcome(
        character=character,
        stat=plan.stat,
        weapon=plan.weapon,
        used=tuple(used),
        notation=notation,
        faces=tuple(faces),
        constant=expr.constant,
        total=total,
        expr=expr,
    )
