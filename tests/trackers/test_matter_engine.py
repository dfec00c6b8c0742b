"""``run_logged``: a scene turn fed one logged roll at a time gives the same result as the
engine rolling on its own, and the dice core's notation replays the engine's faces."""

from __future__ import annotations

import pytest

from bot.services.trackers.matter import Entry
from engine.dice.evaluator import evaluate
from engine.dice.parser import parse
from engine.dice.source import ScriptedSource, SeededSource
from engine.errors import EngineError
from engine.systems import matter
from engine.systems.matter import ConditionId, StateId
from engine.systems.matter.logged import Done, NeedsRoll, run_logged
from engine.systems.matter.traits import Skill
from handlers.views.trackers.matter import roll_text


def _characters() -> dict[str, matter.Character]:
    hero = matter.new_character("Ася").model_copy(update={"skills": {Skill.TENACITY.value: 2}})
    ko = matter.apply_state(hero, StateId.KO, ScriptedSource([]), resist=False)[0]
    return {"1": hero, "2": ko}


@pytest.mark.parametrize("seed", range(40))
def test_logged_turn_equals_the_engine_on_the_same_faces(seed: int) -> None:
    scene = matter.start_scene([ConditionId.POISON_CLOUD, ConditionId.UNSTEADY]).model_copy(
        update={"round": 1}
    )
    chars = _characters()
    source = SeededSource(seed)
    logged: list[tuple[int, ...]] = []
    while True:
        found = run_logged(
            lambda s: matter.advance_turn(scene, chars, s), lambda r: r[2].rolls, logged
        )
        if isinstance(found, Done):
            break
        assert isinstance(found, NeedsRoll) and found.event.roll is not None
        # What the roll log does with the notation: the dice core evaluates it.
        logged.append(evaluate(parse(found.notation), source).faces)
    new_scene, new_chars, report = found.result
    assert [tuple(e.roll.faces) for e in report.rolls if e.roll] == logged
    flat = [f for faces in logged for f in faces]
    again = matter.advance_turn(scene, chars, ScriptedSource(flat))
    assert again == (new_scene, new_chars, report)
    assert len(logged) >= 3  # two chance rolls, the KO roll, two standard checks


def test_faces_that_do_not_fit_are_refused() -> None:
    scene = matter.start_scene([ConditionId.UNSTEADY])
    chars = _characters()

    def op(s):  # type: ignore[no-untyped-def]
        return matter.advance_turn(scene, chars, s)

    with pytest.raises(EngineError):
        run_logged(op, lambda r: r[2].rolls, [(11,)])
    with pytest.raises(EngineError):
        run_logged(op, lambda r: r[2].rolls, [(3,)])  # the KO roll (2d10) has two faces


def test_a_chance_roll_in_the_log_speaks_russian() -> None:
    """Issue 36 item 9d: «🎲 шанс [7]», not «🎲 chance [7]», in a Russian chat."""
    entry = Entry(k="resisted", n="chance", f=[7], ok=0)
    assert roll_text(entry, "ru") == "🎲 шанс [7] → 0"
    assert roll_text(entry, "en") == "🎲 chance [7] → 0"
