"""Exact odds of one dice term with modifiers (keep/drop, reroll, explode once, mi/ma, success
counts), for ``odds.distribution``; endless explosions and ``ra`` are left to simulation.

Every die is independent: its final face has a weight over a common denominator (a reroll
changes the weights), then a value (the face, clamped by mi/ma; or for a success count +1/−1/0).
Without keep/drop the term is the ``n``-th convolution power of one die; with keep/drop every
multiset of faces is enumerated with its multinomial weight (bounded by the work limit).
"""

from __future__ import annotations

from collections.abc import Callable
from math import comb, factorial

from engine.dice.ast import Dice, KeepKind
from engine.dice.evaluator import MAX_REROLLS, roll
from engine.dice.source import SeededSource

Counts = dict[int, int]


class Unsupported(Exception):
    """Exact odds of this term are not computed (the caller says why, in both languages)."""


def _face_weights(node: Dice) -> tuple[dict[int, int], int]:
    """Weights of a die's final face (after rerolls) over a denominator."""
    sides = node.sides
    reroll = node.reroll
    if reroll is None:
        return {f: 1 for f in range(1, sides + 1)}, sides
    if reroll.add:
        raise Unsupported
    matching = [reroll.condition.test(f) for f in range(1, sides + 1)]
    m = sum(matching)
    tries = 1 if reroll.once else MAX_REROLLS  # the last draw is kept whatever it shows
    # P(face f) = Σ_{i<tries} (m/s)^i · [f passes]/s + (m/s)^tries · [f matches]/s
    den = sides ** (tries + 1)
    passing = sum(m**i * sides ** (tries - i) for i in range(tries + 1))
    weights = {
        f: (m**tries if match else passing)
        for f, match in zip(range(1, sides + 1), matching, strict=True)
    }
    return weights, den


def _value_of(node: Dice) -> Callable[[int], int]:
    """What a die showing ``face`` is worth (sum term or success count)."""
    low = node.floor or 1
    high = node.ceil or node.sides

    def clamp(face: int) -> int:
        return min(max(face, low), high)

    if node.fate:
        return lambda face: (face - 1) // 2 - 1
    success = node.success
    if success is None:
        return clamp
    cond, cancel = success.condition, success.cancel

    def count(face: int) -> int:
        value = clamp(face)
        return int(cond.test(value)) - int(cancel is not None and cancel.test(value))

    return count


def dice_counts(node: Dice, budget: int) -> tuple[Counts, int]:
    """Counts of the term's value over a denominator; raises ``Unsupported``."""
    explode = node.explode
    if explode is not None and not explode.once:
        raise Unsupported
    if explode is not None and node.keep is not None:
        raise Unsupported  # the extra dice join the pool: not one value per die
    weights, den = _face_weights(node)
    value = _value_of(node)
    if node.keep is None:
        die: Counts = {}
        for face, w in weights.items():
            if explode is not None and explode.condition.test(face):
                for extra, we in weights.items():  # the extra die: rerolled alike, no explosion
                    v = value(face) + value(extra)
                    die[v] = die.get(v, 0) + w * we
            else:
                v = value(face)
                die[v] = die.get(v, 0) + w * (den if explode is not None else 1)
        die_den = den * den if explode is not None else den
        if len(die) * node.count > budget:
            raise Unsupported
        return power(die, node.count), die_den**node.count
    return _kept(node, weights, den, value, budget)


def _kept(
    node: Dice, weights: dict[int, int], den: int, value: Callable[[int], int], budget: int
) -> tuple[Counts, int]:
    n, keep = node.count, node.keep
    assert keep is not None
    faces = sorted(weights, key=lambda f: ((f - 1) // 2 - 1 if node.fate else f, f))
    if comb(n + len(faces) - 1, n) > budget:
        raise Unsupported
    k = keep.count
    out: Counts = {}
    fact_n = factorial(n)

    def visit(i: int, left: int, chosen: list[int], weight: int, ways: int) -> None:
        if i == len(faces) - 1:
            chosen = chosen + [faces[i]] * left
            w = weight * weights[faces[i]] ** left
            total_ways = ways * factorial(left)
            ordered = chosen  # ascending by value
            if keep.kind is KeepKind.KEEP_HIGH:
                kept = ordered[n - k :]
            elif keep.kind is KeepKind.KEEP_LOW:
                kept = ordered[:k]
            elif keep.kind is KeepKind.DROP_HIGH:
                kept = ordered[: n - k]
            else:
                kept = ordered[k:]
            v = sum(value(f) for f in kept)
            out[v] = out.get(v, 0) + fact_n // total_ways * w
            return
        for c in range(left + 1):
            visit(
                i + 1,
                left - c,
                chosen + [faces[i]] * c,
                weight * weights[faces[i]] ** c,
                ways * factorial(c),
            )

    visit(0, n, [], 1, 1)
    return out, den**n


def convolve(a: Counts, b: Counts) -> Counts:
    """The counts of the sum of two independent values."""
    out: Counts = {}
    for va, ca in a.items():
        for vb, cb in b.items():
            out[va + vb] = out.get(va + vb, 0) + ca * cb
    return out


def power(base: Counts, n: int) -> Counts:
    """``base`` convolved with itself ``n`` times (n ≥ 0), by repeated squaring."""
    result: Counts = {0: 1}
    while n:
        if n & 1:
            result = convolve(result, base)
        n >>= 1
        if n:
            base = convolve(base, base)
    return result


SIMULATED_ROLLS = 5000


def simulated_counts(expression: str, rolls: int = SIMULATED_ROLLS) -> tuple[Counts, int]:
    """Counts of ``rolls`` seeded rolls (the same every time for the same expression): for
    terms whose exact odds are not computed. Raises ``DiceError`` like a roll."""
    counts: Counts = {}
    source = SeededSource(f"odds:{expression}")
    for _ in range(rolls):
        total = roll(expression, source).total
        counts[total] = counts.get(total, 0) + 1
    return counts, rolls
