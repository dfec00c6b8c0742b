"""Storyteller: Willpower spent on a request card before the roll — +1 automatic success,
one point through the ledger, once."""

from __future__ import annotations

from engine.systems import storyteller
from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GM, GROUP, buttons, create_game, seat_table
from tests.helpers.table import insert_character, scalar


async def test_willpower_before_the_roll(running: Harness) -> None:
    seat_table(running)
    emu = running.emu
    await create_game(running, "storyteller", "Грёзы")
    hero = storyteller.new_character("Техлана").model_copy(
        update={"willpower": storyteller.PoolTrait(rating=3, pool=1)}
    )
    await insert_character(running, "storyteller", hero, owner=ALICE, seated=False)
    said = emu.send_text(ALICE, GROUP, "готова")
    emu.send_text(GM, GROUP, "/request 3d10>=6f1: прыжок", reply_to=said.message_id)
    card = await emu.wait_bot_message(GROUP, contains="🎲", after=said.message_id)
    wp = next(b["callback_data"] for b in buttons(card) if b["callback_data"].startswith("wp:"))

    pressed = emu.press(BOB, GROUP, card.message_id, wp)
    assert (await emu.wait_callback_answer(pressed.callback_query_id)).show_alert
    pressed = emu.press(ALICE, GROUP, card.message_id, wp)
    await emu.wait_callback_answer(pressed.callback_query_id)
    await emu.wait_for(lambda: "💪" in card.text)
    assert not any(b["callback_data"].startswith("wp:") for b in buttons(card))
    pressed = emu.press(ALICE, GROUP, card.message_id, wp)  # again: refused, nothing spent
    assert (await emu.wait_callback_answer(pressed.callback_query_id)).show_alert
    assert await scalar(running, "SELECT (sheet->'willpower'->>'pool')::int FROM characters") == 0
    assert await scalar(running, "SELECT count(*) FROM ledger") == 1

    pressed = emu.press_button(ALICE, GROUP, card.message_id, 0)  # roll
    await emu.wait_callback_answer(pressed.callback_query_id)
    await emu.wait_for(lambda: "№1" in card.text)
    faces = await scalar(running, "SELECT faces FROM rolls")
    reading = storyteller.evaluate(faces, 6, willpower=True)
    assert f"(успехов: {reading.net}, из них один — за Волю)" in card.text and reading.net >= 1
