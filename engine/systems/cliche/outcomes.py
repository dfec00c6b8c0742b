"""Cliché's outcome for one unopposed roll (seed 002): the dice's sum ≥ the target number
succeeds (5 trivial … 30 "you must be joking")."""

from __future__ import annotations

from typing import Final

from engine.dice.results import RollResult
from engine.systems.base import PLAIN, Ask, Chances, Reading, sum_chances
from engine.systems.cliche import messages as _messages  # noqa: F401  (the words)
from engine.systems.cliche.rolls import target_label
from engine.text import msg


class ClicheRules:
    """A sum of d6 (a cliché's dice, bonus and pumped dice) against a target number."""

    def chances(self, ask: Ask) -> Chances | None:
        return sum_chances(ask)

    def read(self, ask: Ask, result: RollResult) -> Reading | None:
        if result.counts_successes:
            return PLAIN.read(ask, result)
        total = result.total + ask.bonus
        if ask.target is None:
            # The dice's own total is already shown («Итог»); only a bonus adds a line.
            if not ask.bonus:
                return None
            return Reading("total", None, msg("cliche.reading.total", total=total))
        success = total >= ask.target
        named = target_label(ask.target)
        label = msg("cliche.reading.label", label=named) if named else msg("cliche.reading.none")
        words = msg(
            "cliche.reading.versus",
            total=total,
            target=ask.target,
            label=label,
            verdict=msg("cliche.reading.success" if success else "cliche.reading.failure"),
        )
        return Reading("success" if success else "failure", success, words)

    def takes_willpower(self, expression: str) -> bool:
        return False


RULES: Final = ClicheRules()
