"""Pools, 0-again, critical failure, chance rolls, grades, contests and top-ups (seed 004)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice.source import ScriptedSource, SeededSource
from engine.errors import RuleViolation
from engine.systems.matter import (
    CHANCE_NOTATION,
    MODIFIER_DICE,
    ContestWinner,
    Grade,
    Modifier,
    Ruling,
    chance_roll,
    compare,
    contested_roll,
    gm_ruling,
    grade_of,
    roll_pool,
    top_up,
)


# Seed: «Выпавшие 7, 8, 9, 0 — успехи (0 то же, что и 10).»
@pytest.mark.parametrize(
    ("face", "successes"),
    [(1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (7, 1), (8, 1), (9, 1)],
)
def test_single_face_success_threshold(face: int, successes: int) -> None:
    roll = roll_pool(ScriptedSource([face, 5]), 2)
    assert roll.successes == successes
    assert roll.faces == (face, 5)


# Seed: «Выпавшие 0 позволяют докинуть ещё один кубик (правило 0-ещё).»
def test_zero_again_adds_one_die() -> None:
    roll = roll_pool(ScriptedSource([10, 3, 4]), 2)
    assert roll.faces == (10, 3, 4)
    assert roll.successes == 1
    assert roll.base_dice == 2


# SPEC DECISION (derived): the extra dice can explode again (chained).
def test_zero_again_is_chained() -> None:
    roll = roll_pool(ScriptedSource([10, 10, 10, 7, 2]), 2)
    # die 1: 10 → 10 → 10 → 7; die 2: 2
    assert roll.faces == (10, 10, 10, 7, 2)
    assert roll.successes == 4
    assert roll.notation == "2d10>=7!"


def test_explosion_follows_its_own_die_in_draw_order() -> None:
    roll = roll_pool(ScriptedSource([3, 10, 8, 9]), 3)
    assert roll.faces == (3, 10, 8, 9)
    assert roll.successes == 3


# Seed: «Если кубик один и выпадает 1 — критический провал.»
def test_one_die_showing_one_is_critical_failure() -> None:
    roll = roll_pool(ScriptedSource([1]), 1)
    assert roll.critical_failure
    assert roll.grade is Grade.CRITICAL_FAILURE
    assert roll.notation == "1d10>=7!"


@pytest.mark.parametrize("faces", [[1, 1], [1, 5], [1, 1, 1]])
def test_ones_in_bigger_pools_are_not_critical(faces: list[int]) -> None:
    roll = roll_pool(ScriptedSource(faces), len(faces))
    assert not roll.critical_failure
    assert roll.grade is Grade.FAILURE


def test_one_after_a_single_exploding_die_is_not_critical() -> None:
    roll = roll_pool(ScriptedSource([10, 1]), 1)
    assert not roll.critical_failure
    assert roll.successes == 1


def test_one_die_by_modifiers_can_crit() -> None:
    roll = roll_pool(ScriptedSource([1]), 2, [Modifier.COMPLICATION])
    assert roll.pool == 1
    assert roll.critical_failure


# Seed: «Сторона имеет преимущество: +1d10, преимущество ошеломительно; хорошо подготовленный
# план: +3d10; присутствуют заметные осложнения: –1d10; всё против вас: –3d10.»
@pytest.mark.parametrize(
    ("modifier", "dice"),
    [
        (Modifier.ADVANTAGE, 1),
        (Modifier.OVERWHELMING, 3),
        (Modifier.COMPLICATION, -1),
        (Modifier.ALL_AGAINST, -3),
    ],
)
def test_modifier_table(modifier: Modifier, dice: int) -> None:
    assert MODIFIER_DICE[modifier] == dice
    roll = roll_pool(ScriptedSource([5] * 10), 4, [modifier])
    assert roll.pool == 4 + dice
    assert len(roll.faces) == 4 + dice
    assert roll.notation == f"{4 + dice}d10>=7!"


def test_modifiers_and_bonus_sum() -> None:
    roll = roll_pool(
        ScriptedSource([5] * 10), 3, [Modifier.ADVANTAGE, Modifier.ALL_AGAINST], bonus=2
    )
    assert roll.pool == 3
    assert roll.modifiers == (Modifier.ADVANTAGE, Modifier.ALL_AGAINST)


# Seed: «когда пул кубиков сведён до нуля, ведущий назначает шанс-бросок: кидается 1d10, где
# первый успех — только 0 (если выпадает 0, действует правило 0-ещё и остальные успехи
# считаются как обычно).»
@pytest.mark.parametrize(
    ("faces", "successes", "crit"),
    [
        ([1], 0, True),
        ([2], 0, False),
        ([7], 0, False),
        ([9], 0, False),
        ([10, 3], 1, False),
        ([10, 7], 2, False),
        ([10, 10, 8], 3, False),
    ],
)
def test_chance_roll(faces: list[int], successes: int, crit: bool) -> None:
    roll = roll_pool(ScriptedSource(faces), 1, [Modifier.ALL_AGAINST])
    assert roll.chance
    assert roll.pool == -2
    assert roll.faces == tuple(faces)
    assert roll.successes == successes
    assert roll.critical_failure is crit
    assert roll.notation == CHANCE_NOTATION == "chance"


def test_chance_roll_at_exactly_zero_and_when_ordered() -> None:
    assert roll_pool(ScriptedSource([8]), 0).chance
    ordered = roll_pool(ScriptedSource([8]), 5, chance=True)
    assert ordered.chance
    assert ordered.successes == 0
    assert chance_roll(ScriptedSource([10, 2])).successes == 1


@pytest.mark.parametrize(
    ("successes", "crit", "grade"),
    [
        (0, False, Grade.FAILURE),
        (1, False, Grade.ROUGH),
        (2, False, Grade.GOOD),
        (3, False, Grade.EXCEPTIONAL),
        (7, False, Grade.EXCEPTIONAL),
        (0, True, Grade.CRITICAL_FAILURE),
    ],
)
def test_grades(successes: int, crit: bool, grade: Grade) -> None:
    assert grade_of(successes, critical_failure=crit) is grade


@pytest.mark.parametrize(
    ("faces", "winner", "margin"),
    [
        ([8, 9, 2, 7], ContestWinner.FIRST, 1),  # 2 v 1
        ([8, 2, 9, 3], ContestWinner.STALEMATE, 0),  # 1 v 1 — DECISION: stalemate
        ([2, 3, 9, 7], ContestWinner.SECOND, 2),  # 0 v 2
    ],
)
def test_contested(faces: list[int], winner: ContestWinner, margin: int) -> None:
    outcome = contested_roll(ScriptedSource(faces), 2, 2)
    assert outcome.winner is winner
    assert outcome.margin == margin
    assert outcome.first.faces == tuple(faces[:2])
    assert outcome.second.faces == tuple(faces[2:])


def test_compare_is_symmetric() -> None:
    a = roll_pool(ScriptedSource([8, 8]), 2)
    b = roll_pool(ScriptedSource([8]), 1)
    assert compare(a, b).winner is ContestWinner.FIRST
    assert compare(b, a).winner is ContestWinner.SECOND


# Seed: «Берём строго первые выпавшие результаты (и добросы, если вдруг где-то ошиблись с
# математикой) без докрутки и подмены.»
def test_top_up_appends_dice_never_rerolls() -> None:
    roll = roll_pool(ScriptedSource([3, 10, 8]), 2)
    fixed = top_up(roll, 2, ScriptedSource([7, 10, 1]))
    assert fixed.faces == (3, 10, 8, 7, 10, 1)
    assert fixed.successes == 4
    assert fixed.notation == "4d10>=7!"
    assert fixed.topped_up == 2


def test_top_up_clears_a_one_die_critical() -> None:
    roll = roll_pool(ScriptedSource([1]), 1)
    fixed = top_up(roll, 1, ScriptedSource([9]))
    assert not fixed.critical_failure
    assert fixed.grade is Grade.ROUGH


def test_top_up_turns_a_chance_roll_into_the_pool() -> None:
    roll = roll_pool(ScriptedSource([8]), 0)
    assert roll.successes == 0
    fixed = top_up(roll, 1, ScriptedSource([2]))
    assert not fixed.chance
    assert fixed.successes == 1  # the 8 now counts 7+
    assert fixed.notation == "2d10>=7!"


def test_top_up_needs_dice() -> None:
    roll = roll_pool(ScriptedSource([3]), 1)
    with pytest.raises(RuleViolation):
        top_up(roll, 0, ScriptedSource([]))


def test_gm_rulings() -> None:
    assert gm_ruling(Ruling.AUTO_SUCCESS).succeeded
    assert not gm_ruling(Ruling.IMPOSSIBLE, pvp_combat=True).succeeded
    with pytest.raises(RuleViolation):
        gm_ruling(Ruling.AUTO_SUCCESS, pvp_combat=True)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 10**6), pool=st.integers(1, 12))
def test_property_faces_explain_the_result(seed: int, pool: int) -> None:
    roll = roll_pool(SeededSource(seed), pool)
    tens = sum(1 for f in roll.faces if f == 10)
    assert len(roll.faces) == pool + tens
    assert roll.successes == sum(1 for f in roll.faces if f >= 7)
    assert roll.critical_failure == (pool == 1 and roll.faces[0] == 1)
    replay = roll_pool(ScriptedSource(roll.faces), pool)
    assert replay == roll


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 10**6), pool=st.integers(1, 6), extra=st.integers(1, 4))
def test_property_top_up_equals_the_right_pool(seed: int, pool: int, extra: int) -> None:
    source = SeededSource(seed)
    fixed = top_up(roll_pool(source, pool), extra, source)
    direct = roll_pool(ScriptedSource(fixed.faces), pool + extra)
    assert direct.faces == fixed.faces
    assert direct.successes == fixed.successes
    assert direct.notation == fixed.notation
