"""Exact odds, computed (integer convolution and fractions), never sampled; results cached.

* Fate: 4dF (1,4,10,16,19,16,10,4,1)/81; ``fate_check(bonus, difficulty)``.
* Storyteller (seed 003): n d10 at difficulty 2..10; a die ≥ difficulty is a success, each 1
  cancels one success. Net = successes − ones. The seed's botch rule: **more 1s than
  successes** («Если вы выбрасываете больше "единиц", чем успехов … проваливает», glossary:
  «количество "единиц" превышает количество успехов»), i.e. net < 0. Net 0 is a failure
  (1,1,3,4,4,6,8 at 6 is a failure, not a botch); net ≥ 1 a success. The classic revised-WoD
  rule "no successes rolled and at least one 1" differs (1,1,6 is a botch here, not there);
  the seed wins.
* Matter (seed 004): n d10, 7+ succeeds, a 10 adds a die (chained). Per die the number of
  successes S has P(S=0) = 6/10 and P(S=k) = 6/10·(1/10)^k + 3/10·(1/10)^(k−1) for k ≥ 1, so
  P(pool ≥ k) = 1 − Σ_{j<k} P(pool = j) needs only finitely many exact terms. A pool ≤ 0 is
  the chance die: 1d10, only a 10 succeeds, and then one extra die counts 7+ with 10-again;
  a one-die pool or a chance die showing 1 is a critical failure (1/10).
* Cliché: Nd6 sum ≥ TN; opposed Nd6 vs Md6.
* Lifegear and ``distribution(expression)``: sums of plain dice and constants (``+ -``, and
  ``* /`` by a constant). Anything else raises ``OddsError``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Final

from engine.dice.ast import BinKind, BinOp, Compare, Dice, Neg, Node, Num, Tagged
from engine.dice.errors import OddsError
from engine.dice.evaluator import divide, modulo
from engine.dice.odds_dice import Unsupported, dice_counts, simulated_counts
from engine.dice.odds_dice import convolve as _convolve
from engine.dice.odds_dice import power as _power
from engine.dice.parser import parse
from engine.text import msg

MAX_POOL: Final = 100
MAX_SUPPORT: Final = 20_000  # outcome values of a generic distribution
MAX_WORK: Final = 300_000  # basic steps for one expression; beyond it odds are refused
MAX_DICE_IN_DISTRIBUTION: Final = 200
MAX_SIMULATED_DICE: Final = 40  # dice per roll when odds are simulated (5,000 rolls)

Counts = dict[int, int]


@dataclass(frozen=True, slots=True)
class Distribution:
    """An exact finite distribution: ``(value, probability)`` pairs sorted by value."""

    outcomes: tuple[tuple[int, Fraction], ...]

    def p(self, value: int) -> Fraction:
        return next((pr for v, pr in self.outcomes if v == value), Fraction(0))

    def p_at_least(self, value: int) -> Fraction:
        return sum((pr for v, pr in self.outcomes if v >= value), Fraction(0))

    def p_at_most(self, value: int) -> Fraction:
        return sum((pr for v, pr in self.outcomes if v <= value), Fraction(0))

    def as_dict(self) -> dict[int, Fraction]:
        return dict(self.outcomes)

    @property
    def mean(self) -> Fraction:
        return sum((v * pr for v, pr in self.outcomes), Fraction(0))


@dataclass(frozen=True, slots=True)
class FateOdds:
    """A fate check: the four outcomes partition the shifts (fail < 0, tie 0, success 1–2,
    style ≥ 3); ``at_least_success`` = success + style."""

    fail: Fraction
    tie: Fraction
    success: Fraction
    style: Fraction
    shifts: Distribution

    @property
    def at_least_success(self) -> Fraction:
        return self.success + self.style


@dataclass(frozen=True, slots=True)
class StorytellerOdds:
    """success = net ≥ 1, failure = net 0, botch = net < 0 (more 1s than successes)."""

    success: Fraction
    failure: Fraction
    botch: Fraction
    net: Distribution


@dataclass(frozen=True, slots=True)
class MatterOdds:
    """``head[k]`` = P(exactly k successes) for k < len(head); the tail is the rest."""

    dice: int
    at_least_1: Fraction
    at_least_2: Fraction
    at_least_3: Fraction
    critical_failure: Fraction
    head: tuple[Fraction, ...]

    @property
    def chance_die(self) -> bool:
        return self.dice <= 0


@dataclass(frozen=True, slots=True)
class OpposedOdds:
    win: Fraction
    tie: Fraction
    lose: Fraction


def _bad(problem_ru: str, problem_en: str) -> OddsError:
    return OddsError(msg("dice.odds.bad_argument", problem_ru=problem_ru, problem_en=problem_en))


def _check_pool(dice: int, low: int = 1) -> None:
    if not low <= dice <= MAX_POOL:
        raise _bad(
            f"кубиков должно быть от {low} до {MAX_POOL}", f"dice must be {low}..{MAX_POOL}"
        )


def _uniform_sum(count: int, sides: int, low: int = 1) -> Counts:
    """Counts of the sum of ``count`` dice with faces low..low+sides-1 (sliding window over
    prefix sums: O(count × support) instead of repeated dictionary convolution)."""
    ways = [1]
    for _ in range(count):
        prefix = [0]
        for w in ways:
            prefix.append(prefix[-1] + w)
        size = len(ways) + sides - 1
        ways = [prefix[min(i + 1, len(ways))] - prefix[max(0, i - sides + 1)] for i in range(size)]
    return {count * low + i: w for i, w in enumerate(ways)}


def _to_distribution(counts: Counts, denominator: int) -> Distribution:
    return Distribution(
        tuple((v, Fraction(c, denominator)) for v, c in sorted(counts.items()) if c)
    )


def _sum_probability(dist: Distribution, values: Iterable[int]) -> Fraction:
    wanted = set(values)
    return sum((p for v, p in dist.outcomes if v in wanted), Fraction(0))


# -- fate ---------------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def fate_distribution() -> Distribution:
    """4dF: values −4..+4 with weights (1,4,10,16,19,16,10,4,1)/81."""
    return _to_distribution(_power({-1: 1, 0: 1, 1: 1}, 4), 81)


@lru_cache(maxsize=4096)
def fate_check(bonus: int, difficulty: int) -> FateOdds:
    """Odds of 4dF + bonus against a difficulty (or an opponent's fixed result)."""
    shifts = Distribution(
        tuple((v + bonus - difficulty, p) for v, p in fate_distribution().outcomes)
    )
    return FateOdds(
        fail=shifts.p_at_most(-1),
        tie=shifts.p(0),
        success=shifts.p(1) + shifts.p(2),
        style=shifts.p_at_least(3),
        shifts=shifts,
    )


# -- storyteller --------------------------------------------------------------------------------
@lru_cache(maxsize=4096)
def storyteller_pool(dice: int, difficulty: int) -> StorytellerOdds:
    """Odds of a storyteller pool (see the module docstring for the botch rule)."""
    _check_pool(dice)
    if not 2 <= difficulty <= 10:
        raise _bad("сложность должна быть от 2 до 10", "difficulty must be 2..10")
    per_die = {-1: 1, 0: difficulty - 2, 1: 11 - difficulty}
    net = _to_distribution(_power(per_die, dice), 10**dice)
    return StorytellerOdds(
        success=net.p_at_least(1), failure=net.p(0), botch=net.p_at_most(-1), net=net
    )


# -- matter -------------------------------------------------------------------------------------
def _matter_die(terms: int) -> list[Fraction]:
    """P(one die with 10-again gives exactly k successes), k < terms."""
    out = [Fraction(6, 10)]
    for k in range(1, terms):
        out.append(
            Fraction(6, 10) * Fraction(1, 10) ** k + Fraction(3, 10) * Fraction(1, 10) ** (k - 1)
        )
    return out


def _truncated_power(die: list[Fraction], n: int) -> list[Fraction]:
    terms = len(die)
    result = [Fraction(1)] + [Fraction(0)] * (terms - 1)
    for _ in range(n):
        result = [
            sum((result[i] * die[k - i] for i in range(k + 1)), Fraction(0)) for k in range(terms)
        ]
    return result


@lru_cache(maxsize=4096)
def matter_head(dice: int, terms: int = 4) -> tuple[Fraction, ...]:
    """Exact P(exactly k successes) for k < terms; a pool ≤ 0 is the chance die."""
    if terms < 1 or terms > 64:
        raise _bad("число членов от 1 до 64", "terms must be 1..64")
    if dice > MAX_POOL:
        _check_pool(dice)
    if dice <= 0:
        one = _matter_die(terms)
        return (Fraction(9, 10), *(Fraction(1, 10) * one[k - 1] for k in range(1, terms)))
    return tuple(_truncated_power(_matter_die(terms), dice))


def matter_at_least(dice: int, successes: int) -> Fraction:
    """Exact P(at least ``successes`` successes) for a matter pool (chance die if ≤ 0)."""
    if successes <= 0:
        return Fraction(1)
    return 1 - sum(matter_head(dice, successes), Fraction(0))


@lru_cache(maxsize=4096)
def matter_pool(dice: int) -> MatterOdds:
    """P(≥1), P(≥2), P(≥3) and the critical failure chance of a matter pool.

    A pool of 0 or fewer dice is the chance die (SPEC §5), reported with ``dice = 0``.
    """
    if dice < 0:
        return matter_pool(0)
    head = matter_head(dice, 4)
    crit = Fraction(1, 10) if dice <= 1 else Fraction(0)
    return MatterOdds(
        dice=dice,
        at_least_1=1 - head[0],
        at_least_2=1 - head[0] - head[1],
        at_least_3=1 - head[0] - head[1] - head[2],
        critical_failure=crit,
        head=head,
    )


def chance_die() -> MatterOdds:
    """The chance die (шанс-бросок): ``matter_pool(0)``."""
    return matter_pool(0)


# -- cliché -------------------------------------------------------------------------------------
@lru_cache(maxsize=512)
def sum_d6(dice: int) -> Distribution:
    """The sum of ``dice`` d6."""
    _check_pool(dice)
    return _to_distribution(_uniform_sum(dice, 6), 6**dice)


@lru_cache(maxsize=4096)
def cliche_check(dice: int, target: int) -> Fraction:
    """P(sum of ``dice`` d6 ≥ target number)."""
    return sum_d6(dice).p_at_least(target)


@lru_cache(maxsize=4096)
def cliche_opposed(dice: int, other: int) -> OpposedOdds:
    """P(Nd6 > Md6), P(tie), P(less)."""
    mine, theirs = sum_d6(dice).as_dict(), sum_d6(other).as_dict()
    win = tie = lose = Fraction(0)
    below = Fraction(0)  # P(their sum < value), accumulated while walking the values upward
    for value in sorted(mine.keys() | theirs.keys()):
        p_mine = mine.get(value, Fraction(0))
        p_equal = theirs.get(value, Fraction(0))
        win += p_mine * below
        tie += p_mine * p_equal
        lose += p_mine * (1 - below - p_equal)
        below += p_equal
    return OpposedOdds(win=win, tie=tie, lose=lose)


# -- generic sums (lifegear) --------------------------------------------------------------------
def _unsupported(expression: str, problem_ru: str, problem_en: str) -> OddsError:
    return OddsError(
        msg(
            "dice.odds.unsupported",
            expression=expression,
            problem_ru=problem_ru,
            problem_en=problem_en,
        )
    )


class _Exact:
    """Counts over a common denominator, for one expression."""

    def __init__(self, expression: str, max_work: int = MAX_WORK) -> None:
        self.expression = expression
        self.max_work = max_work
        self.dice = 0
        self.work = 0

    def spend(self, steps: int) -> None:
        """Count convolution steps against ``MAX_WORK`` before doing them."""
        self.work += steps
        if self.work > self.max_work:
            raise _unsupported(self.expression, "слишком много исходов", "too many outcomes")

    def node(self, node: Node) -> tuple[Counts, int]:
        """Counts of a node, through a table keyed by node type (like the evaluator)."""
        handler = _EXACT.get(type(node))
        if handler is None:
            raise _unsupported(
                self.expression, "только суммы кубиков и чисел", "only sums of dice and numbers"
            )
        return handler(self, node)

    def num(self, node: Num) -> tuple[Counts, int]:
        return {node.value: 1}, 1

    def neg(self, node: Neg) -> tuple[Counts, int]:
        counts, den = self.node(node.operand)
        return {-v: c for v, c in counts.items()}, den

    def plain_dice(self, node: Dice) -> tuple[Counts, int]:
        self.dice += node.count
        if self.dice > MAX_DICE_IN_DISTRIBUTION:
            raise _unsupported(self.expression, "слишком много кубиков", "too many dice")
        modified = node.reroll or node.explode or node.keep or node.success
        if modified or node.floor is not None or node.ceil is not None:
            try:
                counts, den = dice_counts(node, MAX_WORK - self.work)
            except Unsupported:
                raise _unsupported(
                    self.expression,
                    "для этих модификаторов — только моделированием",
                    "these modifiers only by simulation",
                ) from None
            self.spend(len(counts))
            return counts, den
        if self.dice > MAX_DICE_IN_DISTRIBUTION:
            raise _unsupported(self.expression, "слишком много кубиков", "too many dice")
        if node.fate:  # a d6 read as dF: each of −1, 0, +1 has 2 faces of 6
            counts = _uniform_sum(node.count, 3, -1)
            return {v: c * 2**node.count for v, c in counts.items()}, 6**node.count
        support = node.count * (node.sides - 1) + 1
        if support > MAX_SUPPORT:
            raise _unsupported(self.expression, "слишком большие кубики", "dice too large")
        self.spend(node.count * support)
        return _uniform_sum(node.count, node.sides), node.sides**node.count

    def binop(self, node: BinOp) -> tuple[Counts, int]:
        left, lden = self.node(node.left)
        right, rden = self.node(node.right)
        if node.op in (BinKind.ADD, BinKind.SUB):
            if node.op is BinKind.SUB:
                right = {-v: c for v, c in right.items()}
            self.spend(len(left) * len(right))
            out = _convolve(left, right)
            if len(out) > MAX_SUPPORT:
                raise _unsupported(self.expression, "слишком много исходов", "too many outcomes")
            return out, lden * rden
        if len(right) == 1 and rden == 1:
            k = next(iter(right))
            return self.scale(left, k, node.op), lden
        if len(left) == 1 and lden == 1 and node.op is BinKind.MUL:
            return self.scale(right, next(iter(left)), node.op), rden
        raise _unsupported(
            self.expression, "умножать и делить можно только на число",
            "multiply and divide only by a constant",
        )  # fmt: skip

    def scale(self, counts: Counts, k: int, op: BinKind) -> Counts:
        out: Counts = {}
        for v, c in counts.items():
            key = (
                v * k if op is BinKind.MUL else modulo(v, k) if op is BinKind.MOD else divide(v, k)
            )
            out[key] = out.get(key, 0) + c
        return out

    def tagged(self, node: Tagged) -> tuple[Counts, int]:
        return self.node(node.operand)

    def compare(self, node: Compare) -> tuple[Counts, int]:
        """A comparison of totals is 1 or 0: the odds of each."""
        left, lden = self.node(node.left)
        right, rden = self.node(node.right)
        self.spend(len(left) * len(right))
        passed = sum(
            lc * rc for lv, lc in left.items() for rv, rc in right.items() if node.cmp.test(lv, rv)
        )
        total = lden * rden
        return {v: c for v, c in ((1, passed), (0, total - passed)) if c}, total


_EXACT: Final[dict[type[Any], Callable[[_Exact, Any], tuple[Counts, int]]]] = {
    Num: _Exact.num,
    Dice: _Exact.plain_dice,
    Neg: _Exact.neg,
    BinOp: _Exact.binop,
    Tagged: _Exact.tagged,
    Compare: _Exact.compare,
}


@lru_cache(maxsize=1024)
def distribution(expression: str, *, max_work: int = MAX_WORK) -> Distribution:
    """The exact distribution of a sum of plain dice and constants (``1d8+1d6+3``).

    ``max_work`` lowers the cap on convolution steps (``OddsError`` past it): a caller that
    cannot hand the work to another process keeps it short (``MAX_WORK`` takes a few tenths
    of a second)."""
    parsed = parse(expression)
    counts, den = _Exact(expression, max_work).node(parsed.root)
    return _to_distribution(counts, den)


@lru_cache(maxsize=256)
def simulated_distribution(expression: str) -> Distribution:
    """The distribution of ``expression`` estimated from seeded rolls (``SIMULATED_ROLLS``),
    for forms without exact odds (endless explosions, ``ra``): say so where it is shown."""
    if parse(expression).dice_count > MAX_SIMULATED_DICE:  # bad notation is refused here too
        raise _unsupported(expression, "слишком много кубиков", "too many dice")
    counts, den = simulated_counts(expression)
    return _to_distribution(counts, den)


def distribution_or_simulated(expression: str) -> tuple[Distribution, bool]:
    """The exact distribution where an exact method applies, else the simulated one; and
    whether it was simulated."""
    try:
        return distribution(expression), False
    except OddsError:
        return simulated_distribution(expression), True


@lru_cache(maxsize=4096)
def lifegear_check(expression: str, defence: int) -> Fraction:
    """P(expression ≥ defence) — a fast-combat attack defeating a monster of defence D."""
    return distribution(expression).p_at_least(defence)
