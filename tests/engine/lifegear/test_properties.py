"""Property tests: lives are usable items minus unabsorbed damage, whatever happens."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice.source import SeededSource
from engine.systems.lifegear import (
    Character,
    Item,
    ItemState,
    MilestoneKind,
    Protection,
    RollPlan,
    UseLimit,
    apply_milestone,
    damage_options,
    fast_attack,
    lives,
    repair_item,
    take_damage,
    usable_count,
    use_item,
)

from .factory import ALL_GEAR, archer

_OPS = st.sampled_from(["damage", "use", "repair", "fight_end", "rest"])


def _check_formula(character: Character) -> None:
    usable = sum(1 for item in character.gear if item.state is ItemState.READY)
    assert lives(character) == usable - character.unabsorbed_damage
    assert usable_count(character) == usable
    assert 0 <= character.temporary_unabsorbed <= character.unabsorbed_damage


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_lives_follow_the_ledger(data: st.DataObject) -> None:
    hero = archer()
    expected = lives(hero)
    unabsorbed = 0
    for _ in range(data.draw(st.integers(1, 12), label="steps")):
        op = data.draw(_OPS, label="op")
        if op == "damage":
            damage = data.draw(st.integers(0, 12), label="damage")
            options = damage_options(hero, damage)
            absorb = data.draw(st.sampled_from(list(options.choices())), label="absorb")
            hero, outcome = take_damage(hero, damage, absorb=absorb)
            # every point of damage costs exactly one life, absorbed or not
            expected -= damage
            unabsorbed += outcome.unabsorbed
            assert outcome.unabsorbed == max(0, damage - len(options.candidates))
        elif op == "use":
            ready = [i for i in hero.gear if i.usable]
            if not ready:
                continue
            item = data.draw(st.sampled_from(ready), label="use")
            hero, _ = use_item(hero, item.id)
            expected -= item.limit is not UseLimit.UNLIMITED
        elif op == "repair":
            broken = [i for i in hero.gear if i.state in (ItemState.BROKEN, ItemState.LOST)]
            if not broken:
                continue
            hero = repair_item(hero, data.draw(st.sampled_from(broken), label="repair").id)
            expected += 1
        else:
            kind = MilestoneKind.FIGHT_END if op == "fight_end" else MilestoneKind.FULL_REST
            before = hero
            hero, changes = apply_milestone(hero, kind)
            expected += usable_count(hero) - usable_count(before)
            assert all(c.field.startswith(("gear.", "lives")) for c in changes)
        assert lives(hero) == expected
        assert hero.unabsorbed_damage == unabsorbed
        _check_formula(hero)


_PROTECTION = st.sampled_from([i for i in ALL_GEAR if i.protection is not Protection.NONE])


@settings(max_examples=100, deadline=None)
@given(_PROTECTION, st.integers(1, 15), st.data())
def test_protected_damage_costs(protection_item: Item, damage: int, data: st.DataObject) -> None:
    hero = archer()
    options = damage_options(hero, damage, protections=(protection_item.id,))
    absorb = data.draw(st.sampled_from(list(options.choices())), label="absorb")
    after, outcome = take_damage(hero, damage, protections=(protection_item.id,), absorb=absorb)
    if protection_item.protection is Protection.ABSORB_ALL:
        cost = 1
    elif protection_item.protection is Protection.REDUCE:
        cost = 1 + max(0, damage - protection_item.reduce_by)
    else:
        cost = 1 + damage
    assert outcome.lives_after == lives(hero) - cost
    _check_formula(after)
    ended, _ = apply_milestone(after, MilestoneKind.FIGHT_END, monster_defeated=True)
    _check_formula(ended)
    if protection_item.protection is Protection.TEMPORARY:
        assert lives(ended) == lives(hero)  # temporary damage ends with the monster
    elif protection_item.protection is Protection.ABSORB_ALL:
        assert lives(ended) == outcome.lives_after  # «сама приходит в негодность»: stays broken
    else:
        assert lives(ended) == outcome.lives_after + 1  # the armor is back after the fight


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 30), st.integers(0, 10**6))
def test_fast_combat_damage_is_the_shortfall(defence: int, seed: int) -> None:
    _, outcome = fast_attack(
        archer(), RollPlan("Стрельба", "bow"), SeededSource(seed), defence=defence
    )
    assert outcome.defeated == (outcome.total >= defence)
    assert outcome.damage == max(0, defence - outcome.total)
    assert outcome.total == sum(outcome.faces) + 3
    assert len(outcome.faces) == 2
