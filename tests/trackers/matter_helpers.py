"""Helpers for the matter scene tracker's end-to-end tests: characters straight into the DB,
the tracker message, pressing its buttons by their label."""

from __future__ import annotations

from typing import Any

from sqlalchemy import text

from bot.emulator import CallbackAnswer, ChatMessage
from bot.systems import SYSTEMS
from engine.systems import matter
from tests.conftest import Harness
from tests.games.helpers import GM, GROUP, buttons


async def scalar(h: Harness, sql: str, **params: Any) -> Any:
    async with h.engine.connect() as conn:
        return (await conn.execute(text(sql), params)).scalar_one()


async def insert(
    h: Harness, character: matter.Character, *, owner: int | None, npc: bool = False
) -> int:
    """An active character (or NPC, no owner) straight into the game; the player seated."""
    game_id = await scalar(h, "SELECT id FROM games WHERE chat_id = :c", c=GROUP)
    async with h.engine.begin() as conn:
        if owner is not None:
            await conn.execute(
                text(
                    "INSERT INTO game_members (game_id, user_id, role) VALUES (:g, :u, 'player') "
                    "ON CONFLICT DO NOTHING"
                ),
                {"g": game_id, "u": owner},
            )
        row = await conn.execute(
            text(
                "INSERT INTO characters (game_id, owner_user_id, is_npc, system, name, status, "
                "sheet, schema_version, version) VALUES (:g, :u, :npc, 'matter', :name, "
                "'active', CAST(:sheet AS jsonb), :schema, 1) RETURNING id"
            ),
            {
                "g": game_id,
                "u": owner,
                "npc": npc,
                "name": character.name,
                "sheet": character.model_dump_json(),
                "schema": SYSTEMS["matter"].schema_version,
            },
        )
        return int(row.scalar_one())


async def sheet(h: Harness, character_id: int) -> matter.Character:
    raw = await scalar(h, "SELECT sheet FROM characters WHERE id = :i", i=character_id)
    return matter.Character.model_validate(raw)


def states_of(character: matter.Character) -> dict[str, int | None]:
    return {a.state.value: a.turns_left for a in character.states}


async def open_scene(h: Harness, command: str = "/scene") -> ChatMessage:
    """The GM types the command; the tracker message (with its set-up buttons)."""
    sent = h.emu.send_text(GM, GROUP, command)
    found: ChatMessage = await h.emu.wait_for(
        lambda: next(
            (
                m
                for m in h.emu.bot_messages(GROUP)
                if m.message_id > sent.message_id
                and any(b.get("callback_data", "").startswith("mxg:") for b in buttons(m))
            ),
            None,
        )
    )
    return found


def current(h: Harness, tracker: ChatMessage) -> ChatMessage:
    return next(m for m in h.emu.bot_messages(GROUP) if m.message_id == tracker.message_id)


def data_of(h: Harness, tracker: ChatMessage, label: str) -> str:
    """The callback data of the button whose text contains ``label``."""
    shown = buttons(current(h, tracker))
    found = [b["callback_data"] for b in shown if label in b["text"]]
    assert len(found) == 1, (label, [b["text"] for b in shown])
    return str(found[0])


async def press_data(h: Harness, user: int, tracker: ChatMessage, data: str) -> CallbackAnswer:
    pressed = h.emu.press(user, GROUP, tracker.message_id, data)
    return await h.emu.wait_callback_answer(pressed.callback_query_id, timeout=15)


async def press(h: Harness, user: int, tracker: ChatMessage, label: str) -> CallbackAnswer:
    """Press the button labelled ``label``; fails the test on an alert."""
    answer = await press_data(h, user, tracker, data_of(h, tracker, label))
    assert not answer.show_alert, answer.text
    return answer


async def press_refused(h: Harness, user: int, tracker: ChatMessage, label: str) -> str:
    """Press ``label`` as ``user`` and expect an alert; the tracker's text stays as it was."""
    before = current(h, tracker).text
    answer = await press_data(h, user, tracker, data_of(h, tracker, label))
    assert answer.show_alert and answer.text
    assert current(h, tracker).text == before
    return answer.text
