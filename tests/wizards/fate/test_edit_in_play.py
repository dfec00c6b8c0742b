"""The edit link of an approved FATE character reopens the wizard whole, at its preview, and
the sheet in play keeps its current fate points (not reset to refresh)."""

from __future__ import annotations

from sqlalchemy import text

from tests.conftest import Harness
from tests.games.helpers import ALICE, GROUP, approve_latest, buttons
from tests.wizards.fate.flow import press, reach_preview, start, window


async def test_the_edit_link_opens_the_preview_and_keeps_fate_points(running: Harness) -> None:
    h = running
    await start(h)
    await reach_preview(h)
    await press(h, "✅")
    await approve_latest(h)
    async with h.engine.begin() as conn:  # a fate point spent in play
        await conn.execute(
            text("UPDATE characters SET sheet = jsonb_set(sheet, '{fate_points}', '1')")
        )
    last = h.emu.last_bot_message(GROUP)
    h.emu.send_text(ALICE, GROUP, "/sheet")
    after = last.message_id if last is not None else 0
    sheet = await h.emu.wait_bot_message(GROUP, contains="Mira", after=after)
    token = next(b["url"] for b in buttons(sheet) if "url" in b).split("start=")[1]
    h.emu.send_text(ALICE, ALICE, f"/start {token}")
    await h.emu.wait_idle()
    editor = window(h)
    assert "Preview" in editor.text and "Disgraced court alchemist" in editor.text
    assert "refresh 3, fate points 1" in editor.text
    back = await press(h, "✏️ Concept")
    assert "Step 2 of 8" in back.text
    assert "Preview" in (await press(h, "Next")).text  # and straight back to the preview
