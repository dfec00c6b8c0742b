"""Exact odds against brute-force enumeration (and against the evaluator itself)."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from functools import cache

import pytest

from engine.dice import OddsError, ScriptedSource, roll
from engine.dice.odds import (
    chance_die,
    cliche_check,
    cliche_opposed,
    distribution,
    fate_check,
    fate_distribution,
    lifegear_check,
    matter_at_least,
    matter_pool,
    storyteller_pool,
    sum_d6,
)


def enumerate_faces(counts: list[int]) -> Counter[tuple[int, ...]]:
    return Counter(itertools.product(*[range(1, s + 1) for s in counts]))


def test_fate_distribution() -> None:
    weights = (1, 4, 10, 16, 19, 16, 10, 4, 1)
    assert fate_distribution().as_dict() == {
        v: Fraction(w, 81) for v, w in zip(range(-4, 5), weights, strict=True)
    }
    # Brute force over the 1296 d6 faces read as dF.
    tally = Counter(sum((f - 1) // 2 - 1 for f in faces) for faces in enumerate_faces([6] * 4))
    assert {v: Fraction(c, 1296) for v, c in tally.items()} == fate_distribution().as_dict()


@pytest.mark.parametrize(("bonus", "difficulty"), [(0, 0), (2, 3), (4, 1), (-1, 2), (3, 8)])
def test_fate_check(bonus: int, difficulty: int) -> None:
    odds = fate_check(bonus, difficulty)
    shifts: Counter[int] = Counter()
    for faces in enumerate_faces([6] * 4):
        shifts[sum((f - 1) // 2 - 1 for f in faces) + bonus - difficulty] += 1
    p = {k: Fraction(c, 1296) for k, c in shifts.items()}
    assert odds.fail == sum(v for k, v in p.items() if k < 0)
    assert odds.tie == p.get(0, 0)
    assert odds.success == sum(v for k, v in p.items() if 1 <= k <= 2)
    assert odds.style == sum(v for k, v in p.items() if k >= 3)
    assert odds.fail + odds.tie + odds.success + odds.style == 1
    assert odds.shifts.as_dict() == p


@pytest.mark.parametrize("dice", [1, 2, 3, 4])
@pytest.mark.parametrize("difficulty", [2, 3, 6, 8, 10])
def test_storyteller_pool(dice: int, difficulty: int) -> None:
    odds = storyteller_pool(dice, difficulty)
    net: Counter[int] = Counter()
    botch = 0
    for faces in enumerate_faces([10] * dice):
        hits = sum(f >= difficulty for f in faces)
        ones = faces.count(1)
        net[hits - ones] += 1
        botch += ones > hits  # seed 003: more 1s than successes
    total = 10**dice
    assert odds.botch == Fraction(botch, total)
    assert odds.success == Fraction(sum(c for k, c in net.items() if k >= 1), total)
    assert odds.failure == Fraction(net[0], total)
    assert odds.net.as_dict() == {k: Fraction(c, total) for k, c in net.items()}


def test_storyteller_matches_evaluator() -> None:
    # The notation 3d10>=6f1 evaluated on every face triple gives the same botch odds.
    botch = sum(
        roll("3d10>=6f1", ScriptedSource(faces)).botch for faces in enumerate_faces([10] * 3)
    )
    assert Fraction(botch, 1000) == storyteller_pool(3, 6).botch


@cache
def brute_matter(dice: int, need: int) -> Fraction:
    """P(at least ``need`` successes) by enumerating every face of the pool, recursing into
    the extra dice of each 10 (the recursion ends because every 10 is itself a success)."""
    if need <= 0:
        return Fraction(1)
    if dice == 0:
        return Fraction(0)
    total = Fraction(0)
    for faces in itertools.product(range(1, 11), repeat=dice):
        hits = sum(f >= 7 for f in faces)
        tens = faces.count(10)
        total += brute_matter(tens, need - hits) if tens else Fraction(hits >= need)
    return Fraction(total, 10**dice)


@pytest.mark.parametrize("dice", [1, 2, 3])
def test_matter_pool(dice: int) -> None:
    odds = matter_pool(dice)
    assert odds.at_least_1 == brute_matter(dice, 1)
    assert odds.at_least_2 == brute_matter(dice, 2)
    assert odds.at_least_3 == brute_matter(dice, 3)
    assert matter_at_least(dice, 4) == brute_matter(dice, 4)
    assert odds.critical_failure == (Fraction(1, 10) if dice == 1 else 0)


def test_matter_single_die_closed_form() -> None:
    # One die: P(≥1) = 4/10; P(≥2) = P(10) * P(≥1) = 1/10 * 4/10.
    assert matter_at_least(1, 1) == Fraction(2, 5)
    assert matter_at_least(1, 2) == Fraction(1, 25)


def test_chance_die() -> None:
    # seed 004: 1d10, only a 0 succeeds; a 0 adds a die counting 7+ with 0-again.
    odds = chance_die()
    assert odds.chance_die
    assert odds.at_least_1 == Fraction(1, 10)
    assert odds.at_least_2 == Fraction(1, 10) * brute_matter(1, 1)
    assert odds.at_least_3 == Fraction(1, 10) * brute_matter(1, 2)
    assert odds.critical_failure == Fraction(1, 10)
    assert matter_pool(-2) == matter_pool(0)


@pytest.mark.parametrize("dice", [1, 2, 3])
@pytest.mark.parametrize("target", [3, 5, 10, 15])
def test_cliche_check(dice: int, target: int) -> None:
    hits = sum(sum(f) >= target for f in enumerate_faces([6] * dice))
    assert cliche_check(dice, target) == Fraction(hits, 6**dice)


@pytest.mark.parametrize(("mine", "theirs"), [(1, 1), (2, 1), (2, 3), (3, 3)])
def test_cliche_opposed(mine: int, theirs: int) -> None:
    win = tie = lose = 0
    for a in enumerate_faces([6] * mine):
        for b in enumerate_faces([6] * theirs):
            win += sum(a) > sum(b)
            tie += sum(a) == sum(b)
            lose += sum(a) < sum(b)
    total = 6 ** (mine + theirs)
    odds = cliche_opposed(mine, theirs)
    assert (odds.win, odds.tie, odds.lose) == (
        Fraction(win, total),
        Fraction(tie, total),
        Fraction(lose, total),
    )


def test_sum_d6() -> None:
    assert sum_d6(2).p(7) == Fraction(1, 6)


@pytest.mark.parametrize(
    ("expression", "sides"),
    [("1d8+1d6+3", [8, 6]), ("2d4-1d6", [4, 4, 6]), ("1d6*2+1", [6]), ("1d10/3", [10])],
)
def test_distribution_matches_evaluator(expression: str, sides: list[int]) -> None:
    tally = Counter(roll(expression, ScriptedSource(f)).total for f in enumerate_faces(sides))
    total = sum(tally.values())
    assert distribution(expression).as_dict() == {k: Fraction(c, total) for k, c in tally.items()}


def test_lifegear_seed_example() -> None:
    # seed 001: defence 10 vs 1d8+1d6+3: needs 1d8+1d6 ≥ 7; 33 of 48 outcomes.
    assert lifegear_check("1d8+1d6+3", 10) == Fraction(33, 48)
    assert lifegear_check("1d8+1d6+3", 5) == 1
    assert lifegear_check("1d8+1d6+3", 18) == 0


@pytest.mark.parametrize("expression", ["5d10>=7!", "1d6*1d6", "chance", "4d6!", "2d6ra6"])
def test_unsupported_expressions(expression: str) -> None:
    with pytest.raises(OddsError):
        distribution(expression)


@pytest.mark.parametrize(
    "call",
    [
        lambda: storyteller_pool(0, 6),
        lambda: storyteller_pool(5, 1),
        lambda: storyteller_pool(5, 11),
        lambda: sum_d6(0),
        lambda: sum_d6(10_000),
    ],
)
def test_bad_arguments(call: object) -> None:
    with pytest.raises(OddsError):
        call()  # type: ignore[operator]


def test_results_are_cached() -> None:
    assert storyteller_pool(7, 6) is storyteller_pool(7, 6)
    assert distribution("1d8+1d6+3") is distribution("1d8+1d6+3")


@pytest.mark.parametrize(
    "expression", ["100d100", "60d100+60d100", "+".join(["1d1000"] * 28), "10d1000+10d1000"]
)
def test_too_much_work_is_refused(expression: str) -> None:
    with pytest.raises(OddsError):
        distribution(expression)


def test_large_but_feasible() -> None:
    assert distribution("100d6").p(350) == sum_d6(100).p(350)
    assert distribution("4dF+2").as_dict() == {
        v + 2: p for v, p in fate_distribution().as_dict().items()
    }
