"""Issue 36 item 12: a returned character comes back with a button that works, reopens at its
preview with the answers kept, and a step that holds an answer offers «Next», not «Skip»."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from tests.conftest import Harness
from tests.games.helpers import ALICE, GM, GROUP, buttons
from tests.wizards.cliche.test_cliche_wizard import press, settled, to_preview
from tests.wizards.storyteller.driver import Player


async def test_returned_sheet_comes_with_a_link_that_reopens_its_preview(
    running: Harness,
) -> None:
    emu = running.emu
    await to_preview(running)
    await press(running, "Send to the GM")
    card = await emu.wait_for(
        lambda: next(
            (m for m in reversed(emu.bot_messages(GROUP)) if "ret:" in str(m.reply_markup)), None
        )
    )
    back = next(i for i, b in enumerate(buttons(card)) if b["callback_data"].startswith("ret:"))
    pressed = emu.press_button(GM, GROUP, card.message_id, back)
    await emu.wait_callback_answer(pressed.callback_query_id)
    asked = await emu.wait_bot_message(GROUP, after=card.message_id)
    emu.send_text(GM, GROUP, "Add a hook", reply_to=asked.message_id)
    told = await emu.wait_bot_message(ALICE, contains="returned")
    await settled(running)
    assert "Fix the character" in told.text
    links = [b["url"] for b in buttons(told) if "url" in b]
    assert len(links) == 1, told.reply_markup
    token = parse_qs(urlparse(links[0]).query)["start"][0]
    emu.send_text(ALICE, ALICE, f"/start {token}")
    await emu.wait_idle()
    await settled(running)
    reopened = emu.last_bot_message(ALICE)
    assert reopened is not None and reopened.message_id != told.message_id
    assert "Preview" in reopened.text and "Zoe" in reopened.text and "Pilot" in reopened.text


async def test_a_filled_step_offers_next_not_skip(running: Harness) -> None:
    p = Player(running)
    await p.start()
    await p.say("Lily")
    assert "Skip ▶" in p.labels()  # the concept is empty: it may be skipped
    await p.say("runaway poet")
    await p.press("bk")  # back on the concept, which now holds an answer
    assert "runaway poet" in p.text
    assert "Next ▶" in p.labels() and "Skip ▶" not in p.labels()
    await p.press("nx")  # the kith
    await p.press("skith:pooka")
    await p.press("bk")
    assert "Kith" in p.text
    assert "Next ▶" in p.labels() and "Skip ▶" not in p.labels()
