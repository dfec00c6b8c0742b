"""Issue 36 item 5: /history lists every change of a character — its versions and every
ledger change (a spend, a granted gain, …) — with what changed, who asked, who granted and
when, in the game's time zone."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from sqlalchemy import text

from engine.systems import fate
from handlers.views import resources as views
from tests.conftest import Harness
from tests.games.helpers import ALICE, GM, GROUP, buttons, create_game, seat_table
from tests.helpers import table as tb


async def test_history_lists_ledger_changes_with_who_and_when(running: Harness) -> None:
    h = running
    seat_table(h)
    await create_game(h, "fate", "Кампания")
    hero = fate.new_character("Ира").model_copy(update={"fate_points": 2})
    cid = await tb.insert_character(h, "fate", hero, owner=ALICE)
    async with h.engine.begin() as conn:
        await conn.execute(text("UPDATE games SET timezone = 'Asia/Tokyo'"))

    panel = await tb.send_for_buttons(h, ALICE, "/res", "run:")
    await tb.press_data(h, ALICE, panel, views.FatePointCD(character_id=cid, delta=1).pack())
    await h.emu.wait_idle()
    card = next(
        m for m in h.emu.bot_messages(GROUP)
        if any(b.get("callback_data", "").startswith("grq:") for b in buttons(m))
    )  # fmt: skip
    grant = next(
        b["callback_data"] for b in buttons(card) if b["callback_data"].startswith("grq:")
    )
    assert not (await tb.press_data(h, GM, card, grant)).show_alert
    await tb.press_data(h, ALICE, panel, views.FatePointCD(character_id=cid, delta=-1).pack())
    assert (await tb.stored_sheet(h, cid))["fate_points"] == 2

    said = (await tb.send_and_answer(h, GM, "/history Ира")).text
    assert "v2" in said and "v3" in said, said
    assert "2 → 3" in said and "3 → 2" in said, said
    assert "по просьбе Alice, одобрено: Мастер" in said, said
    async with h.engine.connect() as conn:
        rows = await conn.execute(text("SELECT created_at FROM ledger ORDER BY id"))
        moments = [r[0] for r in rows]
    for moment in moments:  # the game's clock, not UTC
        assert moment.astimezone(ZoneInfo("Asia/Tokyo")).strftime("%d.%m.%Y %H:%M") in said
    # newest first
    assert said.index("3 → 2") < said.index("2 → 3"), said


async def test_history_without_a_name_is_ones_own(running: Harness) -> None:
    """A new GM's hour: `/history` alone answered «Персонаж «» не найден». It shows the
    sender's own character, as `/sheet` does; without one, how to name a character."""
    h = running
    seat_table(h)
    await create_game(h, "fate", "Кампания")
    said = (await tb.send_and_answer(h, ALICE, "/history")).text or ""
    assert said == "/history имя — изменения листа персонажа. В этой игре пока нет персонажей."
    await tb.insert_character(h, "fate", fate.new_character("Ира"), owner=ALICE)
    await tb.insert_character(h, "fate", fate.new_character("Громила"), owner=None, npc=True)
    said = (await tb.send_and_answer(h, ALICE, "/history")).text or ""
    assert said.startswith("История — Ира") and "«»" not in said
    said = (await tb.send_and_answer(h, GM, "/history")).text or ""
    assert said == "/history имя — изменения листа персонажа. Есть: Ира, Громила"
