"""Issue 36 item 6: an open /res panel shows a change made elsewhere without a press — the
GM's grant on a request card, a milestone for the table — redrawn through the bot's normal
outbound layer."""

from __future__ import annotations

from engine.systems import fate
from handlers.views import resources as views
from tests.conftest import Harness
from tests.games.helpers import ALICE, GM, GROUP, buttons, create_game, seat_table
from tests.helpers import table as tb


async def test_a_grant_and_a_milestone_redraw_the_players_open_panel(running: Harness) -> None:
    h = running
    seat_table(h)
    await create_game(h, "fate", "Кампания")
    hero = fate.new_character("Ира").model_copy(update={"fate_points": 1, "refresh": 3})
    cid = await tb.insert_character(h, "fate", hero, owner=ALICE)
    panel = await tb.send_for_buttons(h, ALICE, "/res", "run:")
    gain = views.FatePointCD(character_id=cid, delta=1).pack()
    await tb.press_data(h, ALICE, panel, gain)  # asks the GM: the panel stays as it was
    await h.emu.wait_idle()
    shown = tb.current(h, panel).text

    card = next(
        m for m in h.emu.bot_messages(GROUP)
        if any(b.get("callback_data", "").startswith("grq:") for b in buttons(m))
    )  # fmt: skip
    grant = next(
        b["callback_data"] for b in buttons(card) if b["callback_data"].startswith("grq:")
    )
    assert not (await tb.press_data(h, GM, card, grant)).show_alert
    await h.emu.wait_idle()
    redrawn = tb.current(h, panel)  # nobody pressed the panel
    assert (await tb.stored_sheet(h, cid))["fate_points"] == 2
    assert redrawn.text != shown and "2 (" in redrawn.text, redrawn.text
    undo = views.UndoCD(character_id=cid, version=2).pack()
    assert undo in [b.get("callback_data") for b in buttons(redrawn)]  # drawn on version 2
    shown, edits = redrawn.text, redrawn.edits

    # the GM's minor milestone brings the fate points up to refresh: the panel follows
    picker = await tb.send_and_answer(h, GM, "/milestone")
    await tb.press_data(h, GM, picker, tb.button_data(picker, "mlk:minor"))
    await tb.press_data(h, GM, picker, tb.button_data(tb.current(h, picker), "mlc:"))
    await h.emu.wait_idle()
    assert (await tb.stored_sheet(h, cid))["fate_points"] == 3
    after = tb.current(h, panel)
    assert after.text != shown and after.edits > edits and "3 (" in after.text, after.text
    undo = views.UndoCD(character_id=cid, version=3).pack()
    assert undo in [b.get("callback_data") for b in buttons(after)]
