"""What ``/odds`` shows for an expression: exact probabilities from ``engine.dice.odds``,
computed in the worker process (a large pool's take long enough to stall every chat)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from bot.cpu import CpuPool
from bot.i18n import N_
from engine.dice.odds import OddsRowKind, odds_table

ODDS_SECONDS: Final = 10.0  # the largest accepted pools take well under a second

_KEYS: Final = {
    OddsRowKind.AVERAGE: N_("average"),
    OddsRowKind.AT_LEAST: N_("at least {n}"),
    OddsRowKind.FAIL: N_("fail"),
    OddsRowKind.TIE: N_("tie"),
    OddsRowKind.SUCCESS: N_("success"),
    OddsRowKind.STYLE: N_("success with style"),
    OddsRowKind.FAILURE: N_("failure"),
    OddsRowKind.BOTCH: N_("botch"),
    OddsRowKind.SUCCESSES: N_("at least {n} successes"),
}


@dataclass(frozen=True)
class OddsRow:
    key: str  # what the row is, as a message id for the view to translate
    params: dict[str, int]
    p: Fraction
    mean: bool = False  # ``p`` is the mean, not a probability


@dataclass(frozen=True)
class OddsView:
    expression: str
    rows: tuple[OddsRow, ...]


async def odds_for(cpu: CpuPool, text: str) -> OddsView:
    """Raises ``EngineError`` for bad notation or an expression without exact odds, and
    ``CpuError`` when the work could not finish."""
    table = await cpu.run(odds_table, text, timeout=ODDS_SECONDS)
    return OddsView(
        table.expression,
        tuple(
            OddsRow(
                _KEYS[row.kind],
                {} if row.n is None else {"n": row.n},
                row.p,
                mean=row.kind is OddsRowKind.AVERAGE,
            )
            for row in table.rows
        ),
    )
