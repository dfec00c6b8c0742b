"""A burst of presses on one message sends its latest state, not an edit per press
(``bot/edits.py``): over the emulator and real Postgres, with Telegram's pacing on a clock that
only the test moves. While it stands still no paced edit can go out, so every press answered
and every update finished meanwhile did not wait for one (no timing is measured)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.outbound import outbound_of
from handlers.callbacks import Screen, ScreenCD
from handlers.callbacks_nav import HelpCD
from tests.callbacks.helpers import ManualClock, pace_on
from tests.callbacks.test_press_answers import GM, PLAYER, Table
from tests.conftest import Harness
from tests.games.helpers import buttons
from tgemu import ChatMessage

ALICE = 3001
FROZEN = 15.0  # seconds to wait for what needs no pacing; the clock stays still meanwhile

# The start message's screens, pressed in turn: each differs from the one before, and the
# marked button (or none, at home) says which one the message shows.
STATES = (
    (HelpCD(page="gm").pack(), "• GM"),
    (HelpCD(page="systems").pack(), "• Systems"),
    (HelpCD(page="all").pack(), "• Everyone"),
    (ScreenCD(screen=Screen.HOME).pack(), None),
)


def shown(message: ChatMessage) -> str | None:
    """The marked screen of the start message, None at home."""
    return next((str(b["text"]) for b in buttons(message) if str(b["text"]).startswith("•")), None)


def edits_of(h: Harness, message: ChatMessage) -> list[bool]:
    """The editMessageText calls on ``message``: whether each was taken."""
    return [
        call.ok
        for call in h.emu.calls_to("editMessageText")
        if call.params.get("message_id") in (message.message_id, str(message.message_id))
    ]


@pytest.fixture
async def clock(harness: Harness) -> AsyncIterator[ManualClock]:
    clock = ManualClock()
    runtime = harness.build()
    pace_on(runtime.bot, clock)
    await harness.start(runtime)
    yield clock
    for _ in range(20):  # whatever still waits (a failed test) goes out, so the bot can stop
        clock.advance(60.0)
        await asyncio.sleep(0.01)


async def _all_done(h: Harness, but: int = 0) -> None:
    """Every update the bot took has finished (``but`` of them), the clock standing still."""
    assert h.runtime is not None
    in_flight = h.runtime.dispatcher["in_flight"]
    if not but:
        assert await in_flight.wait_idle(FROZEN)
        return
    loop = asyncio.get_running_loop()
    deadline = loop.time() + FROZEN
    while in_flight.count > but:
        assert loop.time() < deadline, f"{in_flight.count} updates still in flight"
        await asyncio.sleep(0.01)


async def _release(h: Harness, clock: ManualClock) -> None:
    """Let the clock run: what was parked goes out."""
    assert h.runtime is not None
    outbound = outbound_of(h.runtime.bot)
    assert outbound is not None
    for _ in range(10):
        clock.advance(1.0)
        await asyncio.sleep(0.05)
    assert await outbound.drain(FROZEN)
    await h.emu.wait_idle(timeout=FROZEN)


async def _same_as_help(h: Harness, message: ChatMessage) -> None:
    """``message`` shows the help page «Everyone» exactly as /help does."""
    sent = h.emu.send_text(ALICE, ALICE, "/help")
    reply = await h.emu.wait_bot_message(ALICE, after=sent.message_id, timeout=FROZEN)
    assert (message.text, message.reply_markup) == (reply.text, reply.reply_markup)


async def test_a_burst_in_a_private_chat_sends_the_latest_state(
    harness: Harness, clock: ManualClock
) -> None:
    emu = harness.emu
    emu.add_user(ALICE, "Alice", language_code="en")
    emu.send_text(ALICE, ALICE, "/start")
    greeting = await emu.wait_bot_message(ALICE, timeout=FROZEN)
    presses = [STATES[i % len(STATES)] for i in range(15)]
    queries = [
        emu.press(ALICE, ALICE, greeting.message_id, data).callback_query_id for data, _ in presses
    ]
    # Every press answered and handled with the clock still: the chat's two tokens left went
    # to the first edits, the others wait as one pending edit.
    await emu.wait_for(lambda: all(q in emu.callback_answers for q in queries), FROZEN)
    await _all_done(harness)
    assert len(edits_of(harness, greeting)) <= 2
    await _release(harness, clock)
    assert shown(greeting) == presses[-1][1] == "• Everyone"
    await _same_as_help(harness, greeting)
    assert len(edits_of(harness, greeting)) < len(presses)
    assert all(edits_of(harness, greeting))
    assert [emu.answer_attempts(q) for q in queries] == [1] * len(presses)


async def test_a_burst_in_a_paced_group_sends_the_latest_state(
    harness: Harness, clock: ManualClock
) -> None:
    """Two players press the start message in a group whose minute is spent: each press's
    update ends at once (the filler's last /help alone still waits for the minute), and the
    one edit that goes out shows the last press."""
    table = Table(harness, clock)
    greeting = await table.say(GM, "/start")
    await table.spend_budget()
    queries = []
    for i in range(10):
        data, _ = STATES[i % len(STATES)]
        query, _answer = await table.answer((GM, PLAYER)[i % 2], greeting, data)
        await _all_done(harness, but=1)  # its edit is pending: the press's update is over
        queries.append(query)
    assert greeting.edits <= 1  # a token the filler's replies left, then the clock stood
    await table.release()
    assert shown(greeting) == STATES[9 % len(STATES)][1] == "• Systems"
    assert edits_of(harness, greeting) == [True] * greeting.edits and greeting.edits <= 2
    assert [harness.emu.answer_attempts(q) for q in queries] == [1] * 10


async def test_an_edit_waiting_out_a_429_goes_out_with_the_latest_state(
    harness: Harness, clock: ManualClock
) -> None:
    """The first press's edit is refused with retry_after; the presses made while it waits
    replace its state, and the retry sends the last one."""
    emu = harness.emu
    emu.add_user(ALICE, "Alice", language_code="en")
    emu.send_text(ALICE, ALICE, "/start")
    greeting = await emu.wait_bot_message(ALICE, timeout=FROZEN)
    emu.add_fault("editMessageText", status=429, retry_after=1, times=1)
    first = emu.press(ALICE, ALICE, greeting.message_id, STATES[0][0]).callback_query_id
    await emu.wait_for(lambda: edits_of(harness, greeting) == [False], FROZEN)
    queries = [first]
    for data, _ in STATES[1:3]:
        queries.append(emu.press(ALICE, ALICE, greeting.message_id, data).callback_query_id)
    await emu.wait_for(lambda: all(q in emu.callback_answers for q in queries), FROZEN)
    await _all_done(harness)
    assert edits_of(harness, greeting) == [False]  # the retry waits for the clock
    await _release(harness, clock)
    assert edits_of(harness, greeting) == [False, True]
    assert shown(greeting) == STATES[2][1]
    await _same_as_help(harness, greeting)
    assert [emu.answer_attempts(q) for q in queries] == [1, 1, 1]
