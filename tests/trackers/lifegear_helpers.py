"""A lifegear table for the fight tracker's end-to-end tests: characters straight into the DB,
presses by button label on the one tracker message, sheets read back from Postgres."""

from __future__ import annotations

from sqlalchemy import text

from bot.emulator import CallbackAnswer, ChatMessage
from bot.systems import SYSTEMS
from engine.systems import lifegear
from engine.systems.lifegear import Item, ItemKind, Protection, Stat
from tests.conftest import Harness
from tests.games.helpers import ALICE, GM, GROUP, buttons, create_game, seat_table


async def game_id(h: Harness, chat_id: int = GROUP) -> int:
    async with h.engine.connect() as conn:
        row = await conn.execute(
            text("SELECT id FROM games WHERE chat_id = :chat AND archived_at IS NULL"),
            {"chat": chat_id},
        )
        return int(row.scalar_one())


async def insert(
    h: Harness, character: lifegear.Character, *, owner: int = ALICE, npc: bool = False
) -> int:
    """An approved character straight into the table (no wizard), the player seated."""
    gid = await game_id(h)
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
                "sheet, schema_version, version) VALUES (:g, :u, :npc, 'lifegear', :name, "
                "'active', CAST(:sheet AS jsonb), :schema, 1) RETURNING id"
            ),
            {
                "g": gid,
                "u": owner,
                "npc": npc,
                "name": character.name,
                "sheet": character.model_dump_json(),
                "schema": SYSTEMS["lifegear"].schema_version,
            },
        )
        return int(row.scalar_one())


async def sheet(h: Harness, character_id: int) -> lifegear.Character:
    async with h.engine.connect() as conn:
        row = await conn.execute(
            text("SELECT sheet FROM characters WHERE id = :i"), {"i": character_id}
        )
        loaded = SYSTEMS["lifegear"].load(dict(row.scalar_one()), 1)
    assert isinstance(loaded, lifegear.Character)
    return loaded


def states(character: lifegear.Character) -> dict[str, str]:
    return {item.name: item.state.value for item in character.gear}


async def ledger_kinds(h: Harness) -> list[str]:
    async with h.engine.connect() as conn:
        rows = await conn.execute(text("SELECT kind FROM ledger ORDER BY id"))
        return [r[0] for r in rows]


def hero(
    name: str, stat: str, *gear: Item, max_lives: int = 5, stat_name: str = "Сила"
) -> lifegear.Character:
    return lifegear.new_character(name).model_copy(
        update={"max_lives": max_lives, "stats": (Stat(name=stat_name, dice=stat),), "gear": gear}
    )


def weapon(item_id: str, name: str, *, in_hand: bool = False, dice: str = "") -> Item:
    return Item(id=item_id, name=name, kind=ItemKind.WEAPON, in_hand=in_hand, dice=dice)


def armor(item_id: str, name: str, protection: Protection, reduce_by: int = 0) -> Item:
    return Item(
        id=item_id, name=name, kind=ItemKind.ARMOR, protection=protection, reduce_by=reduce_by
    )


def thing(item_id: str, name: str, kind: ItemKind = ItemKind.ITEM) -> Item:
    return Item(id=item_id, name=name, kind=kind)


async def lifegear_table(h: Harness) -> None:
    seat_table(h)
    await create_game(h, "lifegear", "Кампания")


# --- the tracker message ---------------------------------------------------------------------


async def command(h: Harness, user: int, line: str) -> ChatMessage:
    """Send ``line`` to the group; the bot's first answer after it."""
    sent = h.emu.send_text(user, GROUP, line)
    return await h.emu.wait_bot_message(GROUP, after=sent.message_id)


def current(h: Harness, message_id: int) -> ChatMessage:
    return next(m for m in h.emu.bot_messages(GROUP) if m.message_id == message_id)


def labels(h: Harness, message_id: int) -> list[str]:
    return [b["text"] for b in buttons(current(h, message_id))]


def data_of(h: Harness, message_id: int, label: str) -> str:
    """The callback data of the button whose text contains ``label`` (exactly one)."""
    found = [b for b in buttons(current(h, message_id)) if label in b["text"]]
    assert len(found) == 1, (label, labels(h, message_id))
    return str(found[0]["callback_data"])


async def press_data(h: Harness, user: int, message_id: int, data: str) -> CallbackAnswer:
    pressed = h.emu.press(user, GROUP, message_id, data)
    return await h.emu.wait_callback_answer(pressed.callback_query_id)


async def press(h: Harness, user: int, message_id: int, label: str) -> CallbackAnswer:
    """Press the button labelled ``label``; on success wait for the tracker's edit."""
    edits = current(h, message_id).edits
    answer = await press_data(h, user, message_id, data_of(h, message_id, label))
    if not answer.show_alert:
        await h.emu.wait_for(lambda: current(h, message_id).edits > edits)
    return answer


def shown(h: Harness, message_id: int) -> str:
    return current(h, message_id).text


async def refused(h: Harness, user: int, message_id: int, data: str) -> CallbackAnswer:
    """A press that must be refused with an alert and leave the tracker as it was."""
    before = (shown(h, message_id), labels(h, message_id))
    answer = await press_data(h, user, message_id, data)
    assert answer.show_alert, answer.text
    assert (shown(h, message_id), labels(h, message_id)) == before
    return answer


__all__ = ["ALICE", "GM", "GROUP"]
