"""Issue 36 item 9b: a gated table's player asks the GM for every gain — a lifegear item or
ability ready again (a life back), a matter state taken off — and a gain that cannot apply (a
die back to a full cliché) is refused in the rules' words before anything is asked."""

from __future__ import annotations

from bot.services.resources import item_key
from engine.dice.source import ScriptedSource
from engine.systems import cliche, matter
from engine.systems.lifegear import ItemState
from engine.systems.matter import StateId
from handlers.views import resources as views
from tests.conftest import Harness
from tests.games.helpers import ALICE, GROUP, buttons, create_game, seat_table
from tests.helpers.table import insert_character, press_data, send_for_buttons, stored_sheet
from tests.trackers.lifegear_helpers import hero, weapon


async def _start(h: Harness, system: str, character: object) -> int:
    seat_table(h)
    await create_game(h, system, "Кампания")
    return await insert_character(h, system, character, owner=ALICE)  # type: ignore[arg-type]


async def _asked(h: Harness) -> int:
    await h.emu.wait_idle()
    return sum(
        1
        for m in h.emu.bot_messages(GROUP)
        if any(b.get("callback_data", "").startswith("grq:") for b in buttons(m))
    )


async def test_a_full_cliche_die_request_is_refused_before_asking(running: Harness) -> None:
    sheet = cliche.new_character("Мирра").model_copy(
        update={"cliches": (cliche.Cliche(name="Тень", dice=3, lost=0),)}
    )
    cid = await _start(running, "cliche", sheet)
    panel = await send_for_buttons(running, ALICE, "/res", "run:")
    restore = views.ClicheDiceCD(character_id=cid, index=0, key=item_key("Тень"), delta=1)
    answer = await press_data(running, ALICE, panel, restore.pack())
    assert answer.show_alert and answer.text == "Потерянных костей нет."  # the group's
    assert await _asked(running) == 0


async def test_a_lifegear_item_ready_again_is_asked_for(running: Harness) -> None:
    rifle = weapon("rifle", "Винтовка").model_copy(update={"state": ItemState.BROKEN})
    cid = await _start(running, "lifegear", hero("Лис", "1d8", rifle))
    panel = await send_for_buttons(running, ALICE, "/res", "run:")
    ready = views.GearStateCD(
        character_id=cid, index=0, key=item_key("rifle"), state=ItemState.READY
    )
    answer = await press_data(running, ALICE, panel, ready.pack())
    assert not answer.show_alert and "мастеру" in (answer.text or "")  # the group's Russian
    assert (await stored_sheet(running, cid))["gear"][0]["state"] == "broken"  # not yet
    assert await _asked(running) == 1


async def test_a_matter_state_is_taken_off_by_the_gm_only(running: Harness) -> None:
    bran, _ = matter.apply_state(
        matter.new_character("Бран"), StateId.BERSERK, ScriptedSource([]), resist=False
    )
    cid = await _start(running, "matter", bran)
    panel = await send_for_buttons(running, ALICE, "/res", "run:")
    off = views.MatterStateCD(character_id=cid, state=StateId.BERSERK, on=False)
    answer = await press_data(running, ALICE, panel, off.pack())
    assert not answer.show_alert and "мастеру" in (answer.text or "")  # the group's Russian
    states = (await stored_sheet(running, cid))["states"]
    assert [s["state"] for s in states] == ["berserk"]  # still on
    assert await _asked(running) == 1
