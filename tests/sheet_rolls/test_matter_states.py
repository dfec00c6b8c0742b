"""``/r`` on a matter sheet applies the character's states (issue 22 item 5): under Мини a
physical skill rolls exactly 1d10 (seed 004), a mental one keeps its pool."""

from __future__ import annotations

from engine.systems import matter
from engine.systems.matter import ActiveState, StateId
from tests.conftest import Harness
from tests.sheet_rolls.test_e2e import _check_sheet_roll, _last_roll, _start


def _mini() -> matter.Character:
    return matter.new_character("Пепел").model_copy(
        update={
            "skills": {s.value: 0 for s in matter.Skill} | {"brutality": 3, "intellect": 2},
            "states": (ActiveState(state=StateId.MINI),),
        }
    )


async def test_mini_makes_a_physical_roll_one_die(running: Harness) -> None:
    hero = _mini()
    await _start(running, "matter", hero)
    reply, plan = await _check_sheet_roll(running, "matter", hero, "/r Жестокость +1")
    assert plan.notation == "1d10>=7!"
    assert (await _last_roll(running)).expression.startswith("1d10")
    # which state, in the group's language (its GM's Russian), though Alice reads English
    assert "Мини" in (reply.text or "").splitlines()[0]
    _, plan = await _check_sheet_roll(running, "matter", hero, "/r Интеллект")
    assert plan.notation == "2d10>=7!"  # a mental roll: Мини leaves it
