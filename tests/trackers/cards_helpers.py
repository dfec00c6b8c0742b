"""Shared pieces of the multi-roll card tests: characters straight into the DB, the card's
message, presses that wait for their answer, and the card's rows read back."""

from __future__ import annotations

from typing import Any

from sqlalchemy import text

from bot.emulator import CallbackAnswer, ChatMessage
from bot.systems import SYSTEMS
from engine.common import SheetModel
from engine.dice.evaluator import roll
from engine.dice.results import RollResult
from engine.dice.source import ScriptedSource
from engine.systems import cliche, fate, storyteller
from engine.systems.storyteller import AbilityDots, AbilityGroup, Attributes
from tests.conftest import Harness
from tests.games.helpers import GM, GROUP, buttons, create_game, seat_table


async def game_id(h: Harness, chat_id: int = GROUP) -> int:
    async with h.engine.connect() as conn:
        row = await conn.execute(
            text("SELECT id FROM games WHERE chat_id = :chat AND archived_at IS NULL"),
            {"chat": chat_id},
        )
        return int(row.scalar_one())


async def insert(
    h: Harness, system: str, character: SheetModel, *, owner: int, npc: bool = False,
    chat_id: int = GROUP,
) -> int:  # fmt: skip
    """An approved character (or NPC) straight into the table, its player seated."""
    gid = await game_id(h, chat_id)
    async with h.engine.begin() as conn:
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
                "sheet, schema_version, version) VALUES (:g, :u, :npc, :system, :name, "
                "'active', CAST(:sheet AS jsonb), :schema, 1) RETURNING id"
            ),
            {
                "g": gid,
                "u": owner,
                "npc": npc,
                "system": system,
                "name": getattr(character, "name", "") or "Hero",
                "sheet": character.model_dump_json(),
                "schema": SYSTEMS[system].schema_version,
            },
        )
        return int(row.scalar_one())


async def start(h: Harness, system: str) -> None:
    seat_table(h)
    await create_game(h, system, "Кампания")


def fate_hero(name: str, **skills: int) -> fate.Character:
    return fate.new_character(name).model_copy(
        update={"skills": {fate.Skill(k): v for k, v in skills.items()}}
    )


def st_hero(name: str, attributes: dict[str, int], abilities: dict[str, int]) -> SheetModel:
    return storyteller.new_character(name).model_copy(
        update={
            "attributes": Attributes(**attributes),
            "abilities": tuple(
                AbilityDots(key=k, group=AbilityGroup.TALENTS, dots=v)
                for k, v in abilities.items()
            ),
        }
    )


def cliche_hero(name: str, *cliches: tuple[str, int]) -> cliche.Character:
    return cliche.Character(
        name=name, cliches=tuple(cliche.Cliche(name=n, dice=d) for n, d in cliches)
    )


async def command(h: Harness, line: str, *, user: int = GM) -> ChatMessage:
    """Send ``line`` to the group and return the bot's answer to it."""
    sent = h.emu.send_text(user, GROUP, line)
    answer = await h.emu.wait_bot_message(GROUP, after=sent.message_id)
    await h.emu.wait_idle()  # the card's row is committed once the update is done
    return answer


def current(h: Harness, card: ChatMessage) -> ChatMessage:
    found = next(m for m in h.emu.bot_messages(GROUP) if m.message_id == card.message_id)
    return found


def roll_buttons(card: ChatMessage) -> list[dict[str, Any]]:
    return [b for b in buttons(card) if b.get("callback_data", "").startswith("crd:")]


def button(card: ChatMessage, prefix: str) -> str:
    return next(
        b["callback_data"] for b in buttons(card) if b.get("callback_data", "").startswith(prefix)
    )


async def press(
    h: Harness, user: int, card: ChatMessage, data: str, *, chat_id: int = GROUP,
    message_id: int | None = None,
) -> CallbackAnswer:  # fmt: skip
    pressed = h.emu.press(user, chat_id, message_id or card.message_id, data)
    return await h.emu.wait_callback_answer(pressed.callback_query_id, timeout=30)


async def press_and_wait(h: Harness, user: int, card: ChatMessage, data: str) -> ChatMessage:
    """Press and wait for the card's next edit; returns the card as edited."""
    before = current(h, card).edits
    answer = await press(h, user, card, data)
    assert not answer.show_alert, answer.text
    edited = await h.emu.wait_for(lambda: (m := current(h, card)).edits > before and m)
    await h.emu.wait_idle()
    return edited


async def scalar(h: Harness, sql: str, **params: Any) -> Any:
    async with h.engine.connect() as conn:
        return (await conn.execute(text(sql), params)).scalar_one()


async def tracker_row(h: Harness, tracker_id: int | None = None) -> dict[str, Any]:
    async with h.engine.connect() as conn:
        sql = "SELECT id, kind, status, version, state, exclusive FROM trackers"
        sql += " WHERE id = :i" if tracker_id else " ORDER BY id DESC LIMIT 1"
        row = (await conn.execute(text(sql), {"i": tracker_id})).mappings().one()
        return dict(row)


async def logged(h: Harness) -> list[tuple[str, str, RollResult]]:
    """Every card roll in the log: (roll id, notation, the result recomputed from faces)."""
    async with h.engine.connect() as conn:
        rows = await conn.execute(
            text("SELECT roll_id, expression, faces FROM rolls WHERE roll_id LIKE 'trk:%' "
                 "ORDER BY seq")
        )  # fmt: skip
        return [
            (r.roll_id, r.expression, roll(r.expression, ScriptedSource(r.faces), stored=True))
            for r in rows
        ]
