"""Driving the lifegear wizards over the emulator: press by widget id, type, wait for calm.

Buttons are found by their aiogram-dialog widget id (``<intent>\x1d<widget>[:<item>]``), so
the tests do not depend on the button labels of either language.
"""

from __future__ import annotations

import json

from sqlalchemy import text

from tests.conftest import Harness
from tests.games.helpers import GM, buttons
from tgemu import ChatMessage

SEP = "\x1d"  # aiogram-dialog puts it between the intent id and the widget id


def last(h: Harness, chat_id: int) -> ChatMessage:
    """The newest bot message by id (an edit of an older one does not make it the newest)."""
    shown = [m for m in h.emu.bot_messages(chat_id) if not m.deleted]
    assert shown, f"no bot message in chat {chat_id}"
    return max(shown, key=lambda m: m.message_id)


def widgets(message: ChatMessage) -> list[str]:
    """The widget part of every callback button: ``r:0``, ``gn``, ``__cancel__``…"""
    return [b["callback_data"].split(SEP, 1)[-1] for b in buttons(message) if "callback_data" in b]


def widget_index(message: ChatMessage, widget: str, item: str | None = None) -> int:
    """The index of the button of ``widget`` (and ``item`` for a Select) in the keyboard."""
    suffix = widget if item is None else f"{widget}:{item}"
    for index, button in enumerate(buttons(message)):
        if button.get("callback_data", "").split(SEP, 1)[-1] == suffix:
            return index
    raise AssertionError(f"no button {suffix!r} in {widgets(message)}")


def callback_data(message: ChatMessage, widget: str, item: str | None = None) -> str:
    data: str = buttons(message)[widget_index(message, widget, item)]["callback_data"]
    return data


async def settled(h: Harness) -> None:
    """Wait until the bot has finished every update it took (the dialog context is saved).

    aiogram-dialog reads a button's context before it takes the chat's lock, so a press sent
    while the previous update is still saving would act on the old step.
    """
    assert h.runtime is not None
    assert await h.runtime.dispatcher["in_flight"].wait_idle(5.0)


async def _shown_after(h: Harness, chat_id: int, pressed: ChatMessage, edits: int) -> ChatMessage:
    """Wait until the pressed message is edited or a newer one is sent; returns the newest.

    Only the pressed message counts: the keyboard of an older one may be removed late.
    """
    await h.emu.wait_for(lambda: pressed.edits > edits or last(h, chat_id) is not pressed)
    await settled(h)
    return last(h, chat_id)


async def press(h: Harness, user_id: int, widget: str, item: str | None = None) -> ChatMessage:
    """Press a dialog button in the user's private chat; returns the chat's newest bot message
    once the bot has shown the result (every press in these tests changes the window)."""
    message = last(h, user_id)
    index = widget_index(message, widget, item)
    edits = message.edits
    pressed = h.emu.press_button(user_id, user_id, message.message_id, index)
    await h.emu.wait_callback_answer(pressed.callback_query_id)
    return await _shown_after(h, user_id, message, edits)


async def say(h: Harness, user_id: int, text: str) -> ChatMessage:
    """Type in the private chat; returns the bot's newest message once it has answered (a
    wizard edits its one message in place; a command may send a new one)."""
    h.emu.send_text(user_id, user_id, text)
    await h.emu.wait_idle()
    await settled(h)
    return last(h, user_id)


async def count(h: Harness, table: str) -> int:
    async with h.engine.connect() as conn:
        return int((await conn.execute(text(f"SELECT count(*) FROM {table}"))).scalar_one())


async def write_role(
    h: Harness,
    name: str = "Стрелок",
    lives: str = "5",
    stats: str = "Стрельба: 1d8+3\nСила: 1к6",
    gear: tuple[tuple[str, str], ...] = (("weapon", "Лук: 1d6"), ("armor", "Кольчуга")),
) -> ChatMessage:
    """The GM writes one role through /roles (the GM's only lifegear game); returns the menu."""
    menu = await say(h, GM, "/roles")
    assert "new" in widgets(menu), menu.text
    await press(h, GM, "new")
    await say(h, GM, name)
    await say(h, GM, lives)
    await say(h, GM, stats)
    await press(h, GM, "sn")
    for kind, item in gear:
        await press(h, GM, "k", kind)
        await say(h, GM, item)
    await press(h, GM, "gn")
    saved = await press(h, GM, "save")
    assert name in saved.text and "new" in widgets(saved), saved.text
    return saved


SCOUT = {
    "name": "Стрелок",
    "max_lives": 5,
    "stats": [{"name": "Стрельба", "dice": "1d8+3"}, {"name": "Сила", "dice": "1d6"}],
    "gear": [
        {"id": "i1", "name": "Лук", "kind": "weapon", "dice": "1d6"},
        {"id": "i2", "name": "Кольчуга", "kind": "armor"},
    ],
}


async def seed_role(h: Harness, role: dict[str, object] = SCOUT) -> None:
    """Store a role as /roles would (quicker than the editor, for the player's tests)."""
    async with h.engine.begin() as conn:
        await conn.execute(
            text(
                "INSERT INTO game_data (game_id, key, value) "
                "SELECT id, 'lifegear.roles', CAST(:value AS jsonb) FROM games"
            ),
            {"value": json.dumps([role])},
        )
