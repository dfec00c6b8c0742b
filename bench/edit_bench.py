"""A burst of quick presses on one message: last press → its final state visible, edits sent.

Telegram's pacing (real clock, ``Limits()``): a chat takes 3 calls at once, then 1 a second,
and a group 20 new messages a minute. Fifteen presses, ``INTERVAL`` apart, switch the start
message between its help pages, the last one back home (each press a different screen from the
one before):

* ``private``: one user in the bot's private chat, a few seconds after /start (the chat's
  burst is whole again);
* ``paced_group``: three players in a group whose 20 messages of the minute are spent (a
  filler's /help, four more replies waiting), as ``press_bench`` sets it up.

Reported per scenario: the time from the last press reaching the emulator to the message
showing the last press's screen, how many editMessageText calls reached the emulator for it,
and the presses' answers (press → answer, all of them answered). Targets: ≤ 1.5 s in a private
chat, ≤ 3 s in the paced group, fewer edits than presses.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any

from bot.config import Settings
from bot.outbound import Limits
from db.database import create_engine, migrate
from handlers.callbacks import Screen, ScreenCD
from handlers.callbacks_nav import HelpCD
from tabletop.app import build_runtime
from tests.conftest import create_database, drop_database, with_database
from tgemu import BotAPIEmulator, ChatMessage
from tgemu.types import EmuEvent

ALICE, GM, FILLER = 41_001, 41_002, 41_003
PLAYERS = (GM, 41_010, 41_011)
GROUP = -4_100_001
PRESSES = 15
INTERVAL = 0.1  # seconds between presses: quick taps
TARGET_PRIVATE_S = 1.5
TARGET_GROUP_S = 3.0
# The help pages in turn, then home: the last press's screen is shown by no other press
# (the start message begins at home), so the first edit that shows it is the burst's end.
PAGES = (HelpCD(page="gm").pack(), HelpCD(page="systems").pack(), HelpCD(page="all").pack())
HOME = ScreenCD(screen=Screen.HOME).pack()


def _shown(message: ChatMessage) -> str | None:
    rows = (message.reply_markup or {}).get("inline_keyboard", [])
    labels = [str(b.get("text", "")) for row in rows for b in row]
    return next((label for label in labels if label.startswith("•")), None)


async def _burst(
    emu: BotAPIEmulator, chat_id: int, pressers: tuple[int, ...], message: ChatMessage
) -> dict[str, Any]:
    """Press ``PRESSES`` times; wait for the last state to show and every press's answer."""
    shown_at: list[float] = []

    def record(event: EmuEvent) -> None:
        if event.kind == "edit" and event.message is message and _shown(message) is None:
            shown_at.append(time.monotonic())

    edits_before = _edits(emu, message)
    unsubscribe = emu.subscribe(record)
    pressed: dict[str, float] = {}
    try:
        for i in range(PRESSES):
            data = HOME if i == PRESSES - 1 else PAGES[i % len(PAGES)]
            presser = pressers[i % len(pressers)]
            query = emu.press(presser, chat_id, message.message_id, data).callback_query_id
            pressed[query] = time.monotonic()
            if i < PRESSES - 1:
                await asyncio.sleep(INTERVAL)
        last = time.monotonic()
        await emu.wait_for(lambda: bool(shown_at), timeout=60)
        await emu.wait_for(lambda: all(q in emu.callback_answers for q in pressed), 60)
        await asyncio.sleep(2.0)  # anything still on its way
    finally:
        unsubscribe()
    answers = [(emu.callback_answers[q].answered_at - at) * 1000 for q, at in pressed.items()]
    return {
        "presses": PRESSES,
        "press_interval_s": INTERVAL,
        "last_press_to_final_state_ms": round((shown_at[0] - last) * 1000, 1),
        "edits_sent": _edits(emu, message) - edits_before,
        "answered": sum(1 for q in pressed if emu.answer_attempts(q) == 1),
        "press_to_answer_max_ms": round(max(answers), 1),
        "final_state_shown": _shown(message) is None,
    }


def _edits(emu: BotAPIEmulator, message: ChatMessage) -> int:
    return sum(
        1
        for call in emu.calls_to("editMessageText")
        if str(call.params.get("message_id")) == str(message.message_id)
    )


async def _private(emu: BotAPIEmulator) -> dict[str, Any]:
    emu.send_text(ALICE, ALICE, "/start")
    greeting = await emu.wait_bot_message(ALICE, timeout=30)
    await asyncio.sleep(3.0)  # the user reads: the chat's burst is whole again
    return await _burst(emu, ALICE, (ALICE,), greeting)


async def _paced_group(emu: BotAPIEmulator) -> dict[str, Any]:
    emu.send_text(GM, GROUP, "/start")
    greeting = await emu.wait_bot_message(GROUP, timeout=30)
    for _ in range(19 + 4):
        emu.send_text(FILLER, GROUP, "/help")
    await emu.wait_for(lambda: len(emu.bot_messages(GROUP)) >= 20, timeout=90)
    result = await _burst(emu, GROUP, PLAYERS, greeting)
    result["budget_spent_throughout"] = len(emu.bot_messages(GROUP)) == 20
    return result


async def run(admin_url: str) -> dict[str, Any]:
    name = f"bench_edits_{uuid.uuid4().hex[:8]}"
    await create_database(admin_url, name)
    url = with_database(admin_url, name)
    engine = create_engine(url)
    emu = BotAPIEmulator()
    await emu.start(host="127.0.0.1", port=0)
    try:
        await migrate(engine)
        for uid in (ALICE, FILLER, *PLAYERS):
            emu.add_user(uid, f"U{uid}", language_code="en")
        emu.add_group(GROUP, "Busy table", members=[FILLER, *PLAYERS], creator=GM)
        settings = Settings.model_validate({"DATABASE_URL": url, "BOT_TOKEN": "x"})
        runtime = build_runtime(
            token=emu.token, api_url=emu.base_url, engine=engine, settings=settings,
            limits=Limits(),  # Telegram's: 1 a second per chat after 3, 20 a minute per group
        )  # fmt: skip
        runtime.start_polling()
        try:
            private = await _private(emu)
            group = await _paced_group(emu)
        finally:
            await runtime.stop()
    finally:
        await emu.stop()
        await engine.dispose()
        await drop_database(admin_url, name)
    return {
        "private": private,
        "paced_group": group,
        "targets": {
            f"private_final_state_ms<={TARGET_PRIVATE_S * 1000:g}": (
                private["last_press_to_final_state_ms"] <= TARGET_PRIVATE_S * 1000
            ),
            f"paced_group_final_state_ms<={TARGET_GROUP_S * 1000:g}": (
                group["last_press_to_final_state_ms"] <= TARGET_GROUP_S * 1000
            ),
            "fewer_edits_than_presses": (
                private["edits_sent"] < PRESSES and group["edits_sent"] < PRESSES
            ),
        },
    }
