"""Exact odds of modified dice (keep, rerolls, explode once, mi/ma, success counts) against
closed forms and brute-force enumeration; forms without an exact method are simulated."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from engine.dice import OddsError
from engine.dice.odds import distribution, simulated_distribution


def _enumerate(sides: int, count: int, value) -> dict[int, Fraction]:  # type: ignore[no-untyped-def]
    out: dict[int, Fraction] = {}
    total = sides**count
    for faces in itertools.product(range(1, sides + 1), repeat=count):
        v = value(faces)
        out[v] = out.get(v, Fraction(0)) + Fraction(1, total)
    return out


@pytest.mark.parametrize(
    ("expression", "sides", "count", "value"),
    [
        ("4d6kh3", 6, 4, lambda f: sum(sorted(f)[1:])),
        ("4d6 d1", 6, 4, lambda f: sum(sorted(f)[1:])),
        ("3d6kl2", 6, 3, lambda f: sum(sorted(f)[:2])),
        ("4d6dh1", 6, 4, lambda f: sum(sorted(f)[:3])),
        ("5d10t7", 10, 5, lambda f: sum(x >= 7 for x in f)),
        ("5d10>=6f1", 10, 5, lambda f: sum(x >= 6 for x in f) - sum(x == 1 for x in f)),
        ("4d6mi3", 6, 4, lambda f: sum(max(x, 3) for x in f)),
        ("3d8ma5", 8, 3, lambda f: sum(min(x, 5) for x in f)),
        ("3d6mi2kh2", 6, 3, lambda f: sum(sorted(max(x, 2) for x in f)[1:])),
        ("1d20+5>10", 20, 1, lambda f: int(f[0] + 5 > 10)),
        ("2d6%4", 6, 2, lambda f: sum(f) % 4),
    ],
)
def test_exact_against_enumeration(expression: str, sides: int, count: int, value) -> None:  # type: ignore[no-untyped-def]
    expected = _enumerate(sides, count, value)
    assert distribution(expression).as_dict() == {k: v for k, v in expected.items() if v}


def test_reroll_once_and_explode_once_closed_forms() -> None:
    # 1d6ro1: a 1 becomes any face: P(1) = 1/36, P(other) = 1/6 + 1/36.
    ro = distribution("1d6ro1").as_dict()
    assert ro[1] == Fraction(1, 36) and ro[4] == Fraction(7, 36)
    # 1d6e6: a 6 adds one d6 (which does not explode): P(6 + k) = 1/36 for k in 1..6.
    once = distribution("1d6e6").as_dict()
    assert once[5] == Fraction(1, 6) and once[12] == Fraction(1, 36) and 6 not in once
    # 1d6r1 rerolls up to 100 times: P(1) = (1/6)^101.
    endless = distribution("1d6r1").as_dict()
    assert endless[1] == Fraction(1, 6**101)


def test_endless_explosions_and_ra_are_simulated() -> None:
    for expression in ("3d6!", "2d6ra6", "3d6ie"):
        with pytest.raises(OddsError):
            distribution(expression)
        dist = simulated_distribution(expression)
        assert sum(p for _, p in dist.outcomes) == 1
        assert dist == simulated_distribution(expression)  # seeded: the same every time
    assert 11 < float(simulated_distribution("3d6!").mean) < 14  # exact 12.6
    with pytest.raises(OddsError):
        simulated_distribution("100d6!")  # too many dice to simulate
