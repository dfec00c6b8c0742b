"""Issue 24, item 8: the preview does not let a character through with required creation
points unspent, and names exactly what is missing; optional leftovers go to the GM's card."""

from __future__ import annotations

from tests.conftest import Harness
from tests.games.helpers import ALICE, GROUP
from tests.wizards.fate.flow import fill_aspects, press, say, start
from tests.wizards.storyteller.driver import Player, count_characters
from tests.wizards.storyteller.test_wizard import _skip_to_preview, _to_attributes


async def test_fate_preview_owes_the_seeds_three_stunts(running: Harness) -> None:
    h = running
    await start(h)
    await fill_aspects(h)
    await press(h, "Next")  # → skills, left at +0 (optional: the GM sees what is left)
    await press(h, "Next")  # → stunts: leaving it empty is allowed here …
    await press(h, "Next")  # → gear
    preview = await press(h, "Next")
    assert "Preview" in preview.text
    assert "⛔ Stunts: 0 of 3 — write 3 more." in preview.text  # … but not past the preview
    refused = await press(h, "✅")
    assert "Preview" in refused.text and await count_characters(h) == 0

    await press(h, "✏️ Stunts")
    await press(h, "−1 refresh")  # a traded refresh owes a fourth stunt
    for stunt in ("Quick hands", "Ember ward", "Old friends"):
        await say(h, stunt)
    shown = await press(h, "Next")  # back to the preview
    assert "⛔ Stunts: 3 of 4 — write 1 more, or take refresh back" in shown.text
    await press(h, "✏️ Stunts")
    await press(h, "+1 refresh")
    ready = await press(h, "Next")
    assert "⛔" not in ready.text and "30 skill points left" in ready.text  # a warning only
    await press(h, "✅")
    await h.emu.wait_bot_message(ALICE, contains="GM")
    assert await count_characters(h) == 1
    card = await h.emu.wait_bot_message(GROUP, contains="Mira")
    # the GM's card lists the optional leftover (the group reads Russian)
    assert "Осталось нераспределённым" in card.text and "30" in card.text
    assert "Трюки" not in card.text.split("Осталось")[1]  # nothing required is left over


async def test_storyteller_preview_names_the_attributes_left_unspent(running: Harness) -> None:
    p = Player(running)
    await _to_attributes(p)
    await _skip_to_preview(p)
    assert "⛔ Physical: 7 of 7 dots are not spent." in p.text
    assert "⛔ Talents: 13 of 13 dots are not spent." in p.text
    assert "⚠️" in p.text  # unspent freebies only warn
    await p.press("ok")
    assert await count_characters(running) == 0 and "⛔ Physical" in p.text
