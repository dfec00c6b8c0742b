"""Create → /export → /import into a fresh game → the GM approves → /sheet is the same, in every
system; and the file itself: schema version, system, history, a seal that matches."""

from __future__ import annotations

import json

import pytest

from bot.systems import SYSTEMS
from engine.transfer import FORMAT, SCHEMA_VERSION, content_hash
from tests.conftest import Harness
from tests.export.helpers import (
    FRESH,
    legal_sheet,
    new_game,
    seat_tables,
    send_file,
    wait_document,
)
from tests.games.helpers import ALICE, GM, GROUP, buttons
from tests.helpers.table import WAIT, game_id, insert_character, scalar, send_and_answer


async def _approve(h: Harness, chat_id: int) -> None:
    emu = h.emu
    card = await emu.wait_for(
        lambda: next(
            (m for m in reversed(emu.bot_messages(chat_id))
             if any(b.get("callback_data", "").startswith("apv:") for b in buttons(m))),
            None,
        ),
        timeout=WAIT,
    )  # fmt: skip
    data = next(b["callback_data"] for b in buttons(card) if b["callback_data"].startswith("apv:"))
    pressed = emu.press(GM, chat_id, card.message_id, data)
    await emu.wait_callback_answer(pressed.callback_query_id, timeout=WAIT)
    await emu.wait_idle(WAIT)


async def _export(h: Harness, user: int) -> bytes:
    sent = h.emu.send_text(user, user, "/export")
    message = await wait_document(h, user, sent.message_id)
    assert message.document is not None
    return message.document.data


@pytest.mark.parametrize("system", sorted(SYSTEMS))
async def test_character_round_trip(running: Harness, system: str) -> None:
    h = running
    seat_tables(h)
    await new_game(h, GROUP, system, "Old table")
    await insert_character(h, system, legal_sheet(system, "Кира"), owner=ALICE)
    data = await _export(h, ALICE)

    document = json.loads(data)
    assert document["format"] == FORMAT and document["schema_version"] == SCHEMA_VERSION
    assert document["kind"] == "character" and document["system"] == system
    assert document["character"]["schema_version"] == SYSTEMS[system].schema_version
    assert document["character"]["history"] == []
    assert document["sha256"] == content_hash(document)

    await new_game(h, FRESH, system, "New table")
    answer = await send_file(h, ALICE, FRESH, data)
    await _approve(h, FRESH)
    old = await send_and_answer(h, GM, "/sheet Кира", chat_id=GROUP)
    new = await send_and_answer(h, GM, "/sheet Кира", chat_id=FRESH)
    assert new.text == old.text and new.html == old.html, answer.text
    fresh_id = await game_id(h, FRESH)
    stored = await scalar(
        h, "SELECT count(*) FROM characters WHERE game_id = :g AND status = 'active'", g=fresh_id
    )
    assert stored == 1
