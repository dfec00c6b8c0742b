"""A tiny parser and roller for lifegear stat expressions: sums of ``NdM`` and integers.

The general dice-notation parser lives in ``engine.dice`` and is being written separately; the
lifegear stats need only ``1d8+1d6+3``-style sums, so this module stays self-contained. Russian
players often write «1к6» or «1д6», so ``к``/``д`` are read as ``d``. A minus sign is allowed on
any term (``1d8-1``); a die count may be omitted (``d6`` = ``1d6``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from engine.dice.source import RandomSource, roll_dice
from engine.text import msg

from .errors import DiceExpressionError

MAX_TEXT: Final = 200
MAX_TERMS: Final = 20
MAX_DICE: Final = 100
MIN_SIDES: Final = 2
MAX_SIDES: Final = 1000
MAX_CONSTANT: Final = 10_000

_DICE_TERM = re.compile(r"(\d*)[dDкКдД](\d+)")
_NUMBER = re.compile(r"\d+")
_SPLIT = re.compile(r"([+-])")


@dataclass(frozen=True)
class DiceTerm:
    """``count`` dice of ``sides`` faces; ``sign`` is +1 or -1."""

    count: int
    sides: int
    sign: int = 1

    def render(self) -> str:
        return f"{self.count}d{self.sides}"


@dataclass(frozen=True)
class DiceExpr:
    """A parsed expression: dice terms in written order plus one summed integer constant."""

    terms: tuple[DiceTerm, ...] = ()
    constant: int = 0

    @property
    def dice_count(self) -> int:
        return sum(t.count for t in self.terms)

    def plus(self, other: DiceExpr) -> DiceExpr:
        """Concatenate the dice (ours first) and add the constants.

        This is how a weapon adds its dice to a stat: ``1d8+3`` plus ``1d6`` is ``1d8+1d6+3``,
        exactly the seed's bow example.
        """
        return DiceExpr(self.terms + other.terms, self.constant + other.constant)

    def render(self) -> str:
        """Canonical notation: dice in order, then the constant (omitted when zero)."""
        parts: list[str] = []
        for term in self.terms:
            sign = "-" if term.sign < 0 else ("+" if parts else "")
            parts.append(f"{sign}{term.render()}")
        if self.constant or not parts:
            sign = "-" if self.constant < 0 else ("+" if parts else "")
            parts.append(f"{sign}{abs(self.constant)}")
        return "".join(parts)

    def __str__(self) -> str:
        return self.render()


@dataclass(frozen=True)
class DiceRoll:
    """A rolled expression: the canonical notation, raw faces in the order drawn, the total."""

    notation: str
    faces: tuple[int, ...]
    constant: int
    total: int


def parse_dice(text: str) -> DiceExpr:
    """Parse ``1d8+1d6+3``-style text; raise ``DiceExpressionError`` on anything else."""
    if len(text) > MAX_TEXT:
        raise DiceExpressionError(msg("lifegear.dice.too_long", limit=MAX_TEXT))
    compact = "".join(text.split())
    if not compact:
        raise DiceExpressionError(msg("lifegear.dice.empty"))
    pieces = _SPLIT.split(compact)
    # split() with a capture group alternates operand, sign, operand ...; a leading sign makes
    # the first operand empty, which we accept only as the start of the expression.
    if pieces[0] == "":
        pieces = pieces[1:]
    else:
        pieces = ["+", *pieces]
    if len(pieces) // 2 > MAX_TERMS:
        raise DiceExpressionError(msg("lifegear.dice.too_many_terms", limit=MAX_TERMS))
    terms: list[DiceTerm] = []
    constant = 0
    for index in range(0, len(pieces), 2):
        sign = -1 if pieces[index] == "-" else 1
        operand = pieces[index + 1] if index + 1 < len(pieces) else ""
        term = _parse_operand(operand, text)
        if isinstance(term, DiceTerm):
            terms.append(DiceTerm(term.count, term.sides, sign))
        else:
            constant += sign * term
    expr = DiceExpr(tuple(terms), constant)
    if expr.dice_count > MAX_DICE:
        raise DiceExpressionError(
            msg("lifegear.dice.too_many_dice", count=expr.dice_count, limit=MAX_DICE)
        )
    return expr


def _parse_operand(operand: str, text: str) -> DiceTerm | int:
    dice = _DICE_TERM.fullmatch(operand)
    if dice is not None:
        count = int(dice.group(1)) if dice.group(1) else 1
        sides = int(dice.group(2))
        if count == 0:
            raise DiceExpressionError(msg("lifegear.dice.no_dice", term=operand))
        if count > MAX_DICE:
            raise DiceExpressionError(
                msg("lifegear.dice.too_many_dice", count=count, limit=MAX_DICE)
            )
        if not MIN_SIDES <= sides <= MAX_SIDES:
            raise DiceExpressionError(
                msg("lifegear.dice.bad_sides", term=operand, low=MIN_SIDES, high=MAX_SIDES)
            )
        return DiceTerm(count, sides)
    if _NUMBER.fullmatch(operand) is not None:
        value = int(operand)
        if value > MAX_CONSTANT:
            raise DiceExpressionError(
                msg("lifegear.dice.constant_too_big", value=value, limit=MAX_CONSTANT)
            )
        return value
    raise DiceExpressionError(msg("lifegear.dice.bad_term", term=operand or "?", text=text))


def roll_expr(expr: DiceExpr, source: RandomSource) -> DiceRoll:
    """Roll every dice term in written order; faces are kept raw (unsigned) for the log."""
    faces: list[int] = []
    total = expr.constant
    for term in expr.terms:
        drawn = roll_dice(source, term.count, term.sides)
        faces.extend(drawn)
        total += term.sign * sum(drawn)
    return DiceRoll(expr.render(), tuple(faces), expr.constant, total)
