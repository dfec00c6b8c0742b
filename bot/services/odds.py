"""What ``/odds`` shows for an expression: exact probabilities from ``engine.dice.odds``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from bot.i18n import N_
from engine.dice.ast import Cmp, Dice
from engine.dice.errors import OddsError
from engine.dice.odds import Distribution, distribution, matter_pool, storyteller_pool
from engine.dice.parser import parse
from engine.text import msg

_TARGET = re.compile(r"^(?P<expr>.+?)\s+(?:vs|против|пр)\s+(?P<target>-?\d{1,6})\s*$", re.I)


@dataclass(frozen=True)
class OddsRow:
    key: str  # what the row is, as a message id for the view to translate
    params: dict[str, int]
    p: Fraction


@dataclass(frozen=True)
class OddsView:
    expression: str
    rows: tuple[OddsRow, ...]  # probabilities
    mean: Fraction | None = None  # the average total: a value, not a probability


def odds_for(text: str) -> OddsView:
    """Raises ``EngineError`` for bad notation or an expression without exact odds."""
    match = _TARGET.match(text.strip())
    target = int(match["target"]) if match else None
    expression = parse(match["expr"] if match else text)
    root = expression.root
    if isinstance(root, Dice) and root.success is not None:
        return OddsView(expression.canonical, _pool_rows(root))
    dist = distribution(expression.canonical)
    if target is None:
        rows = [
            OddsRow(N_("at least {n}"), {"n": v}, dist.p_at_least(v)) for v in _thresholds(dist)
        ]
        return OddsView(expression.canonical, tuple(rows), dist.mean)
    return OddsView(
        f"{expression.canonical} vs {target}",
        (
            OddsRow(N_("fail"), {}, dist.p_at_most(target - 1)),
            OddsRow(N_("tie"), {}, dist.p(target)),
            OddsRow(N_("success"), {}, dist.p_at_least(target + 1) - dist.p_at_least(target + 3)),
            OddsRow(N_("success with style"), {}, dist.p_at_least(target + 3)),
        ),
    )


def _thresholds(dist: Distribution) -> list[int]:
    values = [v for v, _ in dist.outcomes]
    if len(values) <= 5:
        return values[1:]
    step = max(1, (values[-1] - values[0]) // 5)
    return list(range(values[0] + step, values[-1] + 1, step))[:5]


def _pool_rows(dice: Dice) -> tuple[OddsRow, ...]:
    success = dice.success
    assert success is not None
    cond = success.condition
    at_least = cond.cmp is Cmp.GE or cond.cmp is Cmp.GT
    threshold = cond.number + (1 if cond.cmp is Cmp.GT else 0)
    if dice.sides == 10 and at_least and success.cancel is not None and dice.explode is None:
        odds = storyteller_pool(dice.count, threshold)
        return (
            OddsRow(N_("success"), {}, odds.success),
            OddsRow(N_("failure"), {}, odds.failure),
            OddsRow(N_("botch"), {}, odds.botch),
        )
    if dice.sides == 10 and at_least and threshold == 7 and dice.explode is not None:
        matter = matter_pool(dice.count)
        return (
            OddsRow(N_("at least {n} successes"), {"n": 1}, matter.at_least_1),
            OddsRow(N_("at least {n} successes"), {"n": 2}, matter.at_least_2),
            OddsRow(N_("at least {n} successes"), {"n": 3}, matter.at_least_3),
        )
    raise OddsError(
        msg(
            "dice.odds.unsupported",
            expression=dice.notation(),
            problem_ru="точные шансы есть для пулов d10 (>=N f1 и >=7!)",
            problem_en="exact odds exist for d10 pools (>=N f1 and >=7!)",
        )
    )
