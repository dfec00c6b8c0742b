"""Expressions from other dice bots' public docs and tests, with what each peer means.

Sources: DM = Humblemonk/dicemaiden-rs ``roll_syntax.md`` (RS) and ``tests/unit_tests.rs`` (UT);
D20 = avrae/d20 ``README.md`` (README) and ``tests/test_dice.py`` (TD).

Kinds:
* ``d20``: the same distribution as d20 rolls ``peer`` (d20 is the oracle, a test dependency);
* ``ref``: the same distribution as ``peer`` (a reference sampler of the peer's rule, below);
* ``hint``: refused, with a hint of what to write here;
* ``choice``: one of the documented choices of /help dice (accepted, meaning ours).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

Sampler = Callable[[random.Random], int]


@dataclass(frozen=True)
class Case:
    text: str
    source: str
    kind: str
    peer: str | Sampler | None = None


def _dice(rng: random.Random, n: int, sides: int) -> list[int]:
    return [rng.randint(1, sides) for _ in range(n)]


def _successes(n: int, sides: int, target: int) -> Sampler:
    return lambda rng: sum(d >= target for d in _dice(rng, n, sides))


def _explode_once(n: int, sides: int, at: int) -> Sampler:
    def sample(rng: random.Random) -> int:
        dice = _dice(rng, n, sides)
        return sum(dice) + sum(rng.randint(1, sides) for d in dice if d >= at)

    return sample


def _explode_endless(n: int, sides: int, at: int) -> Sampler:
    def sample(rng: random.Random) -> int:
        total, pending = 0, n
        while pending:
            dice = _dice(rng, pending, sides)
            total += sum(dice)
            pending = sum(d >= at for d in dice)
        return total

    return sample


def _cod(n: int, again: int) -> Sampler:
    """Dice Maiden's NcodA: Nd10, successes at 8+, A or more explodes without end."""

    def sample(rng: random.Random) -> int:
        hits, pending = 0, n
        while pending:
            dice = _dice(rng, pending, 10)
            hits += sum(d >= 8 for d in dice)
            pending = sum(d >= again for d in dice)
        return hits

    return sample


def _wod(n: int, target: int) -> Sampler:
    """Dice Maiden's NwodT: Nd10 f1 tT — successes at T+, each 1 takes one away."""

    def sample(rng: random.Random) -> int:
        dice = _dice(rng, n, 10)
        return sum(d >= target for d in dice) - sum(d == 1 for d in dice)

    return sample


def _reroll_at_most(n: int, sides: int, at: int) -> Sampler:
    """Dice Maiden's ir: reroll dice of ``at`` or less until they are higher (at most 100)."""

    def sample(rng: random.Random) -> int:
        total = 0
        for _ in range(n):
            face, times = rng.randint(1, sides), 0
            while face <= at and times < 100:
                face, times = rng.randint(1, sides), times + 1
            total += face
        return total

    return sample


def _percentile(advantage: bool) -> Sampler:
    """Dice Maiden's +d% / -d%: two tens dice, the lower (+) or higher (−), and a units die."""

    def sample(rng: random.Random) -> int:
        tens = _dice(rng, 2, 10)
        pick = min(tens) if advantage else max(tens)
        return pick * 10 + rng.randint(1, 10) - 10

    return sample


CASES: tuple[Case, ...] = (
    # -- Dice Maiden -------------------------------------------------------------------------
    Case("2d6", "DM RS Basic Usage", "d20", "2d6"),
    Case("3d6 + 5", "DM RS Basic Usage", "d20", "3d6+5"),
    Case("4d6 k3", "DM RS Basic Usage", "d20", "4d6kh3"),
    Case("4d6k3", "DM RS Core Modifiers", "d20", "4d6kh3"),
    Case("d%", "DM RS Basic Usage", "ref", lambda rng: rng.randint(1, 100)),
    Case("4d6 kl2", "DM RS Core Modifiers", "d20", "4d6kl2"),
    Case("4d6kl2", "DM RS Core Modifiers", "d20", "4d6kl2"),
    Case("4d6 d1", "DM RS Core Modifiers", "d20", "4d6pl1"),
    Case("4d6d1", "DM RS Core Modifiers", "d20", "4d6pl1"),
    Case("6d10 t7", "DM RS Success Counting", "ref", _successes(6, 10, 7)),
    Case("6d10t7", "DM RS Success Counting", "ref", _successes(6, 10, 7)),
    Case("3d6 e6", "DM RS Exploding", "ref", _explode_once(3, 6, 6)),
    Case("3d6e6", "DM RS Exploding", "ref", _explode_once(3, 6, 6)),
    Case("3d6 e", "DM RS Exploding", "ref", _explode_once(3, 6, 6)),
    Case("4d10e8", "DM RS Exploding", "ref", _explode_once(4, 10, 8)),
    Case("3d6 ie6", "DM RS Exploding", "ref", _explode_endless(3, 6, 6)),
    Case("3d6 ie", "DM RS Exploding", "ref", _explode_endless(3, 6, 6)),
    Case("4d10ie8", "DM RS Exploding", "ref", _explode_endless(4, 10, 8)),
    Case("4d6 ir2", "DM RS Rerolls", "ref", _reroll_at_most(4, 6, 2)),
    Case("4d6ir1", "DM RS Rerolls", "ref", _reroll_at_most(4, 6, 1)),
    Case("+d20", "DM RS D&D/Pathfinder", "d20", "2d20kh1"),
    Case("-d20", "DM RS D&D/Pathfinder", "d20", "2d20kl1"),
    Case("+d%", "DM RS D&D/Pathfinder", "ref", _percentile(True)),
    Case("-d%", "DM RS D&D/Pathfinder", "ref", _percentile(False)),
    Case("2d6 ! Fire damage", "DM RS Comments", "d20", "2d6"),
    Case("(Attack) 1d20 + 5", "DM RS Labels", "d20", "1d20+5"),
    Case("4cod", "DM RS World of Darkness", "ref", _cod(4, 10)),
    Case("4cod8", "DM RS World of Darkness", "ref", _cod(4, 8)),
    Case("4cod9", "DM RS World of Darkness", "ref", _cod(4, 9)),
    Case("4wod8", "DM RS World of Darkness", "ref", _wod(4, 8)),
    Case("5d10 t8 f1", "DM UT success with failures", "ref", _wod(5, 8)),
    Case("s 4d6 k3", "DM RS Special Flags", "d20", "4d6kh3"),
    Case("3d6 + 2d4 - 1", "DM UT math", "d20", "3d6+2d4-1"),
    Case("4d6 km2", "DM RS Keep/Drop", "hint"),
    Case("3d6 i", "DM RS Imploding", "hint"),
    Case("4d6 adv1", "DM RS Advantage", "hint"),
    Case("6d10 tl6", "DM RS Success Counting", "hint"),
    Case("5d10 t7 ds10", "DM RS Double Success", "hint"),
    Case("4d10 t7 b1", "DM RS Botch Counting", "ref", _successes(4, 10, 7)),
    Case("4d10t7b", "DM RS Botch Counting", "ref", _successes(4, 10, 7)),
    Case("4d6 f2", "DM RS Success Counting", "hint"),
    Case("4codr", "DM RS World of Darkness", "hint"),
    Case("4wod8c", "DM RS World of Darkness", "hint"),
    Case("dndstats", "DM RS D&D/Pathfinder", "hint"),
    Case("attack +5", "DM RS D&D/Pathfinder", "hint"),
    Case("sw8", "DM RS Savage Worlds", "hint"),
    Case("alien4", "DM RS Alien RPG", "hint"),
    Case("p 3d6 + 2d4", "DM RS Special Flags", "hint"),
    Case("4d6 nr", "DM RS Special Flags", "hint"),
    Case("2d6 > 7", "DM RS (a d6 never exceeds 6)", "hint"),
    Case("1d20>=21", "issue 29", "hint"),
    Case("21 4d6", "DM RS Roll Sets (2-20)", "hint"),
    Case("1d6;1d6;1d6;1d6;1d6", "DM RS Multi-Roll (max 4)", "hint"),
    Case("1d20 r2", "DM RS Rerolls: our r is Roll20's", "choice"),
    Case("2d6 + 3 * 2", "DM: left to right; here * first", "choice"),
    # -- d20 -----------------------------------------------------------------------------------
    Case("4d6kh3", "D20 README Examples", "d20", "4d6kh3"),
    Case("2d6ro<3", "D20 README Examples", "d20", "2d6ro<3"),
    Case("8d6mi2", "D20 README Examples", "d20", "8d6mi2"),
    Case("10d6mi2", "D20 TD", "d20", "10d6mi2"),
    Case("10d6ma5", "D20 TD", "d20", "10d6ma5"),
    Case("10d6mi6", "D20 TD", "d20", "10d6mi6"),
    Case("10d6ma1", "D20 TD", "d20", "10d6ma1"),
    Case("1d100 % 10", "D20 TD", "d20", "1d100 % 10"),
    Case("13 % 2", "D20 README Binary Operations", "d20", "13 % 2"),
    Case("2 * 1d6", "D20 TD", "d20", "2 * 1d6"),
    Case("2 + 1d6", "D20 TD", "d20", "2 + 1d6"),
    Case("60 / 1d6", "D20 TD (exact quotients)", "d20", "60 / 1d6"),
    Case("(((1d6)))", "D20 TD", "d20", "(((1d6)))"),
    Case("1d1ro1", "D20 TD", "d20", "1d1ro1"),
    Case("1d20 + 5 > 10", "D20 README Binary Operations", "d20", "1d20 + 5 > 10"),
    Case("1d20 + 5 >= 15", "D20 README Binary Operations", "d20", "1d20 + 5 >= 15"),
    Case("2d6 < 7", "D20 README Binary Operations", "d20", "2d6 < 7"),
    Case("3d6 [fire] + 1d4 [piercing]", "D20 README annotations", "d20", "3d6 + 1d4"),
    Case("1d20+1d20 [x] * 2", "D20 README annotations", "d20", "1d20+1d20*2"),
    # D20 TD has 1d20rr<20: here rerolls stop after 100 (a 20 in 99.4% of rolls, not always).
    Case("1d20rr<15", "D20 TD (1d20rr<20, threshold lowered)", "d20", "1d20rr<15"),
    Case("1d4rr1", "D20 README operators", "d20", "1d4rr1"),
    Case("1d1ra1", "D20 TD", "d20", "1d1ra1"),
    Case("2d6ra6", "D20 README operators (ra)", "d20", "2d6ra6"),
    Case("1d6ral1", "D20 TD", "hint"),
    Case("1d6rol1", "D20 TD", "hint"),
    Case("10d6mil1", "D20 TD", "hint"),
    Case("10d6k1ph1", "D20 TD", "hint"),
    Case("(1d4, 2+2, 3d6kl1)kh1", "D20 TD", "hint"),
    Case("((10d6kh5)kl2)kh1", "D20 TD", "hint"),
    Case("1d%", "D20 TD: a tens die there, 1..100 here", "choice"),
    Case("1d2e2", "D20 TD: e explodes once here", "choice"),
    Case("1d1e1", "D20 TD: e explodes once here", "choice"),
)
