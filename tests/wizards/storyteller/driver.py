"""A scripted player for the storyteller wizard: press buttons by their callback suffix."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import text

from bot.middlewares import InFlightMiddleware
from tests.conftest import Harness
from tests.games.helpers import ALICE, buttons, create_game, open_wizard, seat_table
from tgemu import ChatMessage
from tgemu.state import PendingQuery


class Player:
    """Alice in her private chat with the bot, driving the newest wizard message."""

    def __init__(self, h: Harness, user_id: int = ALICE) -> None:
        self.h = h
        self.emu = h.emu
        self.user_id = user_id
        self.message: ChatMessage | None = None
        self.last_answer: Any = None

    @property
    def text(self) -> str:
        assert self.message is not None
        return self.message.text

    def labels(self) -> list[str]:
        assert self.message is not None
        return [str(b.get("text", "")) for b in buttons(self.message)]

    def index_of(self, suffix: str) -> int:
        """The button whose callback data (after the dialog's intent id) is ``suffix``."""
        assert self.message is not None
        for i, button in enumerate(buttons(self.message)):
            data = str(button.get("callback_data", ""))
            if data.split("\x1d", 1)[-1] == suffix:
                return i
        calls = [
            (round(c.at, 3), c.method, c.ok, str(c.params.get("text", ""))[:30])
            for c in self.emu.calls[-8:]
        ]
        raise AssertionError(f"no button {suffix!r} in {self.labels()}; calls {calls}")

    def data_of(self, suffix: str) -> str:
        assert self.message is not None
        return str(buttons(self.message)[self.index_of(suffix)]["callback_data"])

    def label_of(self, suffix: str) -> str:
        return self.labels()[self.index_of(suffix)]

    async def start(self, options: dict[str, Any] | None = None) -> ChatMessage:
        """Seat the table, create the game (with these creation options, as the GM would set
        them with /options), and follow the deep link into the wizard."""
        seat_table(self.h)
        announcement = await create_game(self.h, "storyteller", "Грёзы")
        if options is not None:
            async with self.h.engine.begin() as conn:
                await conn.execute(
                    text("UPDATE games SET options = CAST(:o AS jsonb)"),
                    {"o": json.dumps(options)},
                )
        self.message = await open_wizard(self.h, self.user_id, announcement)
        return self.message

    async def press(self, suffix: str, times: int = 1) -> ChatMessage:
        for _ in range(times):
            assert self.message is not None
            pressed = self.emu.press_button(
                self.user_id, self.user_id, self.message.message_id, self.index_of(suffix)
            )
            self.last_answer = await self.emu.wait_callback_answer(pressed.callback_query_id)
            await self.settled()
        assert self.message is not None
        return self.message

    async def settled(self) -> ChatMessage:
        """The wizard's newest message once the bot has finished every update it took.

        Waiting on the bot's own in-flight counter (not on a quiet period) matters: the dialog
        saves its state after it has edited the message and answered the press, and a press
        sent before that would find the previous step.
        """
        runtime = self.h.runtime
        assert runtime is not None
        in_flight: InFlightMiddleware = runtime.dispatcher["in_flight"]
        assert await in_flight.wait_idle(5.0)
        latest = self.emu.last_bot_message(self.user_id)
        assert latest is not None
        self.message = latest
        for button in buttons(latest):  # every keyboard the wizard shows fits Telegram's limit
            assert len(str(button.get("callback_data", "")).encode()) <= 64, button
        return latest

    async def say(self, answer: str) -> ChatMessage:
        self.emu.send_text(self.user_id, self.user_id, answer)
        await self.emu.wait_idle()  # the wizard's one message is edited in place
        return await self.settled()

    async def plus(self, **dots: int) -> None:
        """Raise traits on the current page: ``plus(strength=2)``."""
        for key, n in dots.items():
            await self.press(f"d:{key}:p", n)


def press_as(h: Harness, user_id: int, chat_id: int, message_id: int, data: str) -> str:
    """A callback query from ``user_id`` on a message of someone else's private chat.

    The emulator's ``press`` refuses this (Telegram never shows one user's private chat to
    another), so the update is forged from the emulator's state the same way ``press`` does.
    """
    state = h.emu._state  # outside the public API on purpose, see above
    msg = state.message(chat_id, message_id)
    assert msg is not None
    query_id = state.next_query_id()
    state.pending_queries[query_id] = PendingQuery(user_id, chat_id, message_id, data)
    state.queue.put(
        {
            "callback_query": {
                "id": query_id,
                "from": state.user_api(user_id),
                "message": state.message_api(msg),
                "chat_instance": str(abs(chat_id) * 7919 + h.emu.bot_id),
                "data": data,
            }
        }
    )
    return query_id


async def count_characters(h: Harness) -> int:
    async with h.engine.connect() as conn:
        return int((await conn.execute(text("SELECT count(*) FROM characters"))).scalar_one())


async def keep_draft_as(h: Harness, key: str) -> int:
    """Store the wizards in progress as a hand-written predecessor did: the flow's draft under
    ``key`` in ``dialog_data`` (the bot stopped meanwhile). How many states it changed."""
    moved = f"""UPDATE fsm_states SET data = CAST(replace(data::text, '"draft": {{',
                '"{key}": {{') AS jsonb) WHERE data::text LIKE '%"draft": {{%'"""
    async with h.engine.begin() as conn:
        return (await conn.execute(text(moved))).rowcount
