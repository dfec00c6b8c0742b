"""Issue 8: a rolled fate request card offers the free invokes the player's character holds on
the open conflict's board; using one adds +2 without a fate point and takes it off the board."""

from __future__ import annotations

from engine.systems import fate
from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GM, GROUP, buttons
from tests.helpers import table as tb
from tests.trackers import fate_helpers as fh
from tgemu import ChatMessage


async def _free_invoke(h: Harness, card: ChatMessage, use: str) -> str:
    """Open the card's invoke menu as Alice; the data of the free invoke for ``use``."""
    pressed = h.emu.press_button(ALICE, GROUP, card.message_id, 0)
    await h.emu.wait_callback_answer(pressed.callback_query_id)
    await h.emu.wait_for(lambda: "fzf:" in str(card.reply_markup))
    return next(
        b["callback_data"]
        for b in buttons(card)
        if b.get("callback_data", "").startswith("fzf:") and b["callback_data"].endswith(use)
    )


async def test_a_free_invoke_from_the_conflict_on_a_request_card(harness: Harness) -> None:
    h, emu = harness, harness.emu
    await fh.table(h)
    concept = fate.CharacterAspect(text="Дочь контрабандиста", role=fate.AspectRole.CONCEPT)
    ira = fh.hero("Ира", notice=12).model_copy(update={"aspects": (concept,)})
    ira_id = await tb.insert_character(h, "fate", ira, owner=ALICE)
    await tb.insert_character(h, "fate", fh.hero("Орк"), owner=GM, npc=True)

    tracker = await fh.open_conflict(h, "Склад: Темно")
    await fh.press(h, GM, tracker, "fzg:")
    await fh.press(h, ALICE, tracker, "fza:", ":advantage")
    await fh.press(h, ALICE, tracker, "fzv:", "notice")  # +12 against +2: two free invokes
    assert "[Ира ×2]" in tb.current(h, tracker).html

    said = emu.send_text(ALICE, GROUP, "готова")
    emu.send_text(GM, GROUP, "/request 4dF+2 vs 3", reply_to=said.message_id)
    card = await emu.wait_bot_message(GROUP, contains="🎲", after=said.message_id)
    pressed = emu.press_button(ALICE, GROUP, card.message_id, 0)
    await emu.wait_callback_answer(pressed.callback_query_id)
    await emu.wait_for(lambda: "ivm:" in str(card.reply_markup))
    rolled_total = await tb.scalar(h, "SELECT result FROM rolls WHERE roll_id LIKE 'req:%'")

    free = await _free_invoke(h, card, "bonus")
    assert "Темно" not in str(card.reply_markup)  # only aspects Ира holds invokes on

    pressed = emu.press(BOB, GROUP, card.message_id, free)  # not Bob's roll
    assert (await emu.wait_callback_answer(pressed.callback_query_id)).show_alert

    pressed = emu.press(ALICE, GROUP, card.message_id, free)
    answer = await emu.wait_callback_answer(pressed.callback_query_id)
    assert not answer.show_alert, answer.text
    await emu.wait_for(
        lambda: f"{rolled_total + 2}" in card.text and "ivm:" in str(card.reply_markup)
    )
    sheet = await tb.stored_sheet(h, ira_id)
    assert sheet["fate_points"] == 3  # free: no fate point spent
    assert await tb.scalar(h, "SELECT bonus FROM roll_requests") == 2
    assert await tb.scalar(h, "SELECT count(*) FROM ledger") == 0
    assert "[Ира ×1]" in tb.current(h, tracker).html  # the board shows one left

    # The last free invoke on a reroll: a new logged roll for the request, none left.
    reroll = await _free_invoke(h, card, "reroll")  # the invoke menu again
    pressed = emu.press(ALICE, GROUP, card.message_id, reroll)
    assert not (await emu.wait_callback_answer(pressed.callback_query_id)).show_alert
    assert await tb.scalar(h, "SELECT rerolls FROM roll_requests") == 1
    assert await tb.scalar(h, "SELECT count(*) FROM rolls WHERE roll_id LIKE 'req%re1'") == 1
    assert "Ира ×" not in tb.current(h, tracker).html
    assert (await tb.stored_sheet(h, ira_id))["fate_points"] == 3

    # The same (now stale) button again: the tracker moved on, refused, nothing changes.
    pressed = emu.press(ALICE, GROUP, card.message_id, free)
    assert (await emu.wait_callback_answer(pressed.callback_query_id)).show_alert
    assert await tb.scalar(h, "SELECT bonus FROM roll_requests") == 2
