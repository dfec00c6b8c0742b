"""Storyteller's outcome ladder for one pool (seed 003): net = successes − 1s; more 1s than
successes is a botch, net 0 a failure, net ≥ 1 a success (its degree by net). A Willpower point
adds one success after the 1s cancel (``rolls.evaluate``), so such a roll cannot fail."""

from __future__ import annotations

from fractions import Fraction
from typing import Final

from engine.dice.odds import Distribution, storyteller_pool
from engine.dice.results import RollResult
from engine.errors import EngineError
from engine.systems.base import PLAIN, Ask, Chance, Chances, Reading, pool_threshold, success_pool
from engine.systems.storyteller.rolls import degree_of, difficulty_name, evaluate
from engine.text import Msg, msg, register_messages

register_messages(
    {
        "storyteller.reading.words": {
            "ru": "Сложность {difficulty} ({name}) · {result}",
            "en": "Difficulty {difficulty} ({name}) · {result}",
        },
        "storyteller.reading.net_degree": {
            "ru": "{degree} (успехов: {net})",
            "en": "{degree} success ({net} net successes)",
        },
        # one bracket, not «(успехов: 1) (с автоматическим успехом за Волю)»
        "storyteller.reading.net_degree_willpower": {
            "ru": "{degree} (успехов: {net}, из них один — за Волю)",
            "en": "{degree} success ({net} net successes), one of them from Willpower",
        },
        "storyteller.chance.success": {"ru": "успех", "en": "success"},
        "storyteller.chance.two": {"ru": "от двух успехов", "en": "2+ successes"},
        "storyteller.chance.failure": {"ru": "неудача", "en": "failure"},
        "storyteller.chance.botch": {"ru": "провал", "en": "botch"},
    }
)


def pool_of(expression: str) -> tuple[int, int] | None:
    """(dice, difficulty) of a storyteller pool ``Nd10>=Df1``; None for anything else."""
    pool = success_pool(expression)
    if pool is None or pool.success is None or pool.success.cancel is None or pool.explode:
        return None
    threshold = pool_threshold(pool)
    return None if threshold is None else (pool.count, threshold)


def net_distribution(dice: int, difficulty: int, *, willpower: bool = False) -> Distribution:
    """The exact distribution of the net successes; with Willpower, max(0, net) + 1."""
    net = storyteller_pool(dice, difficulty).net
    if not willpower:
        return net
    counts: dict[int, Fraction] = {}
    for value, p in net.outcomes:
        counts[max(0, value) + 1] = counts.get(max(0, value) + 1, Fraction(0)) + p
    return Distribution(tuple(sorted(counts.items())))


class StorytellerRules:
    """A d10 pool against its difficulty (the notation carries both)."""

    def chances(self, ask: Ask) -> Chances | None:
        found = pool_of(ask.expression)
        if found is None:
            return PLAIN.chances(ask)
        try:
            net = net_distribution(*found, willpower=ask.willpower)
        except EngineError:
            return None
        return Chances(
            (
                Chance(msg("storyteller.chance.success"), net.p_at_least(1), success=True),
                Chance(msg("storyteller.chance.two"), net.p_at_least(2), within=True),
                Chance(msg("storyteller.chance.failure"), net.p(0)),
                Chance(msg("storyteller.chance.botch"), net.p_at_most(-1)),
            )
        )

    def read(self, ask: Ask, result: RollResult) -> Reading | None:
        found = pool_of(ask.expression)
        if found is None:
            return PLAIN.read(ask, result)
        dice, difficulty = found
        try:
            pool = evaluate(result.faces, difficulty, willpower=ask.willpower, dice=dice)
        except EngineError:  # a difficulty outside 2..10: not a storyteller pool
            return PLAIN.read(ask, result)
        degree = degree_of(pool.net)
        # A success names its degree and counts its successes; a failure or a botch has none
        # to count (never «Провал: успехов −1»). Willpower's success is never cancelled, so a
        # roll with it is always a success, and says which of its successes Willpower bought.
        key = "net_degree_willpower" if ask.willpower else "net_degree"
        words = (
            msg(f"storyteller.reading.{key}", net=pool.net, degree=degree.name_msg)
            if degree is not None
            else pool.result.name_msg
        )
        text: Msg = msg(
            "storyteller.reading.words",
            difficulty=difficulty,
            name=difficulty_name(difficulty),
            result=words,
        )
        return Reading(pool.result.value, pool.net >= 1, text)

    def takes_willpower(self, expression: str) -> bool:
        """Any pool: one Willpower point, one success the 1s cannot cancel (DECISION, SPEC)."""
        return pool_of(expression) is not None


RULES: Final = StorytellerRules()
