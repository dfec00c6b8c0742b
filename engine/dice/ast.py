"""Syntax tree of the dice notation: frozen dataclasses, one per node kind.

Every node renders its canonical notation with ``notation()``; the canonical form of a parsed
expression is what the roll log stores, and parsing it again gives an equal tree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Cmp(StrEnum):
    """A comparison of a die face with a number."""

    EQ = "="
    GE = ">="
    GT = ">"
    LE = "<="
    LT = "<"

    def test(self, face: int, number: int) -> bool:
        if self is Cmp.EQ:
            return face == number
        if self is Cmp.GE:
            return face >= number
        if self is Cmp.GT:
            return face > number
        if self is Cmp.LE:
            return face <= number
        return face < number

    def prefix(self) -> str:
        """How the comparison is written before a number (``=`` is implicit)."""
        return "" if self is Cmp.EQ else self.value


class KeepKind(StrEnum):
    KEEP_HIGH = "kh"
    KEEP_LOW = "kl"
    DROP_HIGH = "dh"
    DROP_LOW = "dl"


@dataclass(frozen=True, slots=True)
class Condition:
    """``cmp number``, e.g. ``>=9`` or ``=1``."""

    cmp: Cmp
    number: int

    def test(self, face: int) -> bool:
        return self.cmp.test(face, self.number)

    def notation(self) -> str:
        return f"{self.cmp.prefix()}{self.number}"


@dataclass(frozen=True, slots=True)
class Keep:
    kind: KeepKind
    count: int


@dataclass(frozen=True, slots=True)
class Reroll:
    """``r`` rerolls while the condition holds (capped); ``ro`` rerolls once; ``ra`` (d20's
    reroll and add, ``add``) rolls one more die for the first die meeting the condition."""

    condition: Condition
    once: bool
    add: bool = False


@dataclass(frozen=True, slots=True)
class Explode:
    """An extra die for every die meeting the condition (``!`` = the maximum face).

    ``once`` (Dice Maiden's ``e``): the extra dice do not explode again."""

    condition: Condition
    once: bool = False


@dataclass(frozen=True, slots=True)
class Success:
    """Count dice meeting ``condition``; dice meeting ``cancel`` (``f1``) cancel one each;
    dice meeting ``botches`` (Dice Maiden's ``b1``) are counted and shown, not subtracted."""

    condition: Condition
    cancel: Condition | None
    botches: Condition | None = None


@dataclass(frozen=True, slots=True)
class Num:
    value: int

    def notation(self) -> str:
        return str(self.value)

    def has_success(self) -> bool:
        return False


@dataclass(frozen=True, slots=True)
class Dice:
    """``NdM`` with modifiers; Fate dice (``dF``) are d6 read as −1/0/+1 (1–2, 3–4, 5–6)."""

    count: int
    sides: int
    fate: bool = False
    reroll: Reroll | None = None
    explode: Explode | None = None
    keep: Keep | None = None
    success: Success | None = None
    floor: int | None = None  # d20's mi: each die counts at least this
    ceil: int | None = None  # d20's ma: each die counts at most this
    pos: int = field(default=0, compare=False)
    text: str = field(default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", self._render())

    def notation(self) -> str:
        return self.text

    def has_success(self) -> bool:
        return self.success is not None

    def _render(self) -> str:
        # Canonical order: dice, reroll, keep, success, cancel, explode. The explode goes last
        # because "!>=N" right after the sides would read as an explosion threshold.
        parts = [f"{self.count}d{'F' if self.fate else self.sides}"]
        if self.reroll is not None:
            kind = "ra" if self.reroll.add else "ro" if self.reroll.once else "r"
            parts.append(kind + self.reroll.condition.notation())
        if self.floor is not None:
            parts.append(f"mi{self.floor}")
        if self.ceil is not None:
            parts.append(f"ma{self.ceil}")
        if self.keep is not None:
            parts.append(f"{self.keep.kind.value}{self.keep.count}")
        if self.success is not None:
            parts.append(_explicit(self.success.condition))
            if self.success.cancel is not None:
                parts.append("f" + _cancel(self.success.cancel))
            botches = self.success.botches
            if botches is not None:  # a bare number is "or less"
                bare = botches.cmp is Cmp.LE
                parts.append(
                    f"b{botches.number}" if bare else f"b{botches.cmp.value}{botches.number}"
                )
        if self.explode is not None:
            cond = self.explode.condition
            default = cond.cmp is Cmp.EQ and cond.number == self.sides
            if self.explode.once:
                parts.append("e" if default else "e" + _explicit(cond))  # "e5" reads as >=5
            else:
                parts.append("!" if default else "!" + _explicit(cond))
        return "".join(parts)


def _cancel(cond: Condition) -> str:
    """``f1``; any other equality is written ``f=2``: a typed bare ``f2`` is refused (Dice
    Maiden reads it as ≤2), though the roll log's older ``f2`` still reads as =2."""
    if cond.cmp is Cmp.EQ and cond.number != 1:
        return f"={cond.number}"
    return cond.notation()


def _explicit(cond: Condition) -> str:
    """An explosion threshold written after ``!`` must be a comparison (``!=5``, ``!>=9``)."""
    return f"{cond.cmp.value}{cond.number}"


@dataclass(frozen=True, slots=True)
class Chance:
    """The chance die (шанс-бросок, seed 004): 1d10, only a 10 succeeds; a 10 adds a die that
    counts 7+ with 10-again (chained); a 1 is a critical failure."""

    pos: int = field(default=0, compare=False)

    def notation(self) -> str:
        return "chance"

    def has_success(self) -> bool:
        return True


class BinKind(StrEnum):
    ADD = "+"
    SUB = "-"
    MUL = "*"
    DIV = "/"
    MOD = "%"

    @property
    def precedence(self) -> int:
        return 1 if self in (BinKind.ADD, BinKind.SUB) else 2


@dataclass(frozen=True, slots=True)
class BinOp:
    op: BinKind
    left: Node
    right: Node
    pos: int = field(default=0, compare=False)

    def notation(self) -> str:
        prec = self.op.precedence
        left = _wrap(self.left, prec, right_side=False)
        right = _wrap(self.right, prec, right_side=True)
        return f"{left}{self.op.value}{right}"

    def has_success(self) -> bool:
        return self.left.has_success() or self.right.has_success()


@dataclass(frozen=True, slots=True)
class Neg:
    operand: Node

    def notation(self) -> str:
        inner = self.operand.notation()
        # "--1" reads back as -(-1); only a binary operation needs parentheses, and adding
        # none elsewhere keeps the canonical form within the nesting limit of the input.
        if isinstance(self.operand, BinOp):
            return f"-({inner})"
        return f"-{inner}"

    def has_success(self) -> bool:
        return self.operand.has_success()


@dataclass(frozen=True, slots=True)
class Tagged:
    """A term with a tag (d20's annotation): ``3d6[fire]``; the tag is shown and summed."""

    operand: Node
    tag: str

    def notation(self) -> str:
        inner = self.operand.notation()
        if isinstance(self.operand, (BinOp, Neg, Compare, Tagged)):
            inner = f"({inner})"
        return f"{inner}[{self.tag}]"

    def has_success(self) -> bool:
        return self.operand.has_success()


@dataclass(frozen=True, slots=True)
class Compare:
    """A comparison of two totals (d20's ``1d20+5 > 10``): 1 if it holds, else 0."""

    left: Node
    cmp: Cmp
    right: Node

    def notation(self) -> str:
        # A bare dice term before ">" would read back as a success count: bracket it.
        left = self.left.notation()
        if isinstance(self.left, Dice):
            left = f"({left})"
        right = self.right.notation()
        if isinstance(self.right, Compare):
            right = f"({right})"
        return f"{left}{self.cmp.value}{right}"

    def has_success(self) -> bool:
        return False


Node = Num | Dice | Chance | BinOp | Neg | Tagged | Compare


def _wrap(node: Node, prec: int, *, right_side: bool) -> str:
    """Parenthesise a child whose operator binds looser (or equal on the right: a-(b-c))."""
    text = node.notation()
    if isinstance(node, BinOp):
        child = node.op.precedence
        if child < prec or (right_side and child == prec):
            return f"({text})"
    return text


@dataclass(frozen=True, slots=True)
class Expression:
    """A parsed roll request: the tree, its label (text after the expression) and limits data."""

    root: Node
    label: str
    dice_count: int  # dice rolled before explosions and rerolls
    canonical: str = field(default="", compare=False, repr=False)
    counts_successes: bool = field(default=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        # Computed once: evaluation reads them on every roll.
        object.__setattr__(self, "canonical", self.root.notation())
        object.__setattr__(self, "counts_successes", self.root.has_success())

    def notation(self) -> str:
        return self.canonical
