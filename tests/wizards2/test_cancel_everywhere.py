"""Issue 24, item 7: every step of a wizard has «Cancel», matter's first step included."""

from __future__ import annotations

from tests.conftest import Harness
from tests.games.helpers import ALICE, buttons
from tests.wizards.matter.test_matter_wizard import settled, start_wizard, stored_characters


async def test_matters_first_step_cancels_with_one_tap(running: Harness) -> None:
    h = running
    await start_wizard(h)
    h.emu.send_text(ALICE, ALICE, "/x")  # a refused name: the step shows the reason in place
    await h.emu.wait_idle()
    await settled(h)
    first = h.emu.last_bot_message(ALICE)
    assert first is not None and "A name is one line" in first.text
    labels = [b["text"] for b in buttons(first)]
    assert "✖️ Cancel" in labels, labels
    pressed = h.emu.press_button(ALICE, ALICE, first.message_id, labels.index("✖️ Cancel"))
    answer = await h.emu.wait_callback_answer(pressed.callback_query_id)
    await settled(h)
    assert answer.text == "Cancelled."
    closed = h.emu.last_bot_message(ALICE)
    assert closed is not None and closed.message_id == first.message_id
    assert buttons(closed) == []  # nothing left to press
    assert closed.text == "✖️ Cancelled: nothing was saved."  # no step left on screen
    h.emu.send_text(ALICE, ALICE, "Вера")  # the wizard is over: a name no longer moves it on
    await h.emu.wait_idle()
    await settled(h)
    assert "Step 2 of 4" not in (h.emu.last_bot_message(ALICE) or closed).text
    assert await stored_characters(h) == 0
