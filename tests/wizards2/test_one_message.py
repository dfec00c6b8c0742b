"""Issue 24, item 7: a wizard is one message, edited in place.

Each system's full wizard (the existing end-to-end flows, typed answers included) is run; then
Alice's private chat is counted up to the «sent to the GM» note. Before the fix a typed answer
re-posted the window, so the chat kept one copy per typed step (Fate 6, storyteller 2, …).
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable

import pytest

from tests.conftest import Harness
from tests.games.helpers import ALICE
from tests.wizards.cliche.test_cliche_wizard import (
    test_valid_character_approved_and_shown as cliche_flow,
)
from tests.wizards.fate.test_wizard import test_valid_character_is_approved_and_shown as fate_flow
from tests.wizards.lifegear.test_lifegear_wizard import (
    test_valid_character_is_approved_and_shown as lifegear_flow,
)
from tests.wizards.matter.test_matter_wizard import (
    test_valid_character_is_approved_and_shown as matter_flow,
)
from tests.wizards.storyteller.test_wizard import (
    test_valid_character_approved_and_shown_by_sheet as storyteller_flow,
)

Flow = Callable[[Harness], Awaitable[None]]


def left_in_private_chat(h: Harness, user: int = ALICE) -> tuple[int, int]:
    """(bot messages still shown up to the «sent to the GM» note, that note's id)."""
    shown = [m for m in h.emu.bot_messages(user) if not m.deleted]
    note = next(m for m in shown if "sent to the GM" in m.text)
    return len([m for m in shown if m.message_id <= note.message_id]), note.message_id


@pytest.mark.parametrize(
    "flow",
    [fate_flow, storyteller_flow, cliche_flow, lifegear_flow, matter_flow],
    ids=["fate", "storyteller", "cliche", "lifegear", "matter"],
)
async def test_a_full_wizard_leaves_one_window_and_the_note(running: Harness, flow: Flow) -> None:
    await flow(running)
    left, _note = left_in_private_chat(running)
    if os.environ.get("WIZARD_MEASURE"):
        print(f"\nMEASURE {flow.__module__}: {left}")
    # the wizard's own message (its last step, the preview, now without buttons) + the note
    assert left == 2


@pytest.mark.parametrize(
    "flow",
    [fate_flow, storyteller_flow, cliche_flow, lifegear_flow, matter_flow],
    ids=["fate", "storyteller", "cliche", "lifegear", "matter"],
)
async def test_the_sent_window_is_the_sheet_not_a_preview(running: Harness, flow: Flow) -> None:
    """Closing the dialog only took its buttons: the window still asked to «go back to any
    step, or send it» with nothing to press. It now shows the sheet as sent."""
    await flow(running)
    _left, note = left_in_private_chat(running)
    shown = [m for m in running.emu.bot_messages(ALICE) if not m.deleted]
    window = [m for m in shown if m.message_id < note][-1]
    assert window.text.startswith("✅ Done") and not window.has_keyboard
    assert "Preview" not in window.text and "send it to the GM" not in window.text
