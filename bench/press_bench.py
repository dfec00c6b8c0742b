"""Press → answer in a group whose 20 messages a minute are spent, with Telegram's own pacing.

A filler spends the group's minute with /help (its later replies queue for the next minute);
meanwhile six players press the /start greeting's buttons (each press edits the greeting, a
paced call) and someone else's /newgame system picker (refused in words), a press every
``INTERVAL`` seconds, about as fast as the chat's one edit a second lets the edits keep up.
The figure is the time from the press reaching the emulator to its answer reaching it; the
answer goes before the edit (``bot/answers.py``), so it should not move with the pacing.
Also reported: whether the group's budget stayed spent throughout, and press → edit.
"""

from __future__ import annotations

import asyncio
import statistics
import time
import uuid
from typing import Any

from bot.config import Settings
from bot.outbound import Limits
from db.database import create_engine, migrate
from tabletop.app import build_runtime
from tests.conftest import create_database, drop_database, with_database
from tgemu import BotAPIEmulator, ChatMessage
from tgemu.types import EmuEvent

GM, FILLER = 40_001, 40_002
PLAYERS = tuple(range(40_010, 40_016))
GROUP = -4_000_001
INTERVAL = 0.8  # seconds between presses
TARGET_P99_MS = 300.0


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(share * len(ordered)) - 1))]


async def _spend_budget(emu: BotAPIEmulator) -> tuple[ChatMessage, ChatMessage, float]:
    """The greeting and the picker, then the filler's /help until 20 messages went out and
    four more replies wait. Returns both messages and when the minute frees again."""
    emu.send_text(GM, GROUP, "/start")
    greeting = await emu.wait_bot_message(GROUP, timeout=30)
    emu.send_text(GM, GROUP, "/newgame")
    picker = await emu.wait_bot_message(GROUP, after=greeting.message_id, timeout=30)
    for _ in range(18 + 4):
        emu.send_text(FILLER, GROUP, "/help")
    await emu.wait_for(lambda: len(emu.bot_messages(GROUP)) >= 20, timeout=60)
    frees_at = greeting.sent_at + 60.0
    return greeting, picker, frees_at


async def _press(
    emu: BotAPIEmulator, greeting: ChatMessage, picker: ChatMessage, frees_at: float
) -> tuple[list[float], list[float], bool]:
    """Press until shortly before the minute frees; latencies to the answer and to the edit."""
    pressed: dict[str, float] = {}
    answered: dict[str, float] = {}
    edited: list[float] = []
    pending_edit: list[float] = []

    def record(event: EmuEvent) -> None:
        if event.kind == "callback_answer" and event.answer is not None:
            answered[event.answer.callback_query_id] = event.answer.answered_at
        elif event.kind == "edit" and event.message is greeting and pending_edit:
            # edits of one message coalesce (bot/edits.py): one edit shows every press before it
            now = time.monotonic()
            edited.extend(now - at for at in pending_edit)
            pending_edit.clear()

    unsubscribe = emu.subscribe(record)
    spent_throughout = True
    try:
        i = 0
        while time.monotonic() < frees_at - 2 * INTERVAL:
            player = PLAYERS[i % len(PLAYERS)]
            if i % 2 == 0:
                data = str(greeting.buttons()[0]["callback_data"])  # Help ⇄ Back
                target = greeting
            else:
                data = str(picker.buttons()[0]["callback_data"])  # not this player's: refused
                target = picker
            at = time.monotonic()
            query = emu.press(player, GROUP, target.message_id, data).callback_query_id
            pressed[query] = at
            if target is greeting:
                pending_edit.append(at)
            i += 1
            await asyncio.sleep(INTERVAL)
            spent_throughout &= len(emu.bot_messages(GROUP)) == 20
        await emu.wait_for(lambda: all(q in answered for q in pressed), timeout=60)
    finally:
        unsubscribe()
    latencies = [(answered[q] - at) * 1000 for q, at in pressed.items()]
    return latencies, [e * 1000 for e in edited], spent_throughout


async def run(admin_url: str) -> dict[str, Any]:
    name = f"bench_press_{uuid.uuid4().hex[:8]}"
    await create_database(admin_url, name)
    url = with_database(admin_url, name)
    engine = create_engine(url)
    emu = BotAPIEmulator()
    await emu.start(host="127.0.0.1", port=0)
    try:
        await migrate(engine)
        emu.add_user(GM, "GM", language_code="en")
        emu.add_user(FILLER, "Filler", language_code="en")
        for uid in PLAYERS:
            emu.add_user(uid, f"P{uid}", language_code="en")
        emu.add_group(GROUP, "Busy table", members=[GM, FILLER, *PLAYERS], creator=GM)
        settings = Settings.model_validate({"DATABASE_URL": url, "BOT_TOKEN": "x"})
        runtime = build_runtime(
            token=emu.token, api_url=emu.base_url, engine=engine, settings=settings,
            limits=Limits(),  # Telegram's: 1 a second per chat after 3, 20 a minute per group
        )  # fmt: skip
        runtime.start_polling()
        try:
            greeting, picker, frees_at = await _spend_budget(emu)
            latencies, edits, spent = await _press(emu, greeting, picker, frees_at)
        finally:
            await runtime.stop()
    finally:
        await emu.stop()
        await engine.dispose()
        await drop_database(admin_url, name)
    p99 = round(_percentile(latencies, 0.99), 1)
    return {
        "presses": len(latencies),
        "press_interval_s": INTERVAL,
        "budget_spent_throughout": spent,
        "press_to_answer_p50_ms": round(statistics.median(latencies), 1),
        "press_to_answer_p99_ms": p99,
        "press_to_answer_max_ms": round(max(latencies), 1),
        "press_to_edit_p50_ms": round(statistics.median(edits), 1) if edits else None,
        "targets": {f"p99_ms<={TARGET_P99_MS:g}": p99 <= TARGET_P99_MS},
    }
