"""Lifegear's outcome for one attack (seed 001, fast combat): a total equal to or above the
monster's defence defeats it; below it, the character takes defence − total damage."""

from __future__ import annotations

from typing import Final

from engine.dice.results import RollResult
from engine.systems.base import PLAIN, Ask, Chances, Reading, sum_chances
from engine.text import msg, register_messages

register_messages(
    {
        "lifegear.reading.total": {"ru": "С бонусом: {total}", "en": "With the bonus: {total}"},
        "lifegear.reading.versus": {
            "ru": "{total} против защиты {target}: {verdict}",
            "en": "{total} vs defence {target}: {verdict}",
        },
        "lifegear.reading.success": {"ru": "успех", "en": "success"},
        "lifegear.reading.short": {
            "ru": "неудача, не хватило {missing}",
            "en": "failure, {missing} short",
        },
    }
)


class LifegearRules:
    """A stat's dice (plus a weapon's and boosts') against a defence."""

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
            return Reading("total", None, msg("lifegear.reading.total", total=total))
        missing = ask.target - total
        verdict = (
            msg("lifegear.reading.success")
            if missing <= 0
            else msg("lifegear.reading.short", missing=missing)
        )
        words = msg("lifegear.reading.versus", total=total, target=ask.target, verdict=verdict)
        return Reading("success" if missing <= 0 else "failure", missing <= 0, words)

    def takes_willpower(self, expression: str) -> bool:
        return False


RULES: Final = LifegearRules()
