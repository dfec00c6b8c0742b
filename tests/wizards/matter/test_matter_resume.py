"""A matter wizard begun before its port onto the generic flow resumes after the upgrade: the
old build kept the draft under ``dialog_data["sheet"]`` (the flow keeps it under ``draft``)
and its refusal as ``{"state", "text"}``; the states' names are the same."""

from __future__ import annotations

from sqlalchemy import text

from tests.conftest import Harness
from tests.wizards.matter.test_matter_wizard import (
    named,
    plus,
    screen,
    skill_label,
    start_wizard,
    stored_characters,
    tap,
    wait_screen,
)

_TO_OLD_SHAPE = text(
    "UPDATE fsm_states SET data = data || jsonb_build_object('dialog_data',"
    " ((data->'dialog_data') - 'draft') || jsonb_build_object("
    "  'sheet', data->'dialog_data'->'draft',"
    "  'error', jsonb_build_object('state', data->>'state', 'text', 'old refusal')))"
    " WHERE data->'dialog_data'->'draft' IS NOT NULL RETURNING data->>'state'"
)


async def test_a_wizard_stored_by_the_old_build_goes_on(running: Harness) -> None:
    h = running
    await start_wizard(h)
    await named(h, "Vera")
    await plus(h, 0)
    await h.emu.wait_for(lambda: skill_label(h, 0) == "Brutality ●○○")
    async with h.engine.begin() as conn:
        states = (await conn.execute(_TO_OLD_SHAPE)).scalars().all()
    assert states == ["MatterSG:skills"]
    await running.restart()
    await plus(h, 0)  # the old draft is read: one more dot on top of the first
    await h.emu.wait_for(lambda: skill_label(h, 0) == "Brutality ●●○")
    assert "Dots left: 10" in screen(h).text and "old refusal" not in screen(h).text
    await tap(h, "Next")
    await wait_screen(h, "Step 3 of 4")
    assert await stored_characters(h) == 0
