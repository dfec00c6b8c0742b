"""The storyteller scene tests' own pieces (heroes, a card tracker, pressing the scene's
buttons by callback prefix); the table itself comes from ``tests.helpers.table``."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import text

from engine.systems import storyteller
from engine.systems.storyteller import Attribute
from tests.conftest import Harness
from tests.games.helpers import GM, GROUP
from tests.helpers import table as tb
from tgemu import CallbackAnswer, ChatMessage


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
    return await tb.insert_character(
        h, "storyteller", character, owner=GM if npc else owner, npc=npc
    )


async def sheet(h: Harness, character_id: int) -> storyteller.Character:
    return storyteller.Character.model_validate(await tb.stored_sheet(h, character_id))


async def tracker(h: Harness) -> dict[str, Any]:
    """The newest storyteller scene as stored."""
    return await tb.tracker_row(h, kind="storyteller_scene")


async def insert_card(h: Harness, *, title: str, summary: str) -> None:
    gid = await tb.game_id(h)
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
    return tb.button_data(message, prefix + ":", contains)


async def tap(
    h: Harness, user: int, message: ChatMessage, prefix: str, contains: str = ""
) -> CallbackAnswer:
    """Press a button that must work (no alert)."""
    answer = await tb.press_data(h, user, message, data(message, prefix, contains))
    assert not answer.show_alert, answer.text
    return answer


async def rolls(h: Harness) -> list[tuple[str, list[int]]]:
    async with h.engine.connect() as conn:
        rows = await conn.execute(text("SELECT roll_id, faces FROM rolls ORDER BY id"))
        return [(r[0], list(r[1])) for r in rows]
