"""Issue 36 item 6 from the Mini App: a change made on the page redraws the character's /res
panel open in the group, without a press."""

from __future__ import annotations

from engine.systems import fate
from tests.games.helpers import ALICE, create_game, seat_table
from tests.helpers import table as tb
from tests.miniapp.conftest import MiniApp


async def test_a_change_on_the_page_redraws_the_open_panel(mini_app: MiniApp) -> None:
    h = mini_app.h
    seat_table(h)
    await create_game(h, "fate", "Кампания")
    cid = await tb.insert_character(h, "fate", fate.new_character("Ира"))
    panel = await tb.send_for_buttons(h, ALICE, "/res", "run:")
    shown, edits = panel.text, panel.edits
    assert "3 (" in shown, shown
    op = {"kind": "fate_points", "delta": -1}
    status, body, _ = await mini_app.call(
        f"api/sheet/{cid}/act", user=ALICE, body={"version": 1, "op": op}
    )
    assert status == 200 and body["changed"], body
    await h.emu.wait_idle()
    redrawn = tb.current(h, panel)
    assert redrawn.edits > edits and "2 (" in redrawn.text, redrawn.text
