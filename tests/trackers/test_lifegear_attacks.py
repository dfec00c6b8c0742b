"""The engine's fight helpers for the tracker: attacks offered, forced damage, stored rolls."""

from __future__ import annotations

from engine.dice.source import ScriptedSource
from engine.systems import lifegear
from engine.systems.lifegear import (
    CombatMode,
    Item,
    ItemKind,
    Protection,
    RollPlan,
    Stat,
    UseTiming,
)
from engine.systems.lifegear.attacks import (
    attack_plans,
    boost_items,
    forced_absorb,
    stored_outcome,
)


def _archer() -> lifegear.Character:
    gear = (
        Item(id="bow", name="Лук", kind=ItemKind.WEAPON, stats=("Стрельба",), dice="1d6"),
        Item(id="knife", name="Нож", kind=ItemKind.WEAPON, in_hand=True),
        Item(id="mail", name="Кольчуга", kind=ItemKind.ARMOR, protection=Protection.REDUCE,
             reduce_by=1),
        Item(id="help", name="Друг", kind=ItemKind.HELP),
    )  # fmt: skip
    stats = (Stat(name="Сила", dice="1d6"), Stat(name="Стрельба", dice="1d8+3"))
    return lifegear.new_character("Лина").model_copy(
        update={"stats": stats, "gear": gear, "max_lives": 4}
    )


def test_attacks_are_weapons_with_their_stats_then_bare_stats() -> None:
    plans = attack_plans(_archer())
    assert plans == (
        RollPlan("Стрельба", "bow"),
        RollPlan("Сила", "knife"),
        RollPlan("Стрельба", "knife"),
        RollPlan("Сила"),
        RollPlan("Стрельба"),
    )
    # Every offered attack is one the engine rolls: the seed's bow, 1d8+1d6+3.
    _, rolled = lifegear.roll(_archer(), plans[0], ScriptedSource([3, 1]))
    assert (rolled.notation, rolled.total) == ("1d8+1d6+3", 7)


def test_surprise_keeps_only_weapons_in_hand_and_broken_ones_go() -> None:
    assert RollPlan("Стрельба", "bow") not in attack_plans(_archer(), surprised=True)
    broken = lifegear.set_state(_archer(), "knife", lifegear.ItemState.BROKEN)
    assert all(p.weapon != "knife" for p in attack_plans(broken))


def test_forced_absorb_only_without_a_choice() -> None:
    archer = _archer()
    # Armor is available: a choice.
    assert forced_absorb(lifegear.damage_options(archer, 2)) is None
    spent = lifegear.set_state(archer, "mail", lifegear.ItemState.SPENT)
    # No armor, 3 usable items, damage 2: a choice; damage 5: all three go.
    assert forced_absorb(lifegear.damage_options(spent, 2)) is None
    assert forced_absorb(lifegear.damage_options(spent, 5)) == ("bow", "knife", "help")
    # Armor that takes the whole damage leaves nothing to choose.
    assert forced_absorb(lifegear.damage_options(archer, 1, protections=["mail"])) == ()


def test_stored_rolls_are_judged_like_fresh_ones() -> None:
    a = stored_outcome("1", RollPlan("Сила"), notation="1d6+10", faces=[2], total=12)
    d = stored_outcome("2", RollPlan("Сила"), notation="1d6", faces=[6], total=6)
    outcome = lifegear.judge_pvp(1, CombatMode.DUEL, a, d)
    assert (outcome.winner, outcome.loser, outcome.damage) == ("1", "2", 1)
    tie = lifegear.judge_pvp(1, CombatMode.DUEL, a, a)
    assert (tie.winner, tie.damage) == (None, 0)


def test_boosts_are_ready_items_with_dice_and_only_help_when_surprised() -> None:
    gear = (
        *_archer().gear,
        Item(id="rage", name="Ярость", kind=ItemKind.ABILITY, dice="1d4"),
        Item(
            id="late", name="Озарение", kind=ItemKind.ABILITY, dice="1d4", timing=UseTiming.AFTER
        ),
        Item(id="friend", name="Друг", kind=ItemKind.HELP, dice="2"),
    )
    archer = _archer().model_copy(update={"gear": gear})
    assert [i.id for i in boost_items(archer)] == ["rage", "friend"]
    assert [i.id for i in boost_items(archer, surprised=True)] == ["friend"]
