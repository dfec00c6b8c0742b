"""Helpers for the cliche fight tracker tests: characters straight into the DB, the tracker's
stored state, pressing its buttons by prefix and label."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import text

from bot.emulator import CallbackAnswer, ChatMessage
from bot.systems import SYSTEMS
from engine.systems import cliche
from tests.conftest import Harness
from tests.games.helpers import ALICE, GM, GROUP, buttons, create_game, seat_table

WAIT = 30.0  # a loaded machine: a generous bound, never a sleep


def hero(name: str, *items: tuple[str, int]) -> cliche.Character:
    return cliche.Character(
        name=name, cliches=tuple(cliche.Cliche(name=n, dice=d) for n, d in items)
    )


async def game_id(h: Harness) -> int:
    async with h.engine.connect() as conn:
        row = await conn.execute(
            text("SELECT id FROM games WHERE chat_id = :chat AND archived_at IS NULL"),
            {"chat": GROUP},
        )
        return int(row.scalar_one())


async def insert(
    h: Harness, character: cliche.Character, *, owner: int = ALICE, npc: bool = False
) -> int:
    """An approved character (or NPC) straight into the table, its player seated."""
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
                "sheet, schema_version, version) VALUES (:g, :u, :npc, 'cliche', :name, "
                "'active', CAST(:sheet AS jsonb), :schema, 1) RETURNING id"
            ),
            {
                "g": gid,
                "u": GM if npc else owner,
                "npc": npc,
                "name": character.name,
                "sheet": character.model_dump_json(),
                "schema": SYSTEMS["cliche"].schema_version,
            },
        )
        return int(row.scalar_one())


async def table(h: Harness) -> None:
    seat_table(h)
    await create_game(h, "cliche", "Кампания")


async def lost(h: Harness, character_id: int) -> dict[str, int]:
    """Dice lost per cliché on the stored sheet."""
    async with h.engine.connect() as conn:
        row = await conn.execute(
            text("SELECT sheet FROM characters WHERE id = :i"), {"i": character_id}
        )
        sheet = dict(row.scalar_one())
    return {c["name"]: c.get("lost", 0) for c in sheet["cliches"]}


async def tracker_row(h: Harness) -> dict[str, Any]:
    async with h.engine.connect() as conn:
        row = await conn.execute(
            text(
                "SELECT id, version, status, state, message_id FROM trackers "
                "WHERE kind = 'cliche_fight' ORDER BY id DESC LIMIT 1"
            )
        )
        found = row.mappings().one()
    state = found["state"]
    return {**found, "state": json.loads(state) if isinstance(state, str) else state}


async def open_fight(h: Harness) -> ChatMessage:
    before = h.emu.last_bot_message(GROUP)
    h.emu.send_text(GM, GROUP, "/fight")
    return await h.emu.wait_bot_message(
        GROUP, after=before.message_id if before else 0, contains="⚔️", timeout=WAIT
    )


def current(h: Harness, message: ChatMessage) -> ChatMessage:
    return next(m for m in h.emu.bot_messages(GROUP) if m.message_id == message.message_id)


def find(h: Harness, message: ChatMessage, prefix: str, label: str = "") -> str:
    """The callback data of the tracker's button with ``prefix`` whose text holds ``label``."""
    shown = buttons(current(h, message))
    for button in shown:
        data = button.get("callback_data", "")
        if data.startswith(prefix + ":") and label in button["text"]:
            return str(data)
    raise AssertionError((prefix, label, [(b["text"], b.get("callback_data")) for b in shown]))


def has(h: Harness, message: ChatMessage, prefix: str, label: str = "") -> bool:
    try:
        find(h, message, prefix, label)
    except AssertionError:
        return False
    return True


async def press_data(h: Harness, user: int, message: ChatMessage, data: str) -> CallbackAnswer:
    pressed = h.emu.press(user, GROUP, message.message_id, data)
    return await h.emu.wait_callback_answer(pressed.callback_query_id, timeout=WAIT)


async def press(
    h: Harness, user: int, message: ChatMessage, prefix: str, label: str = ""
) -> CallbackAnswer:
    """Press the tracker's button; returns the answer once the handler (and its edit) ran."""
    return await press_data(h, user, message, find(h, message, prefix, label))


async def logged_rolls(h: Harness) -> list[tuple[str, str, list[int]]]:
    """The tracker's rolls in the chat's verifiable log: (roll id, expression, faces)."""
    async with h.engine.connect() as conn:
        rows = await conn.execute(
            text("SELECT roll_id, expression, faces FROM rolls WHERE roll_id LIKE 'trk:%' "
                 "ORDER BY seq")
        )  # fmt: skip
        return [(r[0], r[1], list(r[2])) for r in rows]
