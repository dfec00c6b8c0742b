"""Matter's outcome ladder for one pool (seed 004): 0 successes fail (a one-die pool or the
chance die showing 1 is a critical failure), 1 — done roughly, 2 — done well, 3+ — extra
success. The seed's success is one success or more."""

from __future__ import annotations

from typing import Final

from engine.dice.odds import matter_pool
from engine.dice.results import RollResult
from engine.errors import EngineError
from engine.systems.base import (
    PLAIN,
    Ask,
    Chance,
    Chances,
    Reading,
    is_chance_die,
    pool_threshold,
    success_pool,
)
from engine.systems.matter.rolls import SUCCESS_FACE, Grade, grade_of
from engine.text import msg, register_messages

register_messages(
    {
        # The roll's own footer already counts the successes («Успехов: 2»): only the grade.
        "matter.reading.words": {"ru": "{grade}", "en": "{grade}"},
        "matter.grade.critical_failure": {"ru": "Критический провал", "en": "Critical failure"},
        "matter.grade.failure": {"ru": "Провал", "en": "Failure"},
        "matter.grade.rough": {
            "ru": "Кое-как, с осложнением",
            "en": "Done roughly, with a complication",
        },
        "matter.grade.good": {"ru": "Хорошо", "en": "Done well"},
        "matter.grade.exceptional": {"ru": "Экстра-успех", "en": "Extra success"},
        "matter.chance.success": {"ru": "успех", "en": "success"},
        "matter.chance.good": {"ru": "хорошо и лучше", "en": "done well or better"},
        "matter.chance.exceptional": {"ru": "экстра-успех", "en": "extra success"},
        "matter.chance.failure": {"ru": "провал", "en": "failure"},
        "matter.chance.critical_failure": {
            "ru": "из них критический",
            "en": "of which critical",
        },
    }
)


def pool_of(expression: str) -> int | None:
    """The dice of a matter pool (``5d10>=7!``; the chance die counts as 0); else None."""
    if is_chance_die(expression):
        return 0
    pool = success_pool(expression)
    if (
        pool is None
        or pool.explode is None
        or pool.success is None
        or pool.success.cancel is not None
        or pool_threshold(pool) != SUCCESS_FACE
    ):
        return None
    return pool.count


class MatterRules:
    """A d10 pool, 7+ succeeds, 10 again; the chance die for a pool ≤ 0."""

    def chances(self, ask: Ask) -> Chances | None:
        dice = pool_of(ask.expression)
        if dice is None:
            return PLAIN.chances(ask)
        try:
            odds = matter_pool(dice)
        except EngineError:
            return None
        rows = [
            Chance(msg("matter.chance.success"), odds.at_least_1, success=True),
            Chance(msg("matter.chance.good"), odds.at_least_2, within=True),
            Chance(msg("matter.chance.exceptional"), odds.at_least_3, within=True),
            Chance(msg("matter.chance.failure"), 1 - odds.at_least_1),
        ]
        if odds.critical_failure:
            rows.append(
                Chance(msg("matter.chance.critical_failure"), odds.critical_failure, within=True)
            )
        return Chances(tuple(rows))

    def read(self, ask: Ask, result: RollResult) -> Reading | None:
        if pool_of(ask.expression) is None:
            return PLAIN.read(ask, result)
        successes = max(0, result.total)
        grade = grade_of(successes, critical_failure=result.critical_failure)
        words = msg(
            "matter.reading.words",
            successes=successes,
            grade=msg(f"matter.grade.{grade.value}"),
        )
        return Reading(grade.value, grade not in (Grade.FAILURE, Grade.CRITICAL_FAILURE), words)

    def takes_willpower(self, expression: str) -> bool:
        return False


RULES: Final = MatterRules()
