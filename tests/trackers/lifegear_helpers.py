"""The lifegear fight tracker tests' own pieces (heroes and gear, presses by button label on
the one tracker message, by its id); the table itself comes from ``tests.helpers.table``."""

from __future__ import annotations

from bot.systems import SYSTEMS
from engine.systems import lifegear
from engine.systems.lifegear import Item, ItemKind, Protection, Stat
from tests.conftest import Harness
from tests.games.helpers import ALICE, GM, GROUP, create_game, seat_table
from tests.helpers import table as tb
from tgemu import CallbackAnswer


async def insert(
    h: Harness, character: lifegear.Character, *, owner: int = ALICE, npc: bool = False
) -> int:
    """An approved character of ``owner`` (ALICE unless said) straight into the table."""
    return await tb.insert_character(h, "lifegear", character, owner=owner, npc=npc)


async def sheet(h: Harness, character_id: int) -> lifegear.Character:
    loaded = SYSTEMS["lifegear"].load(await tb.stored_sheet(h, character_id), 1)
    assert isinstance(loaded, lifegear.Character)
    return loaded


def states(character: lifegear.Character) -> dict[str, str]:
    return {item.name: item.state.value for item in character.gear}


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


# --- the tracker message, by its id ---------------------------------------------------------


def labels(h: Harness, message_id: int) -> list[str]:
    return tb.labels(tb.current(h, message_id))


def data_of(h: Harness, message_id: int, label: str) -> str:
    """The callback data of the button whose text contains ``label`` (exactly one)."""
    return tb.labelled_data(tb.current(h, message_id), label)


async def press(h: Harness, user: int, message_id: int, label: str) -> CallbackAnswer:
    """Press the button labelled ``label``; on success wait for the tracker's edit."""
    edits = tb.current(h, message_id).edits
    answer = await tb.press_data(h, user, message_id, data_of(h, message_id, label))
    if not answer.show_alert:
        await h.emu.wait_for(lambda: tb.current(h, message_id).edits > edits)
    return answer


async def end(h: Harness, user: int, message_id: int, label: str = "Завершить") -> None:
    """End the fight: «Завершить» (or a duel's «Остановить»), then «Да, завершить»."""
    await press(h, user, message_id, label)
    await press(h, user, message_id, "Да, завершить")


def shown(h: Harness, message_id: int) -> str:
    return tb.current(h, message_id).text


__all__ = ["ALICE", "GM", "GROUP"]
