"""A press on a FATE skill that changes nothing (its name, whose level is said in a toast, or
− at +0) leaves the message alone: the bot asked Telegram to redraw it as it was, an edit
Telegram refuses («message is not modified»)."""

from __future__ import annotations

from tests.conftest import Harness
from tests.games.helpers import ALICE
from tests.wizards.fate.flow import fill_aspects, index_of, press, start, window


def _refused_edits(h: Harness) -> int:
    return sum(1 for call in h.emu.calls_to("editMessageText") if not call.ok)


async def test_a_press_that_changes_nothing_edits_nothing(running: Harness) -> None:
    h = running
    await start(h)
    await fill_aspects(h)
    await press(h, "Next")  # → skills
    before = _refused_edits(h)
    for offset in (0, 1, 0):  # the name (a toast), − at +0, the name again
        shown = window(h)
        pressed = h.emu.press_button(
            ALICE, ALICE, shown.message_id, index_of(shown, "Alchemy ", offset=offset)
        )
        answer = await h.emu.wait_callback_answer(pressed.callback_query_id)
        await h.emu.wait_idle()
        assert not answer.show_alert, answer.text
    assert _refused_edits(h) == before
    raised = await press(h, "Alchemy ", offset=2)  # a press that changes the sheet still shows
    assert "Alchemy +1" in str(raised.reply_markup)
