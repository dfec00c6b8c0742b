"""A FATE wizard left open before the wizard became a declared flow (its answers at the top of
``dialog_data``, as the hand-written dialog kept them) resumes at its step after the upgrade."""

from __future__ import annotations

from tests.conftest import Harness
from tests.wizards.fate.flow import fill_aspects, press, raise_skill, start
from tests.wizards.toy.hooks import store_older_shape

OLD = {  # what the hand-written wizard stored on the skills step
    "name": "Mira", "concept": "Alchemist", "trouble": "Debts", "phase": "Fire",
    "crossings": [{"text": "Saved Bob", "with": None}, {"text": "The ferry", "with": None}],
    "skills": {"fight": 2, "will": 1}, "refresh": 3, "stunts": [],
    "gear": {"melee": 0, "ranged": 0, "armor": 0}, "base": None, "editing": False,
    "error": "⛔ an old refusal", "error_at": "FateSG:skills", "cross_with": None,
}  # fmt: skip


async def test_an_open_wizard_of_the_older_shape_resumes_at_its_step(running: Harness) -> None:
    h = running
    await start(h)
    await fill_aspects(h)
    await press(h, "Next")  # → skills
    await store_older_shape(h, "FateSG:skills", OLD)
    await h.restart()
    shown = await raise_skill(h, "Athletics", 1)
    assert "Step 6 of 8" in shown.text and "26 of 30" in shown.text
    assert "+2×1 · +1×2" in shown.text and "an old refusal" not in shown.text
    await press(h, "Next")  # → stunts
    await press(h, "Next")  # → gear
    preview = await press(h, "Next")
    assert "Preview" in preview.text and "Saved Bob" in preview.text and "Mira" in preview.text
