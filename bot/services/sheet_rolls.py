"""Sheet-aware ``/r`` shorthands: the player's text plus their active sheet → a roll plan.

Pure translation, no I/O. Each system reads its own shorthand (``SystemSpec.sheet_rolls``,
``engine.systems.<system>.sheet_rolls``; the shared reading of names and numbers is
``engine.systems.sheet_rolls``); ``outcome_words`` reads the rolled result back in the
system's own words.
"""

from __future__ import annotations

from bot.systems import SYSTEMS, rules_for
from engine.common import SheetModel
from engine.dice.results import RollResult
from engine.systems.base import Ask
from engine.systems.sheet_rolls import SheetRoll, SheetRollError, normalize

__all__ = [
    "SheetRoll",
    "SheetRollError",
    "normalize",
    "outcome_words",
    "plan_sheet_roll",
    "prefers_sheet_roll",
]


def plan_sheet_roll(system: str, character: SheetModel, text: str, locale: str) -> SheetRoll:
    """What ``/r <text>`` rolls for this character in ``system``.

    Raises ``EngineError`` (a ``SheetRollError`` or the engine's own ``RuleViolation``) with a
    message fit for the player; an unknown name lists the closest names.
    """
    spec = SYSTEMS.get(system)
    if spec is None:
        raise ValueError(f"no sheet rolls for system {system!r} with {type(character).__name__}")
    return spec.sheet_rolls.plan(character, text, locale)


def prefers_sheet_roll(system: str, text: str) -> bool:
    """Text that is valid dice notation yet means a sheet roll in ``system`` (Matter's bare
    number is a pool); ``/r`` should offer such text to ``plan_sheet_roll`` first when the
    sender has an active character."""
    spec = SYSTEMS.get(system)
    return spec is not None and spec.sheet_rolls.prefers_sheet_roll(text)


def outcome_words(roll: SheetRoll, result: RollResult, locale: str) -> str:
    """The system's outcome words for a rolled plan (ladder and shifts, degree, grade …)."""
    reading = rules_for(roll.system).read(Ask(roll.notation, roll.target), result)
    return reading.words.render(locale) if reading is not None else ""
