"""A cliché's card in the wizard: rename, dice, description, tools from the card and back,
delete; stale taps change nothing."""

from __future__ import annotations

from tests.conftest import Harness
from tests.games.helpers import ALICE
from tests.wizards.cliche.test_cliche_wizard import add_cliche, press, say, to_clichés
from tests.wizards.storyteller.driver import Player


async def test_card_changes_a_cliche_and_comes_back(running: Harness) -> None:
    await to_clichés(running)
    await add_cliche(running, "Soldier", 3, "Veteran")
    view = await press(running, "Soldier (3)")
    assert "What would you like to change?" in view.text and "Veteran" in view.text
    view = await press(running, "✏️ Name")
    assert "Now: <b>Soldier</b>." in view.html
    view = await say(running, "Sergeant")
    assert "Sergeant" in view.text and "What would you like to change?" in view.text
    view = await press(running, "🎲 Dice")
    view = await press(running, "➕")
    assert "«Sergeant»: <b>4</b> dice" in view.html
    view = await press(running, "Next")  # back on the card, not the description
    assert "What would you like to change?" in view.text
    view = await press(running, "📝 Description")
    assert "Now: Veteran" in view.text and "Keep ▶️" in str(view.reply_markup)
    view = await press(running, "Keep")
    assert "What would you like to change?" in view.text
    view = await press(running, "🔧 Tools")
    assert "Tools of the trade for «Sergeant»" in view.text
    view = await say(running, "Rifle")
    assert "1. 🔧 Rifle" in view.text
    p = Player(running)
    await p.settled()
    stale, shown = p.data_of("tx:0"), p.text
    await p.press("tx:0")  # ❌ 1
    assert "No tools yet." in p.text
    assert p.message is not None
    pressed = running.emu.press(ALICE, ALICE, p.message.message_id, stale)  # an old ❌ 1
    await running.emu.wait_callback_answer(pressed.callback_query_id)
    assert "No tools yet." in (await p.settled()).text and shown != p.text
    view = await press(running, "Done")  # back to the card it came from
    assert "What would you like to change?" in view.text
    view = await press(running, "🗑 Delete")
    assert "No clichés yet." in view.text and "Dice left: 10 of 10" in view.text
