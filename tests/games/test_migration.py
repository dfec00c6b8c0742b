"""A group that becomes a supergroup keeps its game, its roll log and its language."""

from __future__ import annotations

import asyncio

from sqlalchemy import text

from tests.conftest import Harness
from tests.games.helpers import ALICE, GM, GROUP, create_game, seat_table


async def test_supergroup_migration_keeps_game_and_log(running: Harness) -> None:
    seat_table(running)
    emu = running.emu
    await create_game(running, "fate", "Хроники")
    emu.send_text(ALICE, GROUP, "/r 4dF")
    await emu.wait_bot_message(GROUP, contains="№1")
    new_id = emu.migrate_to_supergroup(GROUP)
    for _ in range(100):  # the service update carries no reply: watch the database instead
        async with running.engine.connect() as conn:
            moved = (await conn.execute(text("SELECT chat_id FROM games"))).scalar_one() == new_id
        if moved:
            break
        await asyncio.sleep(0.05)
    assert moved

    emu.send_text(ALICE, new_id, "/game")
    card = await emu.wait_bot_message(new_id, contains="Хроники")
    assert "Мастер" in card.text
    emu.send_text(ALICE, new_id, "/r 4dF")
    second = await emu.wait_bot_message(new_id, contains="№2")  # the same log goes on
    emu.send_text(GM, new_id, "/log")
    log = await emu.wait_bot_message(new_id, after=second.message_id)
    assert "#1" in log.text and "#2" in log.text
