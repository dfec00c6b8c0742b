"""Scripted table for end-to-end tests: a GM, two players and a group over the emulator."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from tests.conftest import Harness
from tgemu import ChatMessage

GM, ALICE, BOB = 1000, 1001, 1002
GROUP = -100500


def seat_table(h: Harness) -> None:
    h.emu.add_user(GM, "Мастер", language_code="ru")
    h.emu.add_user(ALICE, "Alice", language_code="en")
    h.emu.add_user(BOB, "Bob", language_code="en")
    h.emu.add_group(GROUP, "Table", members=[GM, ALICE, BOB], creator=GM)


def buttons(message: ChatMessage) -> list[dict]:  # type: ignore[type-arg]
    rows = (message.reply_markup or {}).get("inline_keyboard", [])
    return [b for row in rows for b in row]


def deep_link_token(message: ChatMessage) -> str:
    url = next(b["url"] for b in buttons(message) if "url" in b)
    return parse_qs(urlparse(url).query)["start"][0]


async def create_game(h: Harness, system: str, title: str = "Test game") -> ChatMessage:
    """The GM runs /newgame with a title and picks ``system``; returns the announcement."""
    emu = h.emu
    emu.send_text(GM, GROUP, f"/newgame {title}")
    picker = await emu.wait_bot_message(GROUP, contains="FATE")
    index = next(
        i for i, b in enumerate(buttons(picker)) if b["callback_data"].startswith(f"ng:{system}:")
    )
    pressed = emu.press_button(GM, GROUP, picker.message_id, index)
    await emu.wait_callback_answer(pressed.callback_query_id)
    return await emu.wait_for(
        lambda: (m := emu.last_bot_message(GROUP)) and any("url" in b for b in buttons(m)) and m
    )


async def open_wizard(h: Harness, user_id: int, announcement: ChatMessage) -> ChatMessage:
    """The player follows the game's «Create character» deep link; returns the wizard's first
    message in the private chat."""
    emu = h.emu
    before = emu.last_bot_message(user_id)
    emu.send_text(user_id, user_id, f"/start {deep_link_token(announcement)}")
    return await emu.wait_bot_message(user_id, after=before.message_id if before else 0)


async def approve_latest(h: Harness) -> ChatMessage:
    """The GM presses «Approve» on the newest submission card in the group."""
    emu = h.emu
    card = await emu.wait_for(
        lambda: next(
            (
                m
                for m in reversed(emu.bot_messages(GROUP))
                if any(b.get("callback_data", "").startswith("apv:") for b in buttons(m))
            ),
            None,
        )
    )
    index = next(
        i for i, b in enumerate(buttons(card)) if b.get("callback_data", "").startswith("apv:")
    )
    pressed = emu.press_button(GM, GROUP, card.message_id, index)
    await emu.wait_callback_answer(pressed.callback_query_id)
    return await emu.wait_for(
        lambda: (
            (m := emu.bot_messages(GROUP))
            and next((x for x in m if x.message_id == card.message_id and x.edits), None)
        )
    )
