"""A wizard press applies exactly once however the process dies (issue 35): the bot as a real
process through a TCP proxy to Postgres, SIGKILLed before each database message the press
causes in turn, relaunched, and the press's outcome compared with an undisturbed one.

Before, a wizard step's state was saved in its own transaction ahead of the update's processed
mark: killed between the two, the restarted bot handled the press again on top of its saved
state («+» on Dexterity gave two dots)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from tests.conftest import Harness
from tests.faults.helpers import BotProcess, rows
from tests.helpers.db_proxy import DbProxy
from tests.wizards.storyteller.driver import Player
from tgemu import BotAPIEmulator

WAIT = 60.0

FsmRows = dict[str, tuple[str | None, Any]]


async def _fsm(engine: AsyncEngine) -> FsmRows:
    found = await rows(engine, "SELECT key, state, data FROM fsm_states")
    return {str(key): (state, data) for key, state, data in found}


async def _restore(engine: AsyncEngine, saved: FsmRows) -> None:
    async with engine.begin() as conn:
        await conn.execute(text("DELETE FROM fsm_states"))
        for key, (state, data) in saved.items():
            await conn.execute(
                text(
                    "INSERT INTO fsm_states (key, state, data) VALUES (:k, :s, CAST(:d AS jsonb))"
                ),
                {"k": key, "s": state, "d": json.dumps(data)},
            )


def _statement(data: bytes) -> str:
    """A client message's readable start (a statement's text, or the protocol message)."""
    printable = "".join(chr(b) if 32 <= b < 127 else " " for b in data[:120])
    return " ".join(printable.split())[:60]


async def _handled(emu: BotAPIEmulator, engine: AsyncEngine, update_id: int) -> None:
    """Until the update is claimed and the bot has gone quiet."""
    sql = "SELECT count(*) FROM processed_updates WHERE update_id = :u"
    async with asyncio.timeout(WAIT):
        while (await rows(engine, sql, u=update_id))[0][0] == 0:
            await asyncio.sleep(0.02)
    await emu.wait_idle(timeout=WAIT, quiet=0.2, bot=False)


async def test_a_wizard_press_killed_before_any_of_its_statements_applies_once(
    harness: Harness, database_url: str, tmp_path: Path
) -> None:
    emu, engine = harness.emu, harness.engine
    # The storyteller wizard at its Attributes page, driven by the bot in this process.
    await harness.start()
    p = Player(harness)
    await p.start()
    await p.say("Lily")
    await p.say("runaway poet")
    for _ in range(3):
        await p.press("nx")
    assert "Physical: 0/" in p.text, p.text
    wizard, plus = p.message, p.data_of("d:dexterity:p")
    assert wizard is not None
    await harness.stop()
    before = await _fsm(engine)

    proxy = await DbProxy(database_url).start()
    bot = BotProcess(emu, proxy.url, tmp_path)
    await bot.start()
    seen = [0]
    kill_at = [0]  # the client message to kill the bot before (0: none)
    kills: list[str] = []  # what each killed message was, for the failure's message

    def watch(data: bytes) -> bool:
        seen[0] += 1
        if seen[0] != kill_at[0] or bot.pid is None or not bot.kill(bot.pid):
            return False
        proxy.cut()  # what the dead process had sent and not yet passed on is lost with it
        proxy.restore()
        kills.append(_statement(data))
        return True

    proxy.on_client_message = watch
    try:
        await bot.ready()
        # Undisturbed: what the press does.
        pressed = emu.press(p.user_id, p.user_id, wizard.message_id, plus)
        await _handled(emu, engine, pressed.update_id)
        expected = await _fsm(engine)
        assert expected != before
        # Then killed before its first message to the database, its second, … until it
        # needs fewer than that (background statements in between are kill points too).
        at = 0
        while True:
            at += 1
            await bot.ready()
            await _restore(engine, before)
            seen[0], kill_at[0], done = 0, at, len(kills)
            pressed = emu.press(p.user_id, p.user_id, wizard.message_id, plus)
            await _handled(emu, engine, pressed.update_id)
            kill_at[0] = 0
            where = f"killed before message {at} ({kills[done:]})"
            assert await _fsm(engine) == expected, where
            answers = [
                c for c in emu.calls_to("answerCallbackQuery")
                if c.ok and c.params.get("callback_query_id") == pressed.callback_query_id
            ]  # fmt: skip
            assert len(answers) == 1, f"{where}: answered {len(answers)} times"
            if len(kills) == done:  # the press went through before message ``at``
                break
    finally:
        proxy.on_client_message = None
        code = await bot.stop()
        await proxy.stop()
    logs = bot.log_text()
    assert code == 0, logs[-3000:]
    assert "Traceback" not in logs, logs[logs.index("Traceback") - 500 :][:4000]
    assert len(kills) >= 4, kills  # the claim, the dialog's read, its write, the commit
    print(f"\nwizard kill: {len(kills)} kills before {kills}")
