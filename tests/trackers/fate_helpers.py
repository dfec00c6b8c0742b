"""Driving the fate conflict tracker over the emulator: characters straight into the table,
the tracker message, pressing its buttons by prefix, and reading the sheets back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import text

from bot.emulator import CallbackAnswer, ChatMessage
from bot.systems import SYSTEMS
from engine.systems import fate
from tests.conftest import Harness
from tests.games.helpers import GM, GROUP, buttons, create_game, seat_table

__all__ = ["GROUP", "ChatMessage", "buttons", "create_game", "fate", "seat_table"]


async def game_id(h: Harness, chat_id: int = GROUP) -> int:
    async with h.engine.connect() as conn:
        row = await conn.execute(
            text("SELECT id FROM games WHERE chat_id = :chat AND archived_at IS NULL"),
            {"chat": chat_id},
        )
        return int(row.scalar_one())


async def insert(h: Harness, sheet: fate.Character, *, owner: int, npc: bool = False) -> int:
    """An approved character (or an NPC of the GM) straight into the table, owner seated."""
    gid = await game_id(h)
    async with h.engine.begin() as conn:
        if not npc:
            await conn.execute(
                text(
                    "INSERT INTO game_members (game_id, user_id, role) VALUES (:g, :u, 'player') "
                    "ON CONFLICT DO NOTHING"
                ),
                {"g": gid, "u": owner},
            )
        row = await conn.execute(
            text(
                "INSERT INTO characters (game_id, owner_user_id, is_npc, system, name, status, "
                "sheet, schema_version, version) VALUES (:g, :u, :npc, 'fate', :name, "
                "'active', CAST(:sheet AS jsonb), :schema, 1) RETURNING id"
            ),
            {
                "g": gid,
                "u": owner,
                "npc": npc,
                "name": sheet.name,
                "sheet": sheet.model_dump_json(),
                "schema": SYSTEMS["fate"].schema_version,
            },
        )
        return int(row.scalar_one())


async def sheet(h: Harness, character_id: int) -> dict[str, Any]:
    async with h.engine.connect() as conn:
        row = await conn.execute(
            text("SELECT sheet FROM characters WHERE id = :i"), {"i": character_id}
        )
        return dict(row.scalar_one())


def hero(name: str, *, fate_points: int = 3, **skills: int) -> fate.Character:
    levels = {fate.Skill(k): v for k, v in skills.items()}
    return fate.new_character(name).model_copy(
        update={"fate_points": fate_points, "skills": levels}
    )


async def table(h: Harness) -> None:
    seat_table(h)
    await h.start()
    await create_game(h, "fate", "Конфликт")


async def open_conflict(h: Harness, args: str = "", user: int = GM) -> ChatMessage:
    emu = h.emu
    sent = emu.send_text(user, GROUP, f"/conflict {args}".strip())
    found: ChatMessage = await emu.wait_for(
        lambda: next(
            (
                m
                for m in emu.bot_messages(GROUP)
                if m.message_id > sent.message_id
                and any(b.get("callback_data", "").startswith("fzs:") for b in buttons(m))
            ),
            None,
        )
    )
    return found


def current(h: Harness, tracker: ChatMessage) -> ChatMessage:
    return next(m for m in h.emu.bot_messages(GROUP) if m.message_id == tracker.message_id)


def data_of(h: Harness, tracker: ChatMessage, match: Callable[[str, str], bool]) -> str:
    """The callback data of the tracker's first button whose (label, data) matches."""
    shown = [(b.get("text", ""), b.get("callback_data", "")) for b in buttons(current(h, tracker))]
    found: list[str] = [d for label, d in shown if match(label, d)]
    assert found, shown
    return found[0]


def has(h: Harness, tracker: ChatMessage, prefix: str) -> bool:
    return any(b.get("callback_data", "").startswith(prefix) for b in buttons(current(h, tracker)))


async def press_data(h: Harness, user: int, tracker: ChatMessage, data: str) -> CallbackAnswer:
    """Press ``data`` on the tracker; waits for the answer (the edit happens before it)."""
    pressed = h.emu.press(user, GROUP, tracker.message_id, data)
    return await h.emu.wait_callback_answer(pressed.callback_query_id)


async def press(
    h: Harness, user: int, tracker: ChatMessage, prefix: str, contains: str = ""
) -> CallbackAnswer:
    """Press the first button whose data starts with ``prefix`` and whose label or data
    contains ``contains``."""
    data = data_of(
        h, tracker, lambda label, d: d.startswith(prefix) and (contains in label or contains in d)
    )
    return await press_data(h, user, tracker, data)
