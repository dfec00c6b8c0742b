"""The cliche fight tracker tests' own pieces (heroes, the fight, its buttons by prefix and
label, dice lost); the table itself comes from ``tests.helpers.table``."""

from __future__ import annotations

from typing import Any

from engine.systems import cliche
from tests.conftest import Harness
from tests.games.helpers import ALICE, GM, GROUP, create_game, seat_table
from tests.helpers import table as tb
from tgemu import CallbackAnswer, ChatMessage


def hero(name: str, *items: tuple[str, int]) -> cliche.Character:
    return cliche.Character(
        name=name, cliches=tuple(cliche.Cliche(name=n, dice=d) for n, d in items)
    )


async def insert(
    h: Harness, character: cliche.Character, *, owner: int = ALICE, npc: bool = False
) -> int:
    """An approved character of ``owner`` (or an NPC of the GM) straight into the table."""
    return await tb.insert_character(h, "cliche", character, owner=GM if npc else owner, npc=npc)


async def table(h: Harness) -> None:
    seat_table(h)
    await create_game(h, "cliche", "Кампания")


async def lost(h: Harness, character_id: int) -> dict[str, int]:
    """Dice lost per cliché on the stored sheet."""
    sheet = await tb.stored_sheet(h, character_id)
    return {c["name"]: c.get("lost", 0) for c in sheet["cliches"]}


async def tracker_row(h: Harness) -> dict[str, Any]:
    """The newest cliche fight as stored."""
    return await tb.tracker_row(h, kind="cliche_fight")


async def open_fight(h: Harness) -> ChatMessage:
    before = h.emu.last_bot_message(GROUP)
    h.emu.send_text(GM, GROUP, "/fight")
    return await h.emu.wait_bot_message(
        GROUP, after=before.message_id if before else 0, contains="⚔️", timeout=tb.WAIT
    )


def find(h: Harness, message: ChatMessage, prefix: str, label: str = "") -> str:
    """The callback data of the tracker's button with ``prefix`` whose text holds ``label``."""
    return tb.button_data(tb.current(h, message), prefix + ":", label)


def has(h: Harness, message: ChatMessage, prefix: str, label: str = "") -> bool:
    try:
        find(h, message, prefix, label)
    except AssertionError:
        return False
    return True


async def press(
    h: Harness, user: int, message: ChatMessage, prefix: str, label: str = ""
) -> CallbackAnswer:
    """Press the tracker's button; returns the answer once the handler (and its edit) ran."""
    return await tb.press_data(h, user, message, find(h, message, prefix, label))


async def face_off(h: Harness, tracker: ChatMessage, first: str, second: str) -> None:
    """The GM puts ``first`` on side 1 and ``second`` on side 2 (each press moves a fighter on
    to the next side: out → 1 → 2)."""
    await press(h, GM, tracker, "cfs", first)  # → side 1
    await press(h, GM, tracker, "cfs", second)  # → side 1
    await press(h, GM, tracker, "cfs", second)  # → side 2
