"""What ``/odds`` shows: the exact chances of each outcome, by the chat's game system.

In a game the expression (or a trait of the sender's active character, as ``/r`` reads it:
``/odds Бой vs 5``) is read by the system's own ladder (``bot.systems.rules_for``); outside a
game a total succeeds at the target or above. Without a target, a sum shows its average and a
few "at least" thresholds. ``odds_context`` reads the database; the exact work runs in the
worker process (``bot.cpu``: a large pool's odds take long enough to stall every chat).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from bot.cpu import CpuPool
from bot.i18n import N_
from bot.services import sheet_rolls
from bot.systems import SYSTEMS, rules_for
from db.uow import UnitOfWork
from engine.common import SheetModel
from engine.dice.odds import Distribution, distribution_or_simulated
from engine.dice.parser import parse
from engine.errors import EngineError
from engine.systems.base import Ask, Chances, at_least, chances_of, success_pool
from engine.text import Msg

ODDS_SECONDS: Final = 10.0  # the largest accepted pools take well under a second
_TARGET = re.compile(r"^(?P<expr>.+?)\s+(?:vs|против|пр)\s+(?P<target>-?\d{1,6})\s*$", re.I)


@dataclass(frozen=True)
class OddsContext:
    """The chat's game system and the sender's active character there (None: none)."""

    system: str | None = None
    character: SheetModel | None = None


@dataclass(frozen=True)
class OddsRow:
    """One outcome: ``name`` (the system's words) or the msgid ``key`` with ``params``;
    ``within``: a part of the row before it."""

    p: Fraction
    name: Msg | None = None
    key: str = ""
    params: dict[str, Any] | None = None
    within: bool = False


@dataclass(frozen=True)
class OddsView:
    expression: str
    rows: tuple[OddsRow, ...]
    mean: Fraction | None = None  # the average total (a number, not a chance)
    simulated: bool = False  # estimated from seeded rolls, not exact


async def odds_context(uow: UnitOfWork, chat_id: int, user_id: int) -> OddsContext:
    game = await uow.games.live_for_chat(chat_id)
    if game is None:
        return OddsContext()
    active = await uow.characters.active_of(game.id, user_id)
    if active is None:
        return OddsContext(game.system)
    return OddsContext(game.system, SYSTEMS[game.system].load(active.sheet, active.schema_version))


async def odds_for(
    cpu: CpuPool, text: str, context: OddsContext | None = None, locale: str = "ru"
) -> OddsView:
    """Raises ``EngineError`` for bad notation, an unknown trait or no exact odds, and
    ``CpuError`` when the work could not finish."""
    context = context or OddsContext()
    notation, target, title = _resolve(text.strip(), context, locale)
    rules = rules_for(context.system)
    chances = await cpu.run(chances_of, rules, Ask(notation, target), timeout=ODDS_SECONDS)
    if target is not None and success_pool(notation) is None:
        title += f" vs {target}"
    if chances is not None:
        return OddsView(title, _rows(chances))
    # No ladder for it: a sum's (or a success count's) own distribution, exact where an exact
    # method applies, else estimated from seeded rolls (an endless explosion, ``ra``) and said so
    dist, simulated = await cpu.run(distribution_or_simulated, notation, timeout=ODDS_SECONDS)
    if target is not None:
        return OddsView(title, _rows(at_least(dist, target)), simulated=simulated)
    key = N_("at least {n}")
    rows = tuple(OddsRow(dist.p_at_least(v), key=key, params={"n": v}) for v in _steps(dist))
    return OddsView(title, rows, mean=dist.mean, simulated=simulated)


def _rows(chances: Chances) -> tuple[OddsRow, ...]:
    return tuple(OddsRow(r.p, name=r.name, within=r.within) for r in chances.rows)


def _resolve(text: str, context: OddsContext, locale: str) -> tuple[str, int | None, str]:
    """(notation, target, title): dice notation as written, else a trait of the character."""
    match = _TARGET.match(text)
    expr = match["expr"] if match else text
    system = context.system or ""
    if not sheet_rolls.prefers_sheet_roll(system, text) or context.character is None:
        try:
            canonical = parse(expr).canonical
        except EngineError:
            if context.character is None:
                raise
        else:
            return canonical, int(match["target"]) if match else None, canonical
    assert context.character is not None
    plan = sheet_rolls.plan_sheet_roll(system, context.character, text, locale)
    return plan.notation, plan.target, f"{plan.title} · {plan.notation}"


def _steps(dist: Distribution) -> list[int]:
    values = [v for v, _ in dist.outcomes]
    if len(values) <= 5:
        return values[1:]
    step = max(1, (values[-1] - values[0]) // 5)
    return list(range(values[0] + step, values[-1] + 1, step))[:5]
