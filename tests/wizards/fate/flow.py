"""Driving the FATE wizard as a player: press buttons by label, type answers, read the window."""

from __future__ import annotations

from tests.conftest import Harness
from tests.games.helpers import ALICE, buttons, create_game, open_wizard, seat_table
from tgemu import ChatMessage
from tgemu.state import PendingQuery


def window(h: Harness, user: int = ALICE) -> ChatMessage:
    message = h.emu.last_bot_message(user)
    assert message is not None
    return message


def index_of(message: ChatMessage, label: str, *, offset: int = 0) -> int:
    """The first button whose text starts with ``label`` (``offset`` steps right of it)."""
    found = [i for i, b in enumerate(buttons(message)) if b["text"].startswith(label)]
    assert found, f"no button {label!r} in {[b['text'] for b in buttons(message)]}"
    return found[0] + offset


async def press(h: Harness, label: str, *, offset: int = 0, user: int = ALICE) -> ChatMessage:
    message = window(h, user)
    pressed = h.emu.press_button(
        user, user, message.message_id, index_of(message, label, offset=offset)
    )
    await h.emu.wait_callback_answer(pressed.callback_query_id)
    await h.emu.wait_idle()
    return window(h, user)


async def say(h: Harness, text: str, *, user: int = ALICE) -> ChatMessage:
    h.emu.send_text(user, user, text)
    # the dialog redraws its one message in place (an edit, no new message)
    await h.emu.wait_idle()
    return window(h, user)


async def raise_skill(h: Harness, skill: str, times: int) -> ChatMessage:
    """Press «+» on a skill's row ``times`` times, turning pages until the row shows."""
    for _ in range(4):
        if any(b["text"].startswith(skill + " ") for b in buttons(window(h))):
            break
        await press(h, "➡️")
    for _ in range(times):
        await press(h, skill + " ", offset=2)
    return window(h)


async def start(h: Harness) -> ChatMessage:
    """A table with a FATE game; Alice opens the wizard (its first window)."""
    seat_table(h)
    announcement = await create_game(h, "fate", "Re:Tales")
    first = await open_wizard(h, ALICE, announcement)
    await h.emu.wait_idle()
    return first


async def fill_aspects(h: Harness) -> ChatMessage:
    """Name, concept, trouble, phase and two crossings; ends on the crossings window."""
    await say(h, "Mira <Vale>")
    await say(h, "Disgraced court alchemist")
    await say(h, "Owes the Guild everything")
    await say(h, "Burned the Archive of Tides")
    await say(h, "Saved Bob from the flood")
    return await say(h, "Shares a secret with the ferryman")


def foreign_press(h: Harness, user: int, message: ChatMessage, data: str) -> str:
    """``user`` presses a button of another user's private wizard with the same callback data.

    Telegram never shows one private chat to another user, and the emulator's ``press`` refuses
    it; this forges the update the way a hostile client could (the query is registered so the
    bot's answer is recorded like any other).
    """
    state = h.emu._state  # a forged update needs the emulator's own bookkeeping
    query_id = state.next_query_id()
    state.pending_queries[query_id] = PendingQuery(user, message.chat_id, message.message_id, data)
    h.emu.inject_update(
        {
            "callback_query": {
                "id": query_id,
                "from": state.user_api(user),
                "message": state.message_api(message),
                "chat_instance": str(abs(message.chat_id) * 7919 + h.emu.bot_id),
                "data": data,
            }
        }
    )
    return query_id


async def reach_preview(h: Harness) -> ChatMessage:
    """Aspects and the three stunts the seed asks for typed, every other step left as it is:
    the preview (warnings only)."""
    await fill_aspects(h)
    await press(h, "Next")  # → skills
    await press(h, "Next")  # → stunts
    for stunt in ("Quick hands", "Ember ward", "Old friends"):
        await say(h, stunt)
    await press(h, "Next")  # → gear
    return await press(h, "Next")  # → preview
