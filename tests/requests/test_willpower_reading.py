"""A Storyteller roll with Willpower reads in one bracket: it said «Минимальный успех
(успехов: 1) (с автоматическим успехом за Волю)», two brackets in a row."""

from __future__ import annotations

from bot.systems import rules_for
from engine.dice.evaluator import roll
from engine.dice.source import ScriptedSource
from engine.systems.base import Ask


def test_willpower_is_named_inside_the_successes_bracket() -> None:
    result = roll("6d10>=7f1", ScriptedSource([1, 6, 3, 8, 9, 1]), stored=True)
    reading = rules_for("storyteller").read(Ask("6d10>=7f1", willpower=True), result)
    assert reading is not None
    words = reading.words.render("ru")
    assert words.endswith("(успехов: 1, из них один — за Волю)"), words
    assert words.count("(") == 2  # the difficulty's name and the successes, nothing more
    assert "one of them from Willpower" in reading.words.render("en")
