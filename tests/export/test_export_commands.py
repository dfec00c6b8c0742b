"""/export's answers besides the file: the private chat's picker when a player has several
characters, nothing to export, /export in a group for someone who is not the GM."""

from __future__ import annotations

from tests.conftest import Harness
from tests.export.helpers import (
    FRESH,
    file_json,
    legal_sheet,
    new_game,
    seat_tables,
    wait_document,
)
from tests.games.helpers import ALICE, BOB, GROUP, buttons
from tests.helpers.table import WAIT, insert_character, send_and_answer


async def test_a_player_with_several_characters_picks_one(running: Harness) -> None:
    h = running
    seat_tables(h)
    await new_game(h, GROUP, "fate", "Old table")
    await new_game(h, FRESH, "cliche", "New table")
    await insert_character(h, "fate", legal_sheet("fate", "Кира"), owner=ALICE)
    await insert_character(h, "cliche", legal_sheet("cliche", "Ёж"), owner=ALICE, chat_id=FRESH)
    picker = await send_and_answer(h, ALICE, "/export", chat_id=ALICE)
    choices = [b for b in buttons(picker) if b["callback_data"].startswith("xpk:")]
    assert [b["text"] for b in choices] == ["Кира · Old table", "Ёж · New table"]
    pressed = h.emu.press(ALICE, ALICE, picker.message_id, choices[1]["callback_data"])
    await h.emu.wait_callback_answer(pressed.callback_query_id, timeout=WAIT)
    document = file_json(await wait_document(h, ALICE, picker.message_id))
    assert document["system"] == "cliche" and document["character"]["name"] == "Ёж"
    # By name, no picker.
    sent = h.emu.send_text(ALICE, ALICE, "/export Кира")
    document = file_json(await wait_document(h, ALICE, sent.message_id))
    assert document["character"]["name"] == "Кира"
    # Someone else sending that button's data (a forged press) exports nothing.
    empty = await send_and_answer(h, BOB, "/export", chat_id=BOB)
    forged = h.emu.press(BOB, BOB, empty.message_id, choices[0]["callback_data"])
    answer = await h.emu.wait_callback_answer(forged.callback_query_id, timeout=WAIT)
    assert answer.text and not [m for m in h.emu.bot_messages(BOB) if m.document]


async def test_nothing_to_export_and_the_group_hint(running: Harness) -> None:
    h = running
    seat_tables(h)
    await new_game(h, GROUP, "fate", "Old table")
    empty = await send_and_answer(h, BOB, "/export", chat_id=BOB)
    assert "no characters" in empty.text or "нет персонажей" in empty.text, empty.text
    hint = await send_and_answer(h, BOB, "/export game")
    assert "/export game" in hint.text and not hint.document
    assert not [m for m in h.emu.bot_messages(GROUP) if m.document]
