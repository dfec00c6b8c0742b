"""The resource panel end to end over the emulator and Postgres: each system's buttons change
the sheet through the ledger; wrong users, forged data and overspends change nothing."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.services.resources import PoolName, item_key
from engine.common import SheetModel
from engine.systems import cliche, fate, lifegear, matter, storyteller
from engine.systems.fate import Nature, SlotId, TrackKind
from engine.systems.lifegear import Item, ItemKind, ItemState
from engine.systems.matter import StateId
from engine.systems.storyteller.sheet import PoolTrait
from engine.text import msg
from handlers.views import resources as views
from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GM, GROUP, buttons, create_game, seat_table
from tests.helpers.table import (
    current,
    insert_character,
    ledger_kinds,
    press_data,
    press_refused,
    send_and_answer,
    send_for_buttons,
    stored_sheet,
)
from tgemu import CallbackAnswer, ChatMessage

OTHER_GROUP = -100777


async def _start(h: Harness, system: str, character: SheetModel) -> int:
    seat_table(h)
    await create_game(h, system, "Кампания")
    return await insert_character(h, system, character, owner=ALICE)


async def _panel(h: Harness, user: int = ALICE, args: str = "") -> ChatMessage:
    """``/res [args]`` in the group; the bot's panel (the message with the undo button)."""
    return await send_for_buttons(h, user, f"/res {args}".strip(), "run:")


async def _press(h: Harness, user: int, panel: ChatMessage, data: str) -> CallbackAnswer:
    """Press the panel's button carrying ``data`` (it must be on the panel now)."""
    shown = [b.get("callback_data") for b in buttons(current(h, panel))]
    assert data in shown, (data, shown)
    return await press_data(h, user, panel, data)


async def _edited(h: Harness, panel: ChatMessage, edits: int) -> ChatMessage:
    return await h.emu.wait_for(lambda: (m := current(h, panel)).edits >= edits and m)


# --- fate --------------------------------------------------------------------------------------


def _fate_hero(fate_points: int = 3) -> fate.Character:
    return fate.new_character("Ира").model_copy(update={"fate_points": fate_points})


async def test_fate_points_stress_and_a_typed_consequence(table: Harness) -> None:
    cid = await _start(table, "fate", _fate_hero())
    panel = await _panel(table)
    assert "Ира" in panel.text

    answer = await _press(
        table, ALICE, panel, views.FatePointCD(character_id=cid, delta=-1).pack()
    )
    assert "3 → 2" in (answer.text or "") and not answer.show_alert
    assert (await stored_sheet(table, cid))["fate_points"] == 2
    assert "3 → 2" in (await _edited(table, panel, 1)).text
    # a gain is the GM's to give (a player's press asks the GM: tests/wizards2/test_gm_gates.py)
    await _press(table, GM, panel, views.FatePointCD(character_id=cid, delta=1).pack())
    assert (await stored_sheet(table, cid))["fate_points"] == 3

    mark = views.StressCD(character_id=cid, track=TrackKind.PHYSICAL, box=2, mark=True).pack()
    answer = await _press(table, ALICE, panel, mark)
    assert "☐☐ → ☐☒" in (answer.text or "")
    assert (await stored_sheet(table, cid))["stress"]["physical"] == [2]
    clear = views.StressCD(character_id=cid, track=TrackKind.PHYSICAL, box=2, mark=False).pack()
    await _edited(table, panel, 3)
    await _press(table, ALICE, panel, clear)
    assert (await stored_sheet(table, cid))["stress"]["physical"] == []

    await _edited(table, panel, 4)
    slots = views.ResViewCD(character_id=cid, view=views.PanelView.SLOTS).pack()
    await _press(table, ALICE, panel, slots)
    await _edited(table, panel, 5)
    take = views.TakeSlotCD(character_id=cid, slot=SlotId.MODERATE, nature=Nature.MENTAL).pack()
    await _press(table, ALICE, panel, take)
    prompt = await table.emu.wait_bot_message(GROUP, after=panel.message_id)
    assert "/cancel" in prompt.text
    table.emu.send_text(ALICE, GROUP, "Сломанная <рука>")
    reply = await table.emu.wait_bot_message(GROUP, after=prompt.message_id, contains="→")
    assert "«Сломанная <рука>»" in reply.text
    stored = (await stored_sheet(table, cid))["consequences"]
    assert [(c["slot"], c["text"], c["nature"]) for c in stored] == [
        ("moderate", "Сломанная <рука>", "mental")
    ]
    assert "Сломанная" in (await _edited(table, panel, 6)).text

    await _press(
        table, ALICE, panel, views.ClearSlotCD(character_id=cid, slot=SlotId.MODERATE).pack()
    )
    assert (await stored_sheet(table, cid))["consequences"] == []
    assert await ledger_kinds(table) == [
        "fate.fp.spend",
        "fate.fp.gain",
        "fate.stress.mark",
        "fate.stress.clear",
        "fate.consequence.take",
        "fate.consequence.clear",
    ]


# --- the other systems: the main change of each ------------------------------------------------


def _storyteller() -> SheetModel:
    return storyteller.new_character("Эйлин").model_copy(
        update={"willpower": PoolTrait(rating=5, pool=4), "glamour": PoolTrait(rating=4, pool=4)}
    )


def _cliche() -> SheetModel:
    return cliche.new_character("Мал").model_copy(
        update={"cliches": (cliche.Cliche(name="Солдат", dice=4),)}
    )


def _lifegear() -> SheetModel:
    bow = Item(id="bow", name="Лук", kind=ItemKind.WEAPON, dice="1d6")
    return lifegear.new_character("Лина").model_copy(update={"max_lives": 3, "gear": (bow,)})


def _matter() -> SheetModel:
    return matter.new_character("Кай")


def _storyteller_press(cid: int) -> str:
    return views.PoolCD(character_id=cid, trait=PoolName.WILLPOWER, delta=-1).pack()


def _cliche_press(cid: int) -> str:
    key = item_key("Солдат")
    return views.ClicheDiceCD(character_id=cid, index=0, key=key, delta=-1).pack()


def _lifegear_press(cid: int) -> str:
    key = item_key("bow")
    return views.GearStateCD(character_id=cid, index=0, key=key, state=ItemState.BROKEN).pack()


def _matter_press(cid: int) -> str:
    return views.MatterStateCD(character_id=cid, state=StateId.POISON, on=True).pack()


def _storyteller_check(sheet: dict[str, Any]) -> bool:
    return bool(sheet["willpower"]["pool"] == 3)


def _cliche_check(sheet: dict[str, Any]) -> bool:
    return bool(sheet["cliches"][0]["lost"] == 1)


def _lifegear_check(sheet: dict[str, Any]) -> bool:
    return bool(sheet["gear"][0]["state"] == "broken")


def _matter_check(sheet: dict[str, Any]) -> bool:
    return [s["state"] for s in sheet["states"]] == ["poison"]


CASES = {
    "storyteller": (_storyteller, _storyteller_press, _storyteller_check, "4 → 3"),
    "cliche": (_cliche, _cliche_press, _cliche_check, "4 → 3"),
    "lifegear": (_lifegear, _lifegear_press, _lifegear_check, "Лук"),
    "matter": (_matter, _matter_press, _matter_check, "— → Отравлен"),  # the group's Russian
}


@pytest.mark.parametrize("system", list(CASES))
async def test_each_system_main_change_is_a_ledger_entry(table: Harness, system: str) -> None:
    build, press, check, shown = CASES[system]
    cid = await _start(table, system, build())
    panel = await _panel(table)
    if system == "matter":  # states are chosen from the engine's table on a second screen
        view = views.ResViewCD(character_id=cid, view=views.PanelView.STATES).pack()
        await _press(table, ALICE, panel, view)
        await _edited(table, panel, 1)
    if system == "lifegear":  # a bow is used until it breaks (seed 001): a stale «spent» press
        spent = views.GearStateCD(
            character_id=cid, index=0, key=item_key("bow"), state=ItemState.SPENT
        ).pack()
        refused = await press_refused(table, ALICE, panel, spent)
        assert (
            refused.text
            == "«Лук» не тратится: пока предмет не сломан, он применяется многократно."
        )
        assert await ledger_kinds(table) == []
    answer = await _press(table, ALICE, panel, press(cid))
    assert shown in (answer.text or ""), answer.text
    assert check(await stored_sheet(table, cid))
    assert len(await ledger_kinds(table)) == 1


# --- who may press -----------------------------------------------------------------------------


async def test_another_player_is_refused_and_the_gm_may_press(table: Harness) -> None:
    cid = await _start(table, "fate", _fate_hero())
    panel = await _panel(table)
    spend = views.FatePointCD(character_id=cid, delta=-1).pack()
    answer = await _press(table, BOB, panel, spend)
    assert answer.show_alert
    assert (await stored_sheet(table, cid))["fate_points"] == 3 and await ledger_kinds(table) == []
    await _press(table, GM, panel, spend)
    assert (await stored_sheet(table, cid))["fate_points"] == 2


async def test_fifty_concurrent_spends_grant_exactly_three(table: Harness) -> None:
    cid = await _start(table, "fate", _fate_hero(3))
    panel = await _panel(table)
    spend = views.FatePointCD(character_id=cid, delta=-1).pack()
    # The owner and the GM alternate: different users' updates run concurrently in the bot
    # (one user's own presses queue in the dispatcher), so the row lock does the work.
    presses = [
        table.emu.press(ALICE if i % 2 else GM, GROUP, panel.message_id, spend) for i in range(50)
    ]
    answers = await asyncio.gather(
        *(table.emu.wait_callback_answer(p.callback_query_id, timeout=30) for p in presses)
    )
    granted = [a for a in answers if "→" in (a.text or "")]
    assert len(granted) == 3
    # Issue 36 item 8: every refusal's reason is its press's own answer, also for a press
    # that waited behind its sender's earlier ones.
    refusal = {msg("fate.fp.not_enough", need=1, have=0).render(loc) for loc in ("ru", "en")}
    refused = [a for a in answers if a not in granted]
    assert all(a.text in refusal and a.show_alert for a in refused), [a.text for a in refused]
    assert (await stored_sheet(table, cid))["fate_points"] == 0
    assert await ledger_kinds(table) == ["fate.fp.spend"] * 3


async def test_gm_undo_restores_the_last_change(table: Harness) -> None:
    cid = await _start(table, "fate", _fate_hero())
    panel = await _panel(table)
    await _press(table, ALICE, panel, views.FatePointCD(character_id=cid, delta=-1).pack())
    assert (await stored_sheet(table, cid))["fate_points"] == 2
    await _edited(table, panel, 1)
    undo = views.UndoCD(character_id=cid, version=2).pack()  # the change that made version 2
    refused = await _press(table, ALICE, panel, undo)
    assert refused.show_alert and (await stored_sheet(table, cid))["fate_points"] == 2
    await _press(table, GM, panel, undo)
    assert (await stored_sheet(table, cid))["fate_points"] == 3
    shown = await _edited(table, panel, 2)
    assert "↩️" in shown.text and "Очки судьбы: 2 → 3" in shown.text
    assert "fate_points" not in shown.text
    assert await ledger_kinds(table) == ["fate.fp.spend", "undo"]
    assert not any(b["callback_data"].startswith("run:") for b in buttons(shown))
    again = await press_data(table, GM, panel, undo)
    assert again.show_alert and (await stored_sheet(table, cid))["fate_points"] == 3


async def test_forged_presses_are_refused_and_change_nothing(table: Harness) -> None:
    cid = await _start(table, "fate", _fate_hero())
    bobs = await insert_character(
        table, "fate", _fate_hero().model_copy(update={"name": "Боб"}), owner=BOB
    )
    table.emu.add_group(OTHER_GROUP, "Other", members=[GM, ALICE], creator=GM)
    table.emu.send_text(GM, OTHER_GROUP, "/newgame Другая")
    picker = await table.emu.wait_bot_message(OTHER_GROUP, contains="FATE")
    index = next(
        i for i, b in enumerate(buttons(picker)) if b["callback_data"].startswith("ng:fate:")
    )
    pressed = table.emu.press_button(GM, OTHER_GROUP, picker.message_id, index)
    await table.emu.wait_callback_answer(pressed.callback_query_id)
    await table.emu.wait_for(lambda: _other_game_ready(table))
    elsewhere = await insert_character(
        table, "fate", _fate_hero(), owner=ALICE, chat_id=OTHER_GROUP
    )
    panel = await _panel(table)

    forged = [
        views.FatePointCD(character_id=bobs, delta=-1).pack(),  # someone else's character
        views.FatePointCD(character_id=elsewhere, delta=-1).pack(),  # another game's
        views.FatePointCD(character_id=cid, delta=-3).pack(),  # not a button we ever sent
        views.StressCD(character_id=cid, track=TrackKind.PHYSICAL, box=9, mark=True).pack(),
        views.ResViewCD(character_id=elsewhere, view=views.PanelView.SLOTS).pack(),
        views.UndoCD(character_id=cid, version=1).pack(),  # not a GM
        "rfp:abc:-1",
        "rfp:",
        "garbage",
    ]
    for data in forged:
        pressed = table.emu.press(ALICE, GROUP, panel.message_id, data)
        answer = await table.emu.wait_callback_answer(pressed.callback_query_id)
        assert answer.text and "Traceback" not in answer.text, data
    for character in (cid, bobs, elsewhere):
        assert (await stored_sheet(table, character))["fate_points"] == 3
    assert await ledger_kinds(table) == []
    assert current(table, panel).edits == 0


def _other_game_ready(h: Harness) -> bool:
    last = h.emu.last_bot_message(OTHER_GROUP)
    return last is not None and any("url" in b for b in buttons(last))


async def test_res_by_name_and_without_a_character(table: Harness) -> None:
    await _start(table, "fate", _fate_hero())
    panel = await _panel(table, GM, "ира")
    assert "Ира" in panel.text
    sent = table.emu.send_text(BOB, GROUP, "/res")
    reply = await table.emu.wait_bot_message(GROUP, after=sent.message_id)
    assert "/res" in reply.text and "Ира" in reply.text


async def test_res_before_any_character_says_how_one_comes(running: Harness) -> None:
    """Issue 36: `/res` in a new game answered «…Персонажи: —»; it says how a character
    comes to be, and once one exists it is named."""
    seat_table(running)
    await create_game(running, "matter", "Кампания")
    said = (await send_and_answer(running, ALICE, "/res")).text or ""
    assert said.startswith("В этой игре пока нет персонажей") and "/game" in said
    assert "—" not in said
    await insert_character(running, "matter", matter.new_character("Шакал"), owner=BOB)
    said = (await send_and_answer(running, ALICE, "/res")).text or ""
    assert "Откройте другого по имени" in said and "Шакал" in said


async def test_a_cliches_dice_are_kosti_on_the_panel_too(table: Harness) -> None:
    """The cliché wizard, sheet and fight say «кости» (the seed's word); the panel said
    «Солдат, кубики: 4 → 3» and «Потерянных кубиков нет.»."""
    cid = await _start(table, "cliche", _cliche())
    panel = await _panel(table, GM, "Мал")
    key = item_key("Солдат")
    gain = views.ClicheDiceCD(character_id=cid, index=0, key=key, delta=1).pack()
    refused = await press_data(table, GM, panel, gain)  # not offered (nothing lost): a stale press
    assert refused.text == "Потерянных костей нет."
    lose = views.ClicheDiceCD(character_id=cid, index=0, key=key, delta=-1).pack()
    answer = await _press(table, GM, panel, lose)
    assert answer.text == "Солдат, кости: 4 → 3"
    assert "кубик" not in (await _edited(table, panel, 1)).text
