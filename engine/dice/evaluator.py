"""Evaluation of a parsed expression with an injected ``RandomSource``.

Node kinds are evaluated through a table keyed by node type. A ``RollContext`` draws every
die, counts them against ``MAX_DICE`` (explosions and rerolls included) and records the raw
faces in the order drawn.

Draw order (the verifier and the system engines rely on it): dice terms left to right; inside
a term, the initial dice one by one (a rerolled die is redrawn at once, before the next die);
then a wave of one extra die per exploding die of the previous wave, again one by one; waves
repeat while dice explode, at most ``MAX_EXPLOSION_WAVES`` waves (then the chain stops).
Fate dice draw a d6 each (1–2 → −1, 3–4 → 0, 5–6 → +1), as the fate seed reads 4d6 as 4dF.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, Final

from engine.dice.ast import (
    BinKind,
    BinOp,
    Chance,
    Cmp,
    Compare,
    Condition,
    Dice,
    Explode,
    Expression,
    KeepKind,
    Neg,
    Node,
    Num,
    Success,
    Tagged,
)
from engine.dice.errors import DiceEvalError, DiceLimitError
from engine.dice.parser import MAX_DICE, parse
from engine.dice.results import (
    CANCEL,
    DROPPED,
    EXPLODED,
    EXTRA,
    REROLLED,
    STOPPED,
    SUCCESS,
    DiceGroup,
    Die,
    RollResult,
)
from engine.dice.source import RandomSource
from engine.text import msg

MAX_EXPLOSION_WAVES: Final = 100
MAX_REROLLS: Final = 100
# A roll's total is kept in a 32-bit column (``rolls.result``) and shown to people: anything
# beyond it is refused as a limit, like too many dice (intermediate values may exceed it).
MAX_TOTAL: Final = 2**31 - 1


class RollContext:
    """Draws dice for one roll, enforcing the dice cap, and keeps faces and groups."""

    def __init__(self, source: RandomSource, *, max_dice: int = MAX_DICE) -> None:
        self.source = source
        self.max_dice = max_dice
        self.faces: list[int] = []
        self.groups: list[DiceGroup] = []
        self.tags: list[tuple[str, int]] | None = None  # only with tags: most rolls have none
        self.comparison: tuple[int, str, int] | None = None

    def draw(self, sides: int) -> int:
        faces = self.faces
        if len(faces) >= self.max_dice:
            raise DiceLimitError(
                msg("dice.limit.too_many_dice", count=len(faces) + 1, limit=self.max_dice)
            )
        face = self.source.randint(1, sides)
        faces.append(face)
        return face


def _fate_value(face: int) -> int:
    return (face - 1) // 2 - 1


# While a term is evaluated each die is a mutable [face, flags] pair; the frozen ``Die``
# objects are built once at the end (building and replacing frozen dataclasses per step is
# the main cost of a roll).


def _draw_pool(ctx: RollContext, node: Dice) -> list[list[int]]:
    """Initial dice, then explosion waves; returns ``[face, flags]`` in draw order."""
    out: list[list[int]] = []
    pending = node.count
    sides = node.sides
    explode = None
    waves = 0
    if node.explode is not None:
        explode = node.explode.condition
        waves = 1 if node.explode.once else MAX_EXPLOSION_WAVES
    reroll = node.reroll
    add = False
    reroll_limit = 0
    if reroll is not None:
        add = reroll.add
        reroll_limit = 0 if add else 1 if reroll.once else MAX_REROLLS
    draw = ctx.draw
    wave = 0
    while pending:
        start = len(out)
        flags = EXTRA if wave else 0
        for _ in range(pending):
            face = draw(sides)
            if reroll is not None:
                times = 0
                while times < reroll_limit and reroll.condition.test(face):
                    out.append([face, flags | REROLLED])
                    face = draw(sides)
                    times += 1
                if times == MAX_REROLLS and reroll.condition.test(face):
                    out.append([face, flags | STOPPED])  # shown as such, not in silence
                    continue
            out.append([face, flags])
        if add and not wave:  # d20's ra: one more die for the first die that matches
            assert reroll is not None
            if any(reroll.condition.test(die[0]) for die in out):
                out.append([draw(sides), EXTRA])
        pending = 0
        if explode is not None and wave < waves:
            for die in out[start:]:
                if not die[1] & REROLLED and explode.test(die[0]):
                    die[1] |= EXPLODED
                    pending += 1
        wave += 1
    return out


def _apply_keep(node: Dice, dice: list[list[int]], values: list[int]) -> None:
    if node.keep is None:
        return
    counted = [i for i, d in enumerate(dice) if not d[1] & REROLLED]
    order = sorted(counted, key=lambda i: (values[i], i))
    n = node.keep.count
    kind = node.keep.kind
    if kind is KeepKind.KEEP_HIGH:
        drop = order[: max(0, len(order) - n)]
    elif kind is KeepKind.KEEP_LOW:
        drop = order[n:]
    elif kind is KeepKind.DROP_HIGH:
        drop = order[len(order) - n :]
    else:
        drop = order[:n]
    for i in drop:
        dice[i][1] |= DROPPED


def _count_successes(success: Success, dice: list[list[int]]) -> tuple[int, int]:
    hits = cancels = 0
    cancel = success.cancel
    for die in dice:
        if die[1] & (REROLLED | DROPPED):
            continue
        if success.condition.test(die[0]):
            die[1] |= SUCCESS
            hits += 1
        if cancel is not None and cancel.test(die[0]):
            die[1] |= CANCEL
            cancels += 1
    return hits, cancels


def _freeze(node: Dice, dice: list[list[int]], values: list[int]) -> tuple[Die, ...]:
    sides, fate = node.sides, node.fate
    return tuple(
        Die(face, value, sides, fate, flags)
        for (face, flags), value in zip(dice, values, strict=True)
    )


def _group(node: Dice, dice: list[list[int]], notation: str) -> DiceGroup:
    if node.floor is not None or node.ceil is not None:
        # d20's mi/ma: the die counts as the bound (the log keeps the face drawn).
        low, high = node.floor or 1, node.ceil or node.sides
        for die in dice:
            die[0] = min(max(die[0], low), high)
    values = [_fate_value(d[0]) for d in dice] if node.fate else [d[0] for d in dice]
    _apply_keep(node, dice, values)
    if node.success is None:
        value = sum(
            v for d, v in zip(dice, values, strict=True) if not d[1] & (REROLLED | DROPPED)
        )
        return DiceGroup(notation, _freeze(node, dice, values), value)
    hits, cancels = _count_successes(node.success, dice)
    has_cancel = node.success.cancel is not None
    botch_on = node.success.botches
    botches = 0
    if botch_on is not None:
        botches = sum(1 for d in dice if not d[1] & (REROLLED | DROPPED) and botch_on.test(d[0]))
    first = next(d for d in dice if not d[1] & REROLLED)
    return DiceGroup(
        notation,
        _freeze(node, dice, values),
        hits - cancels,
        counts_successes=True,
        successes=hits,
        cancels=cancels,
        botches=botches,
        botch=has_cancel and cancels > hits,
        critical_failure=not has_cancel and node.count == 1 and first[0] == 1,
    )


def _eval_dice(node: Dice, ctx: RollContext) -> int:
    group = _group(node, _draw_pool(ctx, node), node.notation())
    ctx.groups.append(group)
    return group.value


# After a chance die shows 10, one extra die counts 7+ with 10-again, chained (seed 004).
_CHANCE_FOLLOW_UP: Final = Dice(
    count=1,
    sides=10,
    explode=Explode(Condition(Cmp.EQ, 10)),
    success=Success(Condition(Cmp.GE, 7), None),
)


def _eval_chance(node: Chance, ctx: RollContext) -> int:
    face = ctx.draw(10)
    dice = [Die(face, face, 10, False, EXPLODED | SUCCESS if face == 10 else 0)]
    value = 0
    if face == 10:
        follow = _CHANCE_FOLLOW_UP
        assert follow.success is not None
        raw = _draw_pool(ctx, follow)
        hits, _ = _count_successes(follow.success, raw)
        for die in raw:
            die[1] |= EXTRA
        dice.extend(_freeze(follow, raw, [d[0] for d in raw]))
        value = 1 + hits
    group = DiceGroup(
        node.notation(),
        tuple(dice),
        value,
        counts_successes=True,
        successes=value,
        critical_failure=face == 1,
    )
    ctx.groups.append(group)
    return value


def _eval_num(node: Num, ctx: RollContext) -> int:
    return node.value


def _eval_neg(node: Neg, ctx: RollContext) -> int:
    return -evaluate_node(node.operand, ctx)


def divide(left: int, right: int) -> int:
    """Integer division truncating toward zero (−7/2 = −3), as players expect."""
    if right == 0:
        raise DiceEvalError(msg("dice.eval.division_by_zero"))
    quotient = abs(left) // abs(right)
    return quotient if (left >= 0) == (right > 0) else -quotient


def _eval_binop(node: BinOp, ctx: RollContext) -> int:
    left = evaluate_node(node.left, ctx)
    right = evaluate_node(node.right, ctx)
    if node.op is BinKind.ADD:
        return left + right
    if node.op is BinKind.SUB:
        return left - right
    if node.op is BinKind.MUL:
        return left * right
    if node.op is BinKind.MOD:
        return modulo(left, right)
    return divide(left, right)


def modulo(left: int, right: int) -> int:
    """The remainder with the divisor's sign, as d20 (Python) computes it; ``% 0`` is refused."""
    if right == 0:
        raise DiceEvalError(msg("dice.eval.division_by_zero"))
    return left % right


def _eval_tagged(node: Tagged, ctx: RollContext) -> int:
    first = len(ctx.groups)
    value = evaluate_node(node.operand, ctx)
    groups = ctx.groups
    for i in range(first, len(groups)):
        groups[i] = replace(groups[i], notation=f"{groups[i].notation} [{node.tag}]")
    if ctx.tags is None:
        ctx.tags = []
    ctx.tags.append((node.tag, value))
    return value


def _eval_compare(node: Compare, ctx: RollContext) -> int:
    left = evaluate_node(node.left, ctx)
    right = evaluate_node(node.right, ctx)
    ctx.comparison = (left, node.cmp.value, right)
    return 1 if node.cmp.test(left, right) else 0


_EVALUATORS: Final[dict[type[Any], Callable[[Any, RollContext], int]]] = {
    Num: _eval_num,
    Dice: _eval_dice,
    Chance: _eval_chance,
    Neg: _eval_neg,
    BinOp: _eval_binop,
    Tagged: _eval_tagged,
    Compare: _eval_compare,
}


def evaluate_node(node: Node, ctx: RollContext) -> int:
    """Evaluate one node through the table keyed by its type."""
    return _EVALUATORS[type(node)](node, ctx)


def evaluate(expression: Expression, source: RandomSource) -> RollResult:
    """Roll a parsed expression."""
    ctx = RollContext(source)
    total = evaluate_node(expression.root, ctx)
    if not -MAX_TOTAL <= total <= MAX_TOTAL:
        raise DiceLimitError(msg("dice.limit.total_too_big", limit=MAX_TOTAL))
    groups = tuple(ctx.groups)
    return RollResult(
        expression=expression.canonical,
        label=expression.label,
        total=total,
        groups=groups,
        faces=tuple(ctx.faces),
        counts_successes=expression.counts_successes,
        botch=any(g.botch for g in groups),
        critical_failure=any(g.critical_failure for g in groups),
        tags=tuple(ctx.tags) if ctx.tags else (),
        comparison=ctx.comparison,
    )


def roll(
    expression: str | Expression, source: RandomSource, *, stored: bool = False
) -> RollResult:
    """Parse (cached) and roll ``expression`` with ``source``; raises ``DiceError`` subclasses.

    ``stored=True`` when replaying notation from the roll log (see ``parse``).
    """
    parsed = parse(expression, stored=stored) if isinstance(expression, str) else expression
    return evaluate(parsed, source)
