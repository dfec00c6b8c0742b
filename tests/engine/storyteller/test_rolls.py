"""Pool rolls: counting, botch/failure/success, degrees, notation, Willpower, automatic success."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.dice.source import ScriptedSource, SeededSource
from engine.errors import EngineError, RuleViolation
from engine.systems.storyteller import (
    Attribute,
    DamageKind,
    Degree,
    PoolTrait,
    RollResult,
    apply_damage,
    automatic_success,
    build_pool,
    can_succeed_automatically,
    degree_of,
    difficulty_name,
    evaluate,
    new_character,
    pool_notation,
    retry_difficulty,
    roll_character,
    roll_pool,
    with_ability,
    with_attribute,
)


def test_seed_fish_example() -> None:
    # Seed: «Мишель прибавляет точки ... в Ловкости (3) к точкам в Атлетизме (2) ... (всего
    # пять). ... по степени сложности ... шесть и получает 1, 5, 6, 8, 9. ... "Единица" отменяет
    # шестерку, но оставляет ей еще два успеха (8 и 9).»
    mimi = with_ability(
        with_attribute(new_character("Мими"), Attribute.DEXTERITY, 3), "athletics", 2
    )
    spec = build_pool(mimi, Attribute.DEXTERITY, "athletics")
    assert (spec.attribute_dots, spec.ability_dots, spec.total) == (3, 2, 5)
    roll = roll_pool(ScriptedSource([1, 5, 6, 8, 9]), spec.total, 6)
    assert roll.faces == (1, 5, 6, 8, 9)
    assert (roll.successes, roll.ones, roll.net) == (3, 1, 2)
    assert roll.result is RollResult.SUCCESS
    assert roll.degree is Degree.MODERATE
    assert roll.notation == "5d10>=6f1"


def test_seed_milk_glass_is_a_failure_not_a_botch() -> None:
    # Seed: «Всего у него семь точек ... Ренч выбрасывает 1, 1, 3, 4, 4, 6, 8. "Единицы"
    # отменяют два успеха, и в результате этого успехов не остается вообще.»
    roll = roll_pool(ScriptedSource([1, 1, 3, 4, 4, 6, 8]), 7, 6)
    assert (roll.successes, roll.ones, roll.net) == (2, 2, 0)
    assert roll.result is RollResult.FAILURE
    assert roll.degree is None
    assert roll.notation == "7d10>=6f1"
    assert roll.faces == (1, 1, 3, 4, 4, 6, 8)


def test_seed_difficulty_example() -> None:
    # Seed: «Если сложность равняется 6, а вы выбрасываете 3, 5, 6 и 9, то вы получаете два
    # успеха (6 и 9).»
    assert evaluate((3, 5, 6, 9), 6).net == 2


@pytest.mark.parametrize(
    ("faces", "difficulty", "successes", "ones", "net", "result"),
    [
        ((1, 1, 6), 6, 1, 2, -1, RollResult.BOTCH),  # SPEC illustration
        ((1,), 6, 0, 1, -1, RollResult.BOTCH),
        ((2, 3, 4), 6, 0, 0, 0, RollResult.FAILURE),
        ((), 6, 0, 0, 0, RollResult.FAILURE),
        ((10, 10, 10), 10, 3, 0, 3, RollResult.SUCCESS),
        ((2, 2, 1), 2, 2, 1, 1, RollResult.SUCCESS),
        ((1, 1, 1, 9), 9, 1, 3, -2, RollResult.BOTCH),
        ((5, 6, 7, 8, 9, 10), 5, 6, 0, 6, RollResult.SUCCESS),
    ],
)
def test_counting_table(
    faces: tuple[int, ...],
    difficulty: int,
    successes: int,
    ones: int,
    net: int,
    result: RollResult,
) -> None:
    roll = evaluate(faces, difficulty)
    assert (roll.successes, roll.ones, roll.net, roll.result) == (successes, ones, net, result)
    assert roll.achieved == max(0, net)


@pytest.mark.parametrize(
    ("net", "degree"),
    [
        (-2, None),
        (0, None),
        (1, Degree.MARGINAL),
        (2, Degree.MODERATE),
        (3, Degree.COMPLETE),
        (4, Degree.EXCEPTIONAL),
        (5, Degree.PHENOMENAL),
        (9, Degree.PHENOMENAL),
    ],
)
def test_degrees(net: int, degree: Degree | None) -> None:
    assert degree_of(net) is degree


def test_degree_and_result_names_render_in_both_locales() -> None:
    assert Degree.COMPLETE.name_msg.render("ru") == "Полный успех"
    assert Degree.PHENOMENAL.name_msg.render("ru") == "Феноменальный успех"
    assert RollResult.BOTCH.name_msg.render("ru") == "Провал"
    assert RollResult.FAILURE.name_msg.render("en") == "Failure"
    assert difficulty_name(6).render("ru") == "стандартная"
    assert difficulty_name(9).render("en") == "Very difficult"


@pytest.mark.parametrize("difficulty", [0, 1, 11, -3])
def test_difficulty_out_of_range(difficulty: int) -> None:
    with pytest.raises(RuleViolation):
        roll_pool(ScriptedSource([5]), 1, difficulty)


def test_willpower_adds_an_uncancellable_success() -> None:
    # 1,1,6 would botch; with Willpower the 1s cancel only rolled successes.
    roll = roll_pool(ScriptedSource([1, 1, 6]), 3, 6, willpower=True)
    assert (roll.net, roll.result, roll.degree) == (1, RollResult.SUCCESS, Degree.MARGINAL)
    assert roll.notation == "3d10>=6f1"  # the dice only; the flag records Willpower
    assert roll.willpower
    assert evaluate((7, 8, 2), 6, willpower=True).net == 3


@pytest.mark.parametrize("dice", [0, -2])
def test_empty_pool_rolls_nothing_and_fails(dice: int) -> None:
    source = ScriptedSource([])
    roll = roll_pool(source, dice, 6)
    assert (roll.faces, roll.notation, roll.net, roll.result) == ((), "", 0, RollResult.FAILURE)
    assert source.used == 0


def test_pool_cap() -> None:
    with pytest.raises(RuleViolation):
        roll_pool(SeededSource(1), 51, 6)


def test_automatic_success_is_exactly_one_success() -> None:
    # Seed: «автоматический успех в любом случае является минимальным, как если бы игрок
    # выбросил всего один успех.»
    roll = automatic_success(7, 6)
    assert (roll.net, roll.degree, roll.automatic, roll.faces) == (1, Degree.MARGINAL, True, ())
    assert can_succeed_automatically(7, 6)
    assert not can_succeed_automatically(6, 6)
    with pytest.raises(RuleViolation):
        automatic_success(6, 6)


@pytest.mark.parametrize(
    ("difficulty", "attempt", "expected"),
    [(6, 1, 6), (6, 2, 7), (6, 3, 8), (6, 5, 10), (6, 9, 10), (9, 3, 10)],
)
def test_retry_difficulty(difficulty: int, attempt: int, expected: int) -> None:
    # Seed: «если первоначальная сложность равнялась 6, то во время следующей попытки она
    # становится равна 7, потом 8 и так далее.»
    assert retry_difficulty(difficulty, attempt) == expected


def test_retry_attempt_must_be_positive() -> None:
    with pytest.raises(RuleViolation):
        retry_difficulty(6, 0)


@pytest.mark.parametrize(
    ("dice", "difficulty", "notation"),
    [(7, 6, "7d10>=6f1"), (1, 10, "1d10>=10f1"), (0, 6, ""), (-1, 6, "")],
)
def test_notation(dice: int, difficulty: int, notation: str) -> None:
    assert pool_notation(dice, difficulty) == notation


@pytest.mark.parametrize(
    ("boxes", "modifier", "total"),
    [(0, 0, 5), (1, 0, 5), (2, 0, 4), (4, 0, 3), (5, -1, 2), (6, 0, 0), (6, 2, 2)],
)
def test_pool_applies_wound_penalty(boxes: int, modifier: int, total: int) -> None:
    hero = with_ability(with_attribute(new_character("X"), Attribute.WITS, 3), "computer", 2)
    if boxes:
        track, _ = apply_damage(hero.health, DamageKind.BASHING, boxes)
        hero = hero.model_copy(update={"health": track})
    assert build_pool(hero, Attribute.WITS, "computer", modifier=modifier).total == total
    assert build_pool(hero, Attribute.WITS, "computer", modifier=modifier, wounds=False).total == (
        5 + modifier
    )


def test_incapacitated_cannot_build_a_pool() -> None:
    hero = new_character("X")
    track, _ = apply_damage(hero.health, DamageKind.LETHAL, 7)
    with pytest.raises(RuleViolation):
        build_pool(hero.model_copy(update={"health": track}), Attribute.STRENGTH, "brawl")


def test_pool_without_ability_and_unknown_ability() -> None:
    hero = with_attribute(new_character("X"), Attribute.STRENGTH, 4)
    assert build_pool(hero, Attribute.STRENGTH).total == 4
    assert build_pool(hero, Attribute.STRENGTH, "firearms").total == 4


def test_rolls_raise_engine_errors_only() -> None:
    with pytest.raises(EngineError):
        roll_pool(ScriptedSource([1]), 2, 6)  # the scripted dice run out


@given(
    st.lists(st.integers(1, 10), max_size=30),
    st.integers(2, 10),
    st.booleans(),
)
def test_counting_properties(faces: list[int], difficulty: int, willpower: bool) -> None:
    roll = evaluate(faces, difficulty, willpower=willpower)
    successes = sum(1 for f in faces if f >= difficulty)
    ones = faces.count(1)
    raw = successes - ones
    assert roll.net == (max(0, raw) + 1 if willpower else raw)
    assert (roll.result is RollResult.BOTCH) == (roll.net < 0)
    assert (roll.result is RollResult.SUCCESS) == (roll.degree is not None)
    if willpower:
        assert roll.result is RollResult.SUCCESS


@given(st.integers(0, 50), st.integers(2, 10), st.integers(0, 2**32))
def test_seeded_rolls_keep_raw_faces(dice: int, difficulty: int, seed: int) -> None:
    roll = roll_pool(SeededSource(seed), dice, difficulty)
    assert len(roll.faces) == dice
    assert all(1 <= f <= 10 for f in roll.faces)
    assert roll == evaluate(roll.faces, difficulty, dice=dice)
    assert roll.record().outcome() == roll


def test_roll_character_spends_willpower_and_keeps_the_faces() -> None:

    hero = with_ability(
        with_attribute(new_character("Ренч"), Attribute.DEXTERITY, 4), "athletics", 3
    )
    hero = hero.model_copy(update={"willpower": PoolTrait(rating=3, pool=1)})
    after, made = roll_character(
        hero,
        Attribute.DEXTERITY,
        "athletics",
        source=ScriptedSource([1, 1, 3, 4, 4, 6, 8]),
        willpower=True,
    )
    assert made.spec.total == 7
    assert (made.roll.net, made.roll.notation, made.roll.willpower) == (1, "7d10>=6f1", True)
    assert after.willpower.pool == 0
    assert [(c.field, c.before, c.after) for c in made.changes] == [("willpower.pool", 1, 0)]
    with pytest.raises(RuleViolation):
        roll_character(after, Attribute.DEXTERITY, source=ScriptedSource([5]), willpower=True)
    same, plain = roll_character(after, Attribute.DEXTERITY, source=ScriptedSource([6] * 4))
    assert (same, plain.changes, plain.roll.net) == (after, (), 4)
