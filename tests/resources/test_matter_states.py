"""matter's states applied in play (issue 22 item 5), over the emulator and Postgres: the /res
panel reads Health through the states (Мини: max 2), has Health buttons that go through the
engine and the ledger, and offers all 23 states — Регенерация with its roll logged."""

from __future__ import annotations

from bot.services.resources import PANEL_STATES
from engine.systems import matter
from engine.systems.matter import ActiveState, StateId
from handlers.views import resources as views
from tests.conftest import Harness
from tests.games.helpers import ALICE, GM, buttons, create_game, seat_table
from tests.helpers.table import (
    current,
    insert_character,
    ledger_kinds,
    press_data,
    scalar,
    send_for_buttons,
    stored_sheet,
)
from tgemu import ChatMessage


async def _start(h: Harness, character: matter.Character) -> int:
    seat_table(h)
    await create_game(h, "matter", "Кампания")
    return await insert_character(h, "matter", character, owner=ALICE)


async def _panel(h: Harness, user: int = ALICE, args: str = "") -> ChatMessage:
    return await send_for_buttons(h, user, f"/res {args}".strip(), "run:")


async def _press(h: Harness, user: int, panel: ChatMessage, data: str) -> str:
    before = current(h, panel).edits
    shown = [b.get("callback_data") for b in buttons(current(h, panel))]
    assert data in shown, (data, shown)
    answer = await press_data(h, user, panel, data)
    assert not answer.show_alert, answer.text
    await h.emu.wait_for(lambda: current(h, panel).edits > before)
    return answer.text or ""


def _mini(name: str = "Кай") -> matter.Character:
    return matter.new_character(name).model_copy(
        update={"states": (ActiveState(state=StateId.MINI),)}
    )


async def test_mini_shrinks_health_on_the_panel_and_health_buttons_use_it(
    table: Harness,
) -> None:
    h = table
    cid = await _start(h, _mini())
    assert (await stored_sheet(h, cid))["health_max"] == 5
    panel = await _panel(h)
    # Alice reads English; the panel speaks the group's language (its GM's Russian)
    assert "Здоровье: 2/2" in panel.text, panel.text
    # issue 36 item 9d: the sheet's Willpower and Anger are on the panel too
    assert "Сила воли: 3/3" in panel.text and "Гнев: 0/3" in panel.text

    down = views.MatterHealthCD(character_id=cid, delta=-1).pack()
    up = views.MatterHealthCD(character_id=cid, delta=1).pack()
    assert "Здоровье: 2/2 → 1/2" in await _press(h, ALICE, panel, down)
    assert "Здоровье: 1/2" in current(h, panel).text
    assert (await stored_sheet(h, cid))["health"] == 1
    # Healing stops at the effective max: one point back, then nothing. (A heal is the GM's to
    # give: a player's press asks the GM, tests/wizards2/test_gm_gates.py.)
    assert "Здоровье: 1/2 → 2/2" in await _press(h, GM, panel, up)
    answer = await press_data(h, GM, panel, up)
    assert answer.text == "Уже полностью."
    assert (await stored_sheet(h, cid))["health"] == 2
    assert await ledger_kinds(h) == ["matter.health.damage", "matter.health.heal"]


async def test_damage_to_zero_cripples_by_the_engine(table: Harness) -> None:
    h = table
    cid = await _start(h, matter.new_character("Кай").model_copy(update={"health": 1}))
    panel = await _panel(h, GM, "Кай")
    await _press(h, GM, panel, views.MatterHealthCD(character_id=cid, delta=-1).pack())
    sheet = await stored_sheet(h, cid)
    assert sheet["health"] == 0
    assert [s["state"] for s in sheet["states"]] == ["crippled"]
    assert "Тяжело ранен" in current(h, panel).text


async def test_all_23_states_are_offered_and_regeneration_rolls_through_the_log(
    table: Harness,
) -> None:
    h = table
    assert len(PANEL_STATES) == 23
    cid = await _start(h, matter.new_character("Кай").model_copy(update={"health": 2}))
    panel = await _panel(h)
    view = views.ResViewCD(character_id=cid, view=views.PanelView.STATES).pack()
    await _press(h, ALICE, panel, view)
    labels = [b["text"] for b in buttons(current(h, panel))]
    assert "Регенерация" in labels
    offered = [b for b in buttons(current(h, panel)) if b["callback_data"].startswith("rms:")]
    assert len(offered) == 23

    regen = views.MatterStateCD(character_id=cid, state=StateId.REGENERATION, on=True).pack()
    await _press(h, ALICE, panel, regen)
    # Health 2 of 5: three dice rolled at once, logged under the panel's roll id.
    logged = await scalar(
        h, "SELECT count(*) FROM rolls WHERE roll_id LIKE 'res:%' AND expression LIKE '3d10%'"
    )
    assert logged == 1
    successes = await scalar(h, "SELECT result FROM rolls WHERE roll_id LIKE 'res:%'")
    sheet = await stored_sheet(h, cid)
    assert [s["state"] for s in sheet["states"]] == ["regeneration"]
    assert sheet["health"] == (3 if successes > 0 else 2)
    assert await ledger_kinds(h) == ["matter.state.apply"]
