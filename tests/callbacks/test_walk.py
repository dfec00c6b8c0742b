"""A seeded random walk: six users type commands and press whatever buttons the bot shows in
three groups, under Telegram's pacing (1 message a second per chat after a burst of three, 20
a minute per group) on a clock the walk moves. Every press is answered while the clock stands
still — so without waiting for any paced send or edit — and every press exactly once.

``WALK_SEED`` and ``WALK_STEPS`` explore further walks."""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import AsyncIterator

import pytest

from tabletop.app import UPDATE_CONCURRENCY
from tests.callbacks.helpers import ManualClock, pace_on
from tests.conftest import Harness
from tgemu import BotAPIEmulator

SEED = int(os.environ.get("WALK_SEED", "20261203"))
STEPS = int(os.environ.get("WALK_STEPS", "300"))
USERS = (3001, 3002, 3003, 3004, 3005, 3006)
GROUPS = {
    -100_931: USERS[:4],
    -100_932: USERS[2:],
    -100_933: (USERS[0], USERS[1], USERS[4], USERS[5]),
}
COMMANDS = ("/start", "/help", "/newgame", "/newgame Хроники", "/game", "/r 2d6", "/r 4dF+1")
FROZEN = 15.0  # seconds to wait for an answer while the clock stands still


@pytest.fixture
async def walk(harness: Harness) -> AsyncIterator[tuple[BotAPIEmulator, ManualClock]]:
    clock = ManualClock()
    runtime = harness.build()
    pace_on(runtime.bot, clock)
    await harness.start(runtime)
    emu = harness.emu
    for uid in USERS:
        emu.add_user(uid, f"U{uid}", language_code=("ru", "en")[uid % 2])
    for chat, members in GROUPS.items():
        emu.add_group(chat, f"Table {chat}", members=members, creator=members[0])
    yield emu, clock
    for _ in range(20):  # whatever still waits goes out, so the bot can stop
        clock.advance(60.0)
        await asyncio.sleep(0.01)


async def _let_time_pass_while_busy(h: Harness, clock: ManualClock) -> None:
    """Updates waiting for pacing hold polling slots (``UPDATE_CONCURRENCY``), and a press
    that finds none left is not even received until one frees (a matter of the polling loop,
    not of answering): with half of them taken, the walk lets the clock run first."""
    assert h.runtime is not None
    in_flight = h.runtime.dispatcher["in_flight"]
    for _ in range(100):
        if in_flight._count < UPDATE_CONCURRENCY // 2:  # private, read for this guard only
            return
        clock.advance(2.0)
        await asyncio.sleep(0.05)
    raise AssertionError("the bot stays busy although the clock runs")


def _buttons(emu: BotAPIEmulator, chat: int) -> list[tuple[int, str]]:
    """The callback buttons of the chat's five newest bot messages that have any."""
    shown = [m for m in emu.bot_messages(chat) if not m.deleted and m.has_keyboard]
    return [
        (m.message_id, str(b["callback_data"]))
        for m in shown[-5:]
        for b in m.buttons()
        if "callback_data" in b
    ]


async def test_every_press_of_a_random_walk_is_answered_at_once_and_once(
    harness: Harness, walk: tuple[BotAPIEmulator, ManualClock]
) -> None:
    emu, clock = walk
    rng = random.Random(SEED)
    presses: list[tuple[str, str]] = []
    for step in range(STEPS):
        await _let_time_pass_while_busy(harness, clock)
        chat = rng.choice(list(GROUPS))
        user = rng.choice(GROUPS[chat])
        shown = _buttons(emu, chat)
        roll = rng.random()
        if roll < 0.5 and shown:
            message_id, data = rng.choice(shown)
            query = emu.press(user, chat, message_id, data).callback_query_id
            presses.append((query, data))
            try:
                await emu.wait_for(lambda q=query: emu.callback_answers.get(q), FROZEN)
            except TimeoutError:
                pytest.fail(f"step {step}: {data!r} pressed by {user} waits for pacing")
        elif roll < 0.85:
            emu.send_text(user, chat, rng.choice(COMMANDS))
            await asyncio.sleep(0.02)  # polled before the next action
        else:
            clock.advance(rng.choice((1.0, 2.0, 5.0, 20.0)))
            await asyncio.sleep(0.02)
    for _ in range(10):  # the walk's queued replies and edits go out
        clock.advance(30.0)
        await asyncio.sleep(0.05)
    assert harness.runtime is not None
    assert await harness.runtime.dispatcher["in_flight"].wait_idle(30.0)
    assert len(presses) > STEPS // 4
    assert {
        data: emu.answer_attempts(q) for q, data in presses if emu.answer_attempts(q) != 1
    } == {}
