"""The milestone's undo names its batch: an unrelated later change (another character's panel)
does not block it, concurrent presses undo it once, and a later press says it is undone."""

from __future__ import annotations

import asyncio

from sqlalchemy import text

from bot.i18n import I18n
from engine.systems import fate
from handlers.views import resources as views
from tests.conftest import Harness
from tests.games.helpers import BOB, GM, GROUP, buttons
from tests.helpers import table as tb
from tests.milestones.test_milestones import _fate_table, _press, _preview, _sheets, _table

RU = I18n("ru").translator("ru")  # the GM's language


async def test_milestone_undo_is_its_own_batch_once(running: Harness) -> None:
    h = running
    mira, boris, npc = await _table(h, "fate", _fate_table())
    before = await _sheets(h.engine)
    preview = await _preview(h, "minor")
    await _press(h, GM, preview, "mlc:")
    applied = await _sheets(h.engine)
    assert applied[boris] == before[boris]  # nothing happens to Boris: not in the batch
    undo = next(
        b["callback_data"] for b in buttons(tb.current(h, preview)) if "mlu:" in b["callback_data"]
    )

    # Later, Bob spends one of Boris' points on his panel: a newer, unrelated ledger change.
    panel = await tb.send_for_buttons(h, BOB, "/res", "run:")
    spend = views.FatePointCD(character_id=boris, delta=-1).pack()
    assert not (await tb.press_data(h, BOB, panel, spend)).show_alert
    async with h.engine.begin() as conn:  # Bob co-runs the table from now on
        await conn.execute(
            text("UPDATE game_members SET role = 'cogm' WHERE user_id = :u"), {"u": BOB}
        )

    pressed = [
        h.emu.press(GM if i % 2 else BOB, GROUP, preview.message_id, undo) for i in range(6)
    ]
    answers = await asyncio.gather(
        *(h.emu.wait_callback_answer(p.callback_query_id, timeout=30) for p in pressed)
    )
    assert sum(not a.show_alert for a in answers) == 1
    after = await _sheets(h.engine)
    assert after[mira] == before[mira] and after[npc] == before[npc]
    assert fate.Character.model_validate(after[boris]).fate_points == 4  # Bob's spend stands
    assert await tb.scalar(h, "SELECT count(*) FROM ledger WHERE kind = 'undo'") == 2
    again = await tb.press_data(h, GM, preview, undo)
    assert again.show_alert and again.text == RU("Already undone.")
    assert await _sheets(h.engine) == after


async def test_a_panel_does_not_undo_a_milestones_change(running: Harness) -> None:
    h = running
    mira, _boris, _npc = await _table(h, "fate", _fate_table())
    preview = await _preview(h, "minor")
    await _press(h, GM, preview, "mlc:")
    applied = await _sheets(h.engine)
    panel = await tb.send_for_buttons(h, GM, "/res Мира", "run:")  # shows the milestone's state
    refused = await tb.press_data(h, GM, panel, tb.button_data(panel, "run:"))
    assert refused.show_alert
    assert refused.text == RU("This change belongs to a milestone or a fight: undo it there.")
    assert await _sheets(h.engine) == applied and applied[mira]["fate_points"] == 3
    assert await tb.scalar(h, "SELECT count(*) FROM ledger WHERE undone_at IS NOT NULL") == 0
