"""Telegram misbehaving and odd update streams: nothing is lost, nothing is doubled."""

from __future__ import annotations

import json
import re

from sqlalchemy import text

from tests.conftest import Harness

USERS = [2001, 2002, 2003, 2004]


async def test_429_and_5xx_bursts_deliver_every_message_once(running: Harness) -> None:
    emu = running.emu
    for uid in USERS:
        emu.add_user(uid, f"U{uid}", language_code="en")
    # Five faults in all: even if one request met every one of them it stays within the
    # middleware's six retries, so the test is about delivery, not about giving up.
    emu.add_fault("sendMessage", status=429, retry_after=1, times=2)
    emu.add_fault("sendMessage", status=500, times=2)
    emu.add_fault("sendMessage", status=502, times=1, chat_id=USERS[0])
    for uid in USERS:
        for n in range(3):
            emu.send_text(uid, uid, f"/r 1d{n + 4}")
    await emu.wait_for(
        lambda: all(sum("Log #" in m.text for m in emu.bot_messages(uid)) == 3 for uid in USERS),
        timeout=60,
    )
    await emu.wait_idle()
    for uid in USERS:
        texts = [m.text for m in emu.bot_messages(uid)]
        rolls = [t for t in texts if "Log #" in t]
        assert len(rolls) == 3, texts  # each roll answered exactly once
        for n in range(3):
            # a word of its own: a hash in the text may hold "1d4" as hex digits
            assert sum(bool(re.search(rf"\b1d{n + 4}\b", t)) for t in rolls) == 1
    async with running.engine.connect() as conn:
        assert (await conn.execute(text("SELECT count(*) FROM rolls"))).scalar_one() == 12


async def test_out_of_order_and_jumping_update_ids_are_each_handled_once(
    running: Harness,
) -> None:
    emu = running.emu
    emu.add_user(USERS[0], "Una", language_code="en")
    emu.send_text(USERS[0], USERS[0], "hello")  # she has started the bot
    # Injected raw: the emulator has never seen these messages, like messages deleted before
    # the bot answered; the replies must still go out.
    user = {"id": USERS[0], "is_bot": False, "first_name": "Una", "language_code": "en"}
    chat = {"id": USERS[0], "type": "private", "first_name": "Una"}
    for update_id, expr in ((900, "1d6"), (50, "1d8"), (10_000_000, "1d10"), (51, "1d12")):
        emu.inject_update(
            {
                "update_id": update_id,
                "message": {
                    "message_id": update_id % 100_000,
                    "date": 0,
                    "chat": chat,
                    "from": user,
                    "text": f"/r {expr}",
                    "entities": [{"type": "bot_command", "offset": 0, "length": 2}],
                },
            }
        )
    await emu.wait_for(
        lambda: sum("Log #" in m.text for m in emu.bot_messages(USERS[0])) == 4, timeout=30
    )
    emu.redeliver(50)
    emu.redeliver(10_000_000)
    await emu.wait_idle()
    assert sum("Log #" in m.text for m in emu.bot_messages(USERS[0])) == 4


async def test_dropped_database_connections_lose_no_update(running: Harness) -> None:
    """The update pools do not ping on checkout (three round trips each); when the server
    drops every connection (a restart, a failover) the next updates start again on fresh
    connections instead of failing."""
    emu = running.emu
    emu.add_user(USERS[1], "Bo", language_code="en")
    emu.send_text(USERS[1], USERS[1], "/r 1d6")
    await emu.wait_for(lambda: sum("Log #" in m.text for m in emu.bot_messages(USERS[1])) == 1)
    await emu.wait_idle()
    async with running.engine.connect() as conn:
        killed = await conn.execute(
            text(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        )
        assert killed.scalar_one() >= 2  # the bot's unit-of-work and FSM connections
    for expr in ("1d8", "1d10", "1d12"):
        emu.send_text(USERS[1], USERS[1], f"/r {expr}")
    await emu.wait_for(
        lambda: sum("Log #" in m.text for m in emu.bot_messages(USERS[1])) == 4, timeout=30
    )
    texts = [m.text for m in emu.bot_messages(USERS[1])]
    assert not any("went wrong" in t for t in texts), texts
    async with running.engine.connect() as conn:
        assert (await conn.execute(text("SELECT count(*) FROM rolls"))).scalar_one() == 4


async def test_updates_left_in_the_inbox_are_handled_on_the_next_start(running: Harness) -> None:
    """A process killed after confirming a batch to Telegram but before handling it leaves the
    updates in ``update_inbox``: the next start handles them (and only those not committed)."""
    emu = running.emu
    emu.add_user(USERS[2], "Cy", language_code="en")
    emu.send_text(USERS[2], USERS[2], "/r 1d4")
    await emu.wait_for(lambda: sum("Log #" in m.text for m in emu.bot_messages(USERS[2])) == 1)
    await emu.wait_idle()
    assert running.runtime is not None
    bot_id = running.runtime.bot.id
    await running.stop()
    user = {"id": USERS[2], "is_bot": False, "first_name": "Cy", "language_code": "en"}
    chat = {"id": USERS[2], "type": "private", "first_name": "Cy"}

    def update(update_id: int, expr: str) -> str:
        message = {
            "message_id": 70_000 + update_id % 1000, "date": 0, "chat": chat, "from": user,
            "text": f"/r {expr}", "entities": [{"type": "bot_command", "offset": 0, "length": 2}],
        }  # fmt: skip
        return json.dumps({"update_id": update_id, "message": message})

    async with running.engine.begin() as conn:
        for update_id, expr in ((8_000_001, "1d6"), (8_000_002, "1d8")):
            await conn.execute(
                text(
                    "INSERT INTO update_inbox (bot_id, update_id, payload) "
                    "VALUES (:b, :u, CAST(:p AS jsonb))"
                ),
                {"b": bot_id, "u": update_id, "p": update(update_id, expr)},
            )
        # one that was committed before the kill: dropped, not handled twice
        await conn.execute(
            text("INSERT INTO processed_updates (bot_id, update_id) VALUES (:b, 8000003)"),
            {"b": bot_id},
        )
        await conn.execute(
            text(
                "INSERT INTO update_inbox (bot_id, update_id, payload) "
                "VALUES (:b, 8000003, CAST(:p AS jsonb))"
            ),
            {"b": bot_id, "p": update(8_000_003, "1d10")},
        )
    await running.start()
    await emu.wait_for(
        lambda: sum("Log #" in m.text for m in emu.bot_messages(USERS[2])) == 3, timeout=30
    )
    await emu.wait_idle()
    texts = [m.text for m in emu.bot_messages(USERS[2]) if "Log #" in m.text]
    assert len(texts) == 3 and not any(re.search(r"\b1d10\b", t) for t in texts), texts
    async with running.engine.connect() as conn:
        left = (await conn.execute(text("SELECT count(*) FROM update_inbox"))).scalar_one()
        rolls = (await conn.execute(text("SELECT count(*) FROM rolls"))).scalar_one()
    assert (left, rolls) == (0, 3)
