"""Presses are answered at once, before anything waits for pacing, even in a group whose 20
messages a minute are spent: over the emulator and real Postgres, pacing on a clock that only
the test moves. While it stands still nothing paced can go out, so an answer that arrives
did not wait for pacing (no timing is measured)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from tests.callbacks.helpers import ManualClock, limiter_of, pace_on
from tests.conftest import Harness
from tests.games.helpers import GM as MASTER
from tests.games.helpers import GROUP as TABLE
from tests.games.helpers import buttons, create_game, seat_table
from tgemu import BotAPIEmulator, CallbackAnswer, ChatMessage
from tgemu.types import EmuEvent

GM, FILLER, PLAYER = 2001, 2002, 2003
GROUP = -100_900
FROZEN = 15.0  # seconds to wait for what needs no pacing; the clock stays still meanwhile


class Table:
    """A group whose budget the filler spends with /help; the events the emulator reports."""

    def __init__(self, h: Harness, clock: ManualClock) -> None:
        self.h = h
        self.emu: BotAPIEmulator = h.emu
        self.clock = clock
        self.events: list[EmuEvent] = []
        self.emu.subscribe(self.events.append)
        for uid, name in ((GM, "Мастер"), (FILLER, "Fill"), (PLAYER, "Player")):
            self.emu.add_user(uid, name, language_code="en")
        self.emu.add_group(GROUP, "Table", members=[GM, FILLER, PLAYER], creator=GM)

    async def say(self, user: int, text: str) -> ChatMessage:
        """A command whose reply goes out at once (the budget is not spent yet)."""
        sent = self.emu.send_text(user, GROUP, text)
        self.clock.advance(1.0)  # a token of the chat's 1/s bucket
        return await self.emu.wait_bot_message(GROUP, after=sent.message_id, timeout=FROZEN)

    async def spend_budget(self) -> None:
        """The bot's 20 messages of this minute go out; one more reply then waits for the
        window (holding the chat's turn), and the clock stops."""
        while sum(1 for m in self.emu.bot_messages(GROUP)) < 20:
            await self.say(FILLER, "/help")
        self.emu.send_text(FILLER, GROUP, "/help")
        limiter = limiter_of(self.h)
        await self.emu.wait_for(lambda: limiter.chat(GROUP).lock.locked(), timeout=FROZEN)

    async def answer(
        self, user: int, message: ChatMessage, data: str
    ) -> tuple[str, CallbackAnswer]:
        """Press and wait for the answer with the clock standing still."""
        query = self.emu.press(user, GROUP, message.message_id, data).callback_query_id
        answer = await self.emu.wait_for(lambda: self.emu.callback_answers.get(query), FROZEN)
        return query, answer

    async def release(self) -> None:
        """Let two minutes pass: whatever waited goes out, and the bot finishes its updates."""
        for _ in range(8):
            self.clock.advance(15.0)
            await asyncio.sleep(0.05)  # the sleepers wake and take their turns
        assert self.h.runtime is not None
        assert await self.h.runtime.dispatcher["in_flight"].wait_idle(FROZEN)
        await self.emu.wait_idle(timeout=FROZEN)

    def order(self, query: str, message: ChatMessage) -> list[str]:
        """The press's answer and the edits of ``message``, as the emulator received them."""
        return [
            e.kind
            for e in self.events
            if (e.answer is not None and e.answer.callback_query_id == query)
            or (e.kind == "edit" and e.message is not None and e.message is message)
        ]


def data_of(message: ChatMessage, prefix: str) -> str:
    return next(
        b["callback_data"] for b in buttons(message) if b["callback_data"].startswith(prefix)
    )


@pytest.fixture
async def table(harness: Harness) -> AsyncIterator[Table]:
    clock = ManualClock()
    runtime = harness.build()
    pace_on(runtime.bot, clock)
    await harness.start(runtime)
    yield Table(harness, clock)
    for _ in range(20):  # whatever still waits (a failed test) goes out, so the bot can stop
        clock.advance(60.0)
        await asyncio.sleep(0.01)


async def test_greeting_button_answered_before_its_paced_edit(
    harness: Harness, table: Table
) -> None:
    greeting = await table.say(GM, "/start")
    await table.spend_budget()
    query, _ = await table.answer(PLAYER, greeting, data_of(greeting, "scr:help"))
    assert greeting.edits == 0  # the edit waits for the chat's turn; the answer did not
    await table.release()
    assert table.order(query, greeting) == ["callback_answer", "edit"]
    assert "/odds" in greeting.text  # the help screen, shown once the minute passed
    assert harness.emu.answer_attempts(query) == 1


async def test_system_picker_answered_before_its_paced_edit(
    harness: Harness, table: Table
) -> None:
    picker = await table.say(GM, "/newgame")
    await table.spend_budget()
    # Someone else's tap is refused in words, at once: a refusal needs no paced call.
    refused, answer = await table.answer(PLAYER, picker, data_of(picker, "ng:fate:"))
    assert answer.show_alert and answer.text == "Only the one who typed /newgame can choose."
    query, answer = await table.answer(GM, picker, data_of(picker, "ng:fate:"))
    assert not answer.show_alert and picker.edits == 0
    await table.release()
    assert table.order(query, picker) == ["callback_answer", "edit"]
    assert [harness.emu.answer_attempts(q) for q in (refused, query)] == [1, 1]


async def test_refusal_read_from_telegram_keeps_its_words_while_the_budget_is_spent(
    harness: Harness, table: Table
) -> None:
    """The language screen asks Telegram whether the presser is a chat admin: a read, which
    does not queue behind the chat's paced sends, so the refusal is the answer's text."""
    greeting = await table.say(GM, "/start")
    await table.spend_budget()
    query, answer = await table.answer(PLAYER, greeting, data_of(greeting, "scr:lang"))
    assert answer.show_alert and answer.text == (
        "Only the chat's admins and the GM can change its language."
    )
    await table.release()
    assert greeting.edits == 0 and harness.emu.answer_attempts(query) == 1


async def test_press_behind_the_same_users_paced_reply_is_answered_at_once(
    harness: Harness, table: Table
) -> None:
    """The filler's press waits for the filler's own /help (one update at a time per chat and
    user), whose reply waits for the minute: the press is answered meanwhile, without text
    (its handler has not run), and handled once the reply went out."""
    greeting = await table.say(GM, "/start")
    await table.spend_budget()
    query, answer = await table.answer(FILLER, greeting, data_of(greeting, "scr:help"))
    assert answer.text is None and greeting.edits == 0
    await table.release()
    assert table.order(query, greeting) == ["callback_answer", "edit"]
    assert harness.emu.answer_attempts(query) == 1


async def test_a_second_press_behind_the_first_ones_paced_edit_keeps_its_refusal(
    running: Harness,
) -> None:
    """Issue 36 item 8: the GM confirms retiring an NPC twice; the first press's edit waits
    for the chat's turn (the clock stands still) while the second waits behind it (one update
    at a time per user). The second runs beside it and is refused in words, at once."""
    emu = running.emu
    seat_table(running)
    await create_game(running, "cliche")
    last = emu.last_bot_message(TABLE)
    emu.send_text(MASTER, TABLE, "/npc Бандит: Бандит 2")
    await emu.wait_bot_message(TABLE, after=last.message_id if last else 0)
    last = emu.last_bot_message(TABLE)
    emu.send_text(MASTER, TABLE, "/game")
    card = await emu.wait_bot_message(TABLE, after=last.message_id if last else 0)
    index = next(i for i, b in enumerate(buttons(card)) if b.get("callback_data") == "nls")
    pressed = emu.press_button(MASTER, TABLE, card.message_id, index)
    await emu.wait_callback_answer(pressed.callback_query_id)
    listing = await emu.wait_bot_message(TABLE, contains="Бандит", after=card.message_id)
    pressed = emu.press_button(MASTER, TABLE, listing.message_id, 0)  # «retire?»
    await emu.wait_callback_answer(pressed.callback_query_id)
    await emu.wait_idle()
    confirm = buttons(listing)[0]["callback_data"]
    clock = ManualClock()
    assert running.runtime is not None
    pace_on(running.runtime.bot, clock)
    limiter_of(running).chat(TABLE).tokens = 0.0  # the chat's next call waits for its turn
    try:
        first = emu.press(MASTER, TABLE, listing.message_id, confirm).callback_query_id
        await emu.wait_for(lambda: emu.callback_answers.get(first), FROZEN)
        edits = limiter_of(running).chat(TABLE).edits
        await emu.wait_for(edits.congested.is_set, FROZEN)
        second = emu.press(MASTER, TABLE, listing.message_id, confirm).callback_query_id
        answer = await emu.wait_for(lambda: emu.callback_answers.get(second), FROZEN)
        assert answer.text == "Этот НПС уже убран из игры." and answer.show_alert
    finally:
        for _ in range(4):
            clock.advance(15.0)
            await asyncio.sleep(0.05)
    await emu.wait_idle(timeout=FROZEN)
    assert [emu.answer_attempts(q) for q in (first, second)] == [1, 1]
    assert "Бандит" not in listing.text
