"""A lifegear wizard started before the creation flow (its role and name kept directly in
dialog_data) resumes after the upgrade at the same step, its answers kept."""

from __future__ import annotations

import json

from sqlalchemy import text

from tests.conftest import Harness
from tests.games.helpers import ALICE
from tests.wizards.lifegear.helpers import SCOUT, count, press
from tests.wizards.lifegear.test_lifegear_wizard import _at_gear_step


async def test_a_wizard_stored_by_the_hand_written_dialog_resumes(running: Harness) -> None:
    await _at_gear_step(running)
    old = {"role": SCOUT, "name": "Robin", "error": "Another character here is already…"}
    async with running.engine.begin() as conn:
        await conn.execute(
            text(
                "UPDATE fsm_states SET data = jsonb_set(data, '{dialog_data}', CAST(:d AS jsonb)) "
                "WHERE data->>'state' = 'LifegearSG:gear'"
            ),
            {"d": json.dumps(old)},
        )
    await running.restart()
    preview = await press(running, ALICE, "gn")
    assert "Preview" in preview.text and "Robin" in preview.text and "Стрелок" in preview.text
    assert "Lives: 2/5" in preview.text
    await press(running, ALICE, "ok")
    assert await count(running, "characters") == 1
