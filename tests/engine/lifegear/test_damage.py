"""Damage options, protections and their errors."""

from __future__ import annotations

import pytest

from engine.systems.lifegear import (
    ItemState,
    LifegearRuleViolation,
    Protection,
    ProtectionOption,
    UnknownItemError,
    apply_milestone,
    damage_options,
    find_item,
    lives,
    take_damage,
)
from engine.systems.lifegear.milestones import MilestoneKind

from .factory import BOW, CLOAK, FORESIGHT, KNIFE, LEATHER, SHIELD, archer


def test_options_list_protections_and_choices() -> None:
    hero = archer(BOW, LEATHER, SHIELD, FORESIGHT, max_lives=4)
    options = damage_options(hero, 2)
    assert options.protections == (
        ProtectionOption("leather", Protection.REDUCE, 1),
        ProtectionOption("shield", Protection.ABSORB_ALL, 0),
    )
    assert list(options.choices()) == [
        ("bow", "leather"),
        ("bow", "shield"),
        ("bow", "foresight"),
        ("leather", "shield"),
        ("leather", "foresight"),
        ("shield", "foresight"),
    ]
    reduced = damage_options(hero, 2, protections=("leather",))
    assert (reduced.remaining, reduced.must_choose) == (1, 1)
    assert reduced.candidates == ("bow", "shield", "foresight")
    assert reduced.protections == (ProtectionOption("shield", Protection.ABSORB_ALL, 0),)


def test_zero_damage_needs_nothing() -> None:
    hero = archer()
    after, outcome = take_damage(hero, 0)
    assert after == hero
    assert outcome.lives_after == lives(hero)


def test_reduce_to_zero_spends_only_the_armor() -> None:
    hero = archer()
    after, outcome = take_damage(hero, 1, protections=("leather",))
    assert outcome.protections[0].damage_after == 0
    assert find_item(after, "leather").state is ItemState.SPENT
    assert lives(after) == 8
    ended, changes = apply_milestone(after, MilestoneKind.FIGHT_END)
    assert find_item(ended, "leather").state is ItemState.READY
    assert lives(ended) == 9
    assert [c.field for c in changes] == ["gear.leather.state", "lives"]


def test_temporary_damage_returns_when_the_monster_falls() -> None:
    # Seed: armor may «сделать его временным (только пока чудовище не повержено)».
    hero = archer(BOW, KNIFE, CLOAK, max_lives=3)
    after, outcome = take_damage(hero, 4, protections=("cloak",), absorb=("bow", "knife"))
    assert outcome.temporary
    assert outcome.unabsorbed == 2
    assert lives(after) == -2
    won, _ = apply_milestone(after, MilestoneKind.FIGHT_END, monster_defeated=True)
    assert lives(won) == 3
    assert won.unabsorbed_damage == 0
    fled, _ = apply_milestone(after, MilestoneKind.FIGHT_END, monster_defeated=False)
    assert find_item(fled, "bow").state is ItemState.BROKEN
    assert find_item(fled, "cloak").state is ItemState.READY
    assert lives(fled) == -1
    assert fled.unabsorbed_damage == 2


@pytest.mark.parametrize(
    ("damage", "kwargs", "key"),
    [
        (-1, {}, "lifegear.damage.negative"),
        (2, {"absorb": ("bow",)}, "lifegear.damage.wrong_count"),
        (1, {"absorb": ("bow", "knife")}, "lifegear.damage.wrong_count"),
        (2, {"absorb": ("bow", "bow")}, "lifegear.item.used_twice"),
        (1, {"protections": ("bow",)}, "lifegear.damage.no_protection"),
        (3, {"protections": ("shield", "leather")}, "lifegear.damage.nothing_left"),
        (2, {"protections": ("leather", "leather")}, "lifegear.item.used_twice"),
        (
            1,
            {"absorb": ("foresight",), "lose_instead_of_break": ("foresight",)},
            "lifegear.damage.lost_not_material",
        ),
        (1, {"protections": ("leather",), "absorb": ("leather",)}, "lifegear.item.not_ready"),
    ],
)
def test_damage_errors(damage: int, kwargs: dict[str, tuple[str, ...]], key: str) -> None:
    hero = archer()
    with pytest.raises(LifegearRuleViolation) as info:
        take_damage(hero, damage, **kwargs)
    assert info.value.msg.key == key


def test_unknown_item_is_its_own_error() -> None:
    with pytest.raises(UnknownItemError):
        take_damage(archer(), 1, absorb=("sword",))


def test_spent_items_cannot_absorb() -> None:
    hero, _ = take_damage(archer(BOW, KNIFE, max_lives=2), 1, absorb=("bow",))
    assert damage_options(hero, 2).candidates == ("knife",)
    with pytest.raises(LifegearRuleViolation) as info:
        take_damage(hero, 1, absorb=("bow",))
    assert info.value.msg.key == "lifegear.item.not_ready"
