"""Issue 36 item 11: the FATE wizard says where gear points come from, offers no extras it has
no step for, and its stunt buttons stay put whatever is typed."""

from __future__ import annotations

from tests.conftest import Harness
from tests.games.helpers import ALICE, buttons
from tests.wizards.fate.flow import press, reach_preview, say, start, window


def _labels(h: Harness) -> list[str]:
    return [b["text"] for b in buttons(window(h))]


async def test_stunt_buttons_stay_put_and_gear_says_where_points_come_from(
    running: Harness,
) -> None:
    await start(running)
    for answer in ("Mira", "Alchemist", "Owes the Guild", "Burned the Archive"):
        await say(running, answer)
    crossings = _labels(running)
    assert "↩️ Remove last" in crossings  # there before any crossing is typed
    await say(running, "Saved Bob from the flood")
    assert _labels(running) == crossings  # and typing one moved no button
    await say(running, "Shares a secret with the ferryman")
    await press(running, "Next")  # → skills
    stunts = await press(running, "Next")
    assert "Step 7 of 8" in stunts.text
    before = _labels(running)
    message = window(running)
    pressed = running.emu.press_button(
        ALICE, ALICE, message.message_id, before.index("↩️ Remove last")
    )
    answer = await running.emu.wait_callback_answer(pressed.callback_query_id)
    assert answer.show_alert and answer.text == "There is no stunt to remove yet."
    await say(running, "Quick hands")
    assert _labels(running) == before  # typing a stunt moved no button
    await press(running, "−1 refresh")
    assert _labels(running) == before  # nor did trading refresh
    gear = await press(running, "Next")
    assert "Step 8 of 8" in gear.text and "0 of 0" in gear.text
    assert "Equipment points come from skills" in gear.text
    assert "Wealth: 1 per level" in gear.text and "Crime, Art: 1 per 4 levels" in gear.text


async def test_preview_offers_no_extras_step(running: Harness) -> None:
    await start(running)
    preview = await reach_preview(running)
    assert "30 skill points left: put them into skills" in preview.text
    assert "may go to extras" not in preview.text
