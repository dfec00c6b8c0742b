"""A table driven over the emulator and Postgres, shared by the end-to-end tests of trackers,
resources, sheet rolls and requests: approved characters straight into the DB (no wizard),
players seated, commands sent, the bot's message found again, its buttons pressed by callback
prefix or by label, and the stored rows read back."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import text

from bot.systems import SYSTEMS
from engine.common import SheetModel, name_key
from tests.conftest import Harness
from tests.games.helpers import ALICE, GROUP, buttons
from tgemu import CallbackAnswer, ChatMessage

WAIT = 30.0
"""Seconds to wait for an answer on a loaded machine: a generous bound, never a sleep."""


# --- the database ------------------------------------------------------------------------------


async def scalar(h: Harness, sql: str, **params: Any) -> Any:
    """The single value ``sql`` selects (fails unless there is exactly one row)."""
    async with h.engine.connect() as conn:
        return (await conn.execute(text(sql), params)).scalar_one()


async def game_id(h: Harness, chat_id: int = GROUP) -> int:
    """The id of the chat's live (not archived) game."""
    return int(
        await scalar(
            h, "SELECT id FROM games WHERE chat_id = :chat AND archived_at IS NULL", chat=chat_id
        )
    )


async def seat(h: Harness, user: int, *, chat_id: int = GROUP) -> None:
    """Make ``user`` a player of the chat's game (nothing changes if already a member)."""
    gid = await game_id(h, chat_id)
    async with h.engine.begin() as conn:
        await conn.execute(
            text(
                "INSERT INTO game_members (game_id, user_id, role) VALUES (:g, :u, 'player') "
                "ON CONFLICT DO NOTHING"
            ),
            {"g": gid, "u": user},
        )


async def insert_character(
    h: Harness,
    system: str,
    character: SheetModel,
    *,
    owner: int | None = ALICE,
    npc: bool = False,
    seated: bool = True,
    status: str = "active",
    chat_id: int = GROUP,
) -> int:
    """A character of ``owner`` (``status`` active = approved) straight into the chat's game, no
    wizard; returns its id. A player's owner is seated as a player first unless ``seated`` is
    false; an NPC's owner (the GM, or none) is not."""
    if owner is not None and not npc and seated:
        await seat(h, owner, chat_id=chat_id)
    gid = await game_id(h, chat_id)
    async with h.engine.begin() as conn:
        row = await conn.execute(
            text(
                "INSERT INTO characters (game_id, owner_user_id, is_npc, system, name, "
                "name_key, status, sheet, schema_version, version) VALUES (:g, :u, :npc, "
                ":system, :name, :key, :status, CAST(:sheet AS jsonb), :schema, 1) RETURNING id"
            ),
            {
                "g": gid,
                "u": owner,
                "npc": npc,
                "system": system,
                "name": getattr(character, "name", "") or "Hero",
                "key": name_key(getattr(character, "name", "") or "Hero"),
                "status": status,
                "sheet": character.model_dump_json(),
                "schema": SYSTEMS[system].schema_version,
            },
        )
        return int(row.scalar_one())


async def stored_sheet(h: Harness, character_id: int) -> dict[str, Any]:
    """The character's sheet as stored (JSON)."""
    return dict(await scalar(h, "SELECT sheet FROM characters WHERE id = :i", i=character_id))


async def ledger_kinds(h: Harness) -> list[str]:
    """The kinds of every ledger entry, oldest first."""
    async with h.engine.connect() as conn:
        rows = await conn.execute(text("SELECT kind FROM ledger ORDER BY id"))
        return [r[0] for r in rows]


async def tracker_row(
    h: Harness, *, kind: str | None = None, tracker_id: int | None = None
) -> dict[str, Any]:
    """A stored tracker (by id, else the newest, of ``kind`` if given), its state as a dict."""
    async with h.engine.connect() as conn:
        row = await conn.execute(
            text(
                "SELECT id, kind, status, version, state, exclusive, message_id FROM trackers "
                "WHERE (CAST(:k AS text) IS NULL OR kind = :k) "
                "AND (CAST(:i AS bigint) IS NULL OR id = :i) ORDER BY id DESC LIMIT 1"
            ),
            {"k": kind, "i": tracker_id},
        )
        found = dict(row.mappings().one())
    state = found["state"]
    return {**found, "state": json.loads(state) if isinstance(state, str) else dict(state)}


async def tracker_rolls(h: Harness) -> list[tuple[str, str, list[int]]]:
    """The trackers' rolls in the chat's verifiable log: (roll id, expression, faces)."""
    async with h.engine.connect() as conn:
        rows = await conn.execute(
            text("SELECT roll_id, expression, faces FROM rolls WHERE roll_id LIKE 'trk:%' "
                 "ORDER BY seq")
        )  # fmt: skip
        return [(r[0], r[1], list(r[2])) for r in rows]


# --- the chat ------------------------------------------------------------------------------------


async def send_and_answer(
    h: Harness, user: int, line: str, *, chat_id: int = GROUP
) -> ChatMessage:
    """Send ``line`` to the chat as ``user``; the bot's first message after it."""
    sent = h.emu.send_text(user, chat_id, line)
    return await h.emu.wait_bot_message(chat_id, after=sent.message_id, timeout=WAIT)


async def send_for_buttons(
    h: Harness, user: int, line: str, prefix: str, *, chat_id: int = GROUP
) -> ChatMessage:
    """Send ``line``; the bot's first later message with a button whose data starts with
    ``prefix`` (a tracker or a panel, found among any other answers)."""
    emu = h.emu
    sent = emu.send_text(user, chat_id, line)
    found: ChatMessage = await emu.wait_for(
        lambda: next(
            (
                m
                for m in emu.bot_messages(chat_id)
                if m.message_id > sent.message_id
                and any(b.get("callback_data", "").startswith(prefix) for b in buttons(m))
            ),
            None,
        ),
        timeout=WAIT,
    )
    return found


def current(h: Harness, message: ChatMessage | int, *, chat_id: int = GROUP) -> ChatMessage:
    """The bot's message (or message id) as it is now, after any edits."""
    message_id = message if isinstance(message, int) else message.message_id
    return next(m for m in h.emu.bot_messages(chat_id) if m.message_id == message_id)


def labels(message: ChatMessage) -> list[str]:
    """The texts of the message's buttons."""
    return [b["text"] for b in buttons(message)]


def button_data(message: ChatMessage, prefix: str, label: str = "") -> str:
    """The data of the first button whose data starts with ``prefix`` and whose text holds
    ``label``; fails the test listing the buttons if there is none."""
    shown = buttons(message)
    for button in shown:
        data = button.get("callback_data", "")
        if data.startswith(prefix) and label in button["text"]:
            return str(data)
    raise AssertionError((prefix, label, [(b["text"], b.get("callback_data")) for b in shown]))


def labelled_data(message: ChatMessage, label: str) -> str:
    """The data of the one button whose text holds ``label``; fails unless exactly one."""
    found = [b for b in buttons(message) if label in b["text"]]
    assert len(found) == 1, (label, labels(message))
    return str(found[0]["callback_data"])


async def press_data(
    h: Harness, user: int, message: ChatMessage | int, data: str, *, chat_id: int = GROUP
) -> CallbackAnswer:
    """Press ``data`` on the message as ``user``; the answer, the update done (conftest)."""
    message_id = message if isinstance(message, int) else message.message_id
    pressed = h.emu.press(user, chat_id, message_id, data)
    return await h.emu.wait_callback_answer(pressed.callback_query_id, timeout=WAIT)


async def press_refused(
    h: Harness, user: int, message: ChatMessage | int, data: str
) -> CallbackAnswer:
    """A press that must be refused with an alert in words, the message left as it was."""
    before = current(h, message)
    shown = (before.text, labels(before))
    answer = await press_data(h, user, message, data)
    assert answer.show_alert and answer.text, answer
    after = current(h, message)
    assert (after.text, labels(after)) == shown
    return answer
