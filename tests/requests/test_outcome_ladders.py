"""Every system's outcome ladder (``RollRules``) against the engine's exact odds and rule
functions: the success chance is the seed's success, the ladder partitions certainty, and a
rolled result reads as the system's own functions read the same faces."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.systems import SYSTEMS, rules_for
from engine.dice.evaluator import roll
from engine.dice.odds import (
    cliche_check,
    distribution,
    fate_check,
    lifegear_check,
    matter_pool,
    storyteller_pool,
)
from engine.dice.source import ScriptedSource
from engine.systems import fate, storyteller
from engine.systems.base import PLAIN, Ask, Chances
from engine.systems.matter.rolls import grade_of

CHANCES: list[tuple[str, Ask, Fraction]] = [
    ("fate", Ask("4dF+2", 3), fate_check(2, 3).at_least_success),
    ("fate", Ask("4dF", 0), fate_check(0, 0).at_least_success),
    ("fate", Ask("4dF+2", 3, bonus=2), fate_check(4, 3).at_least_success),  # an invoke
    ("fate", Ask("4dF-1", -3), fate_check(-1, -3).at_least_success),
    ("storyteller", Ask("5d10>=6f1"), storyteller_pool(5, 6).success),
    ("storyteller", Ask("1d10>=10f1", 10), storyteller_pool(1, 10).success),
    ("storyteller", Ask("3d10>=6f1", willpower=True), Fraction(1)),
    ("matter", Ask("3d10>=7!"), matter_pool(3).at_least_1),
    ("matter", Ask("1d10>=7!"), matter_pool(1).at_least_1),
    ("matter", Ask("chance"), matter_pool(0).at_least_1),
    ("cliche", Ask("3d6", 10), cliche_check(3, 10)),
    ("cliche", Ask("7d6", 30), cliche_check(7, 30)),
    ("lifegear", Ask("1d8+1d6+3", 10), lifegear_check("1d8+1d6+3", 10)),
    ("lifegear", Ask("2d6", 7), lifegear_check("2d6", 7)),
    (None, Ask("3d6", 10), distribution("3d6").p_at_least(10)),  # outside a game: total ≥ N
]


def _partition(chances: Chances) -> Fraction:
    return sum((r.p for r in chances.rows if not r.within), Fraction(0))


@pytest.mark.parametrize(("system", "ask", "success"), CHANCES)
def test_chance_is_the_engines_exact_success(
    system: str | None, ask: Ask, success: Fraction
) -> None:
    chances = rules_for(system).chances(ask)
    assert chances is not None
    assert chances.success == success
    assert _partition(chances) == 1


def test_every_system_has_its_own_ladder() -> None:
    assert all(spec.rules is not PLAIN for spec in SYSTEMS.values())
    assert rules_for(None) is PLAIN and rules_for("nonsense") is PLAIN


def test_fate_ladder_steps_are_fate_check() -> None:
    chances = rules_for("fate").chances(Ask("4dF+2", 3))
    assert chances is not None
    odds = fate_check(2, 3)
    assert [r.p for r in chances.rows] == [odds.at_least_success, odds.style, odds.tie, odds.fail]


def test_no_target_no_chance_for_sums() -> None:
    for system in ("fate", "cliche", "lifegear", None):
        assert rules_for(system).chances(Ask("3d6")) is None


# (system, notation, target, faces, the engine's outcome for those faces)
READINGS: list[tuple[str, str, int | None, list[int], str]] = [
    ("fate", "4dF+2", 3, [3, 3, 3, 5], fate.outcome_of(0 + 2 + 1 - 3).value),  # tie
    ("fate", "4dF+2", 3, [5, 5, 3, 3], fate.outcome_of(2 + 2 - 3).value),  # success
    ("fate", "4dF+2", 3, [1, 1, 1, 1], fate.outcome_of(-4 + 2 - 3).value),  # fail
    ("fate", "4dF+2", 0, [3, 3, 3, 5], fate.outcome_of(3).value),  # style
    ("storyteller", "3d10>=6f1", None, [1, 1, 6], storyteller.evaluate([1, 1, 6], 6).result.value),
    ("storyteller", "7d10>=6f1", None, [1, 1, 3, 4, 4, 6, 8], "failure"),  # the seed's example
    ("storyteller", "5d10>=6f1", None, [1, 5, 6, 8, 9], "success"),
    ("matter", "3d10>=7!", None, [7, 9, 2], grade_of(2).value),
    ("matter", "1d10>=7!", None, [1], grade_of(0, critical_failure=True).value),
    ("matter", "chance", None, [9], grade_of(0).value),
    ("cliche", "3d6", 10, [3, 3, 4], "success"),  # a sum equal to the target succeeds
    ("cliche", "3d6", 10, [3, 3, 3], "failure"),
    ("lifegear", "1d8+1d6+3", 10, [6, 1], "success"),  # the seed: 6+1+3 = 10 downs D 10
    ("lifegear", "1d8+1d6+3", 10, [3, 1], "failure"),
]


@pytest.mark.parametrize(("system", "notation", "target", "faces", "outcome"), READINGS)
def test_reading_is_the_engines_outcome(
    system: str, notation: str, target: int | None, faces: list[int], outcome: str
) -> None:
    result = roll(notation, ScriptedSource(faces), stored=True)
    reading = rules_for(system).read(Ask(notation, target), result)
    assert reading is not None and reading.outcome == outcome
    for locale in ("ru", "en"):
        words = reading.words.render(locale)
        assert words and "{" not in words and ".reading." not in words


def test_fate_invoke_bonus_moves_the_outcome() -> None:
    result = roll("4dF+2", ScriptedSource([3, 3, 3, 3]), stored=True)  # total 2 vs 3: fail
    rules = rules_for("fate")
    plain, invoked = rules.read(Ask("4dF+2", 3), result), rules.read(Ask("4dF+2", 3, 2), result)
    assert plain is not None and plain.outcome == "fail"
    assert invoked is not None and invoked.outcome == "success"
    assert "+1" in invoked.words.render("en")  # one shift


def test_storyteller_willpower_reads_once_with_the_extra_success() -> None:
    faces = [1, 1, 6]  # a botch without Willpower
    result = roll("3d10>=6f1", ScriptedSource(faces), stored=True)
    reading = rules_for("storyteller").read(Ask("3d10>=6f1", willpower=True), result)
    expected = storyteller.evaluate(faces, 6, willpower=True)
    assert reading is not None and reading.outcome == expected.result.value == "success"
    assert f"{expected.net} net successes" in reading.words.render("en")


def test_only_storyteller_pools_take_willpower() -> None:
    assert rules_for("storyteller").takes_willpower("5d10>=6f1")
    assert not rules_for("storyteller").takes_willpower("3d6")
    for system in ("fate", "cliche", "lifegear", "matter", None):
        assert not rules_for(system).takes_willpower("5d10>=6f1")
