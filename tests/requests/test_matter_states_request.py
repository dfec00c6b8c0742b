"""The GM's roll request from a matter /sheet reads the character's states (issue 22 item 5):
under Мини a physical skill is offered and requested as one die (seed 004)."""

from __future__ import annotations

from engine.systems import matter
from engine.systems.matter import ActiveState, StateId
from tests.conftest import Harness
from tests.games.helpers import create_game, seat_table
from tests.helpers.table import insert_character, scalar
from tests.requests.test_sheet_request import _by_text, _open_builder, _step


async def test_mini_requests_one_die(running: Harness) -> None:
    seat_table(running)
    await create_game(running, "matter", "Пепел")
    hero = matter.new_character("Пепел").model_copy(
        update={
            "skills": {s.value: 0 for s in matter.Skill} | {"brutality": 3, "intellect": 2},
            "states": (ActiveState(state=StateId.MINI),),
        }
    )
    await insert_character(running, "matter", hero)
    builder = await _open_builder(running, "Пепел")
    labels = [b["text"] for row in builder.reply_markup["inline_keyboard"] for b in row]
    assert "Жестокость 1" in labels and "Интеллект 2" in labels, labels
    await _step(running, builder, _by_text(builder, "Жестокость"))
    assert await scalar(running, "SELECT expression FROM roll_requests") == "1d10>=7!"
    assert "Мини" in builder.text
