"""A storyteller wizard started by the hand-written wizard (its sheet in ``dialog_data["sheet"]``)
goes on after the upgrade to the flow: the same state names, the same sheet."""

from __future__ import annotations

from tests.conftest import Harness
from tests.wizards.storyteller.driver import Player, keep_draft_as
from tests.wizards.storyteller.test_wizard import _to_attributes


async def test_a_wizard_started_before_the_port_resumes(running: Harness) -> None:
    p = Player(running)
    await _to_attributes(p)
    await p.plus(strength=2)
    await running.stop()
    assert await keep_draft_as(running, "sheet") == 1
    await running.start()
    await p.press("d:strength:p")  # the old message's button
    assert p.label_of("d:strength:n") == "Strength ●●●●○" and "Physical: 3/7" in p.text
    await p.press("bk")
    assert "Step 5 of 15: Priorities" in p.text and "1. Physical — 7" in p.labels()
