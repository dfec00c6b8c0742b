"""Helpers for the storyteller scene's end-to-end tests: characters straight into the DB, the
tracker row, and pressing the tracker's buttons by their callback prefix."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import text

from bot.emulator import CallbackAnswer, ChatMessage
from engine.systems import storyteller
from engine.systems.storyteller import Attribute
from tests.conftest import Harness
from tests.games.helpers import GM, GROUP, buttons


async def scalar(h: Harness, sql: str, **params: Any) -> Any:
    async with h.engine.connect() as conn:
        return (await conn.execute(text(sql), params)).scalar_one()


async def game_id(h: Harness) -> int:
    return int(await scalar(h, "SELECT id FROM games WHERE chat_id = :c", c=GROUP))


def hero(
    name: str, *, dex: int = 3, wits: int = 2, abilities: dict[str, int] | None = None,
    willpower: int = 3,
) -> storyteller.Character:  # fmt: skip
    c = storyteller.with_attribute(storyteller.new_character(name), Attribute.DEXTERITY, dex)
    c = storyteller.with_attribute(c, Attribute.WITS, wits)
    for key, dots in (abilities or {}).items():
        c = storyteller.with_ability(c, key, dots)
    return c.model_copy(
        update={"willpower": storyteller.PoolTrait(rating=willpower, pool=willpower)}
    )


async def insert(
    h: Harness, character: storyteller.Character, *, owner: int, npc: bool = False
) -> int:
    """An approved character (or an NPC of the GM) straight into the table."""
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
                "sheet, schema_version, version) VALUES (:g, :u, :npc, 'storyteller', :name, "
                "'active', CAST(:sheet AS jsonb), 1, 1) RETURNING id"
            ),
            {"g": gid, "u": owner if not npc else GM, "npc": npc, "name": character.name,
             "sheet": character.model_dump_json()},
        )  # fmt: skip
        return int(row.scalar_one())


async def sheet(h: Harness, character_id: int) -> storyteller.Character:
    raw = await scalar(h, "SELECT sheet FROM characters WHERE id = :i", i=character_id)
    return storyteller.Character.model_validate(raw)


async def tracker(h: Harness) -> dict[str, Any]:
    async with h.engine.connect() as conn:
        row = (
            await conn.execute(text("SELECT id, version, status, state FROM trackers "
                                    "WHERE kind = 'storyteller_scene' ORDER BY id DESC LIMIT 1"))
        ).one()  # fmt: skip
    return {"id": row[0], "version": row[1], "status": row[2], "state": dict(row[3])}


async def insert_card(h: Harness, *, title: str, summary: str) -> None:
    gid = await game_id(h)
    async with h.engine.begin() as conn:
        await conn.execute(
            text(
                "INSERT INTO trackers (game_id, chat_id, kind, exclusive, status, state, version, "
                "created_by) VALUES (:g, :c, 'card_opposed', false, 'open', CAST(:s AS jsonb), "
                "1, :u)"
            ),
            {"g": gid, "c": GROUP, "s": json.dumps({"title": title, "summary": summary}),
             "u": GM},
        )  # fmt: skip


def data(message: ChatMessage, prefix: str, contains: str = "") -> str:
    """The callback data of the first button with ``prefix`` whose label has ``contains``."""
    found = [
        b["callback_data"]
        for b in buttons(message)
        if b.get("callback_data", "").startswith(prefix + ":") and contains in b["text"]
    ]
    assert found, (prefix, contains, [b.get("text") for b in buttons(message)])
    return found[0]


async def press(h: Harness, user: int, message: ChatMessage, callback: str) -> CallbackAnswer:
    pressed = h.emu.press(user, GROUP, message.message_id, callback)
    return await h.emu.wait_callback_answer(pressed.callback_query_id)


async def tap(
    h: Harness, user: int, message: ChatMessage, prefix: str, contains: str = ""
) -> CallbackAnswer:
    """Press a button that must work (no alert)."""
    answer = await press(h, user, message, data(message, prefix, contains))
    assert not answer.show_alert, answer.text
    return answer


async def rolls(h: Harness) -> list[tuple[str, list[int]]]:
    async with h.engine.connect() as conn:
        rows = await conn.execute(text("SELECT roll_id, faces FROM rolls ORDER BY id"))
        return [(r[0], list(r[1])) for r in rows]
