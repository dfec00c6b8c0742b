"""The panel's «↩️ Undo last» names the change it undoes (the character's version the panel
showed): a repeated or concurrent press, an older button after a newer press and an hour-old
button undo nothing else — never "whatever is newest in the game now"."""

from __future__ import annotations

import asyncio

from sqlalchemy import text

from bot.i18n import I18n
from engine.systems import fate
from engine.systems.fate import TrackKind
from handlers.views import resources as views
from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GM, GROUP, create_game, seat_table
from tests.helpers.table import (
    button_data,
    current,
    game_id,
    insert_character,
    ledger_kinds,
    press_data,
    scalar,
    send_for_buttons,
    stored_sheet,
)
from tgemu import ChatMessage

RU = I18n("ru").translator("ru")


def _hero(name: str) -> fate.Character:
    return fate.new_character(name).model_copy(update={"fate_points": 3})


async def _panel(h: Harness, user: int, args: str = "") -> ChatMessage:
    return await send_for_buttons(h, user, f"/res {args}".strip(), "run:")


async def _press_and_redraw(h: Harness, user: int, panel: ChatMessage, data: str) -> ChatMessage:
    """Press ``data`` on the panel; the panel once the bot has redrawn it."""
    edits = current(h, panel).edits
    answer = await press_data(h, user, panel, data)
    assert not answer.show_alert, answer
    return await h.emu.wait_for(lambda: (m := current(h, panel)).edits > edits and m)


async def _fate_points(h: Harness, cid: int) -> int:
    return int((await stored_sheet(h, cid))["fate_points"])


async def test_carl_then_alice_a_second_undo_press_is_refused_and_carl_keeps_his_spend(
    table: Harness,
) -> None:
    seat_table(table)
    await create_game(table, "fate", "Кампания")
    alice = await insert_character(table, "fate", _hero("Ира"), owner=ALICE)
    carl = await insert_character(table, "fate", _hero("Карл"), owner=BOB)
    carls = await _panel(table, BOB)
    await _press_and_redraw(
        table, BOB, carls, views.FatePointCD(character_id=carl, delta=-1).pack()
    )
    alices = await _panel(table, ALICE)
    mark = views.StressCD(character_id=alice, track=TrackKind.PHYSICAL, box=1, mark=True)
    alices = await _press_and_redraw(table, ALICE, alices, mark.pack())
    undo = button_data(alices, "run:")  # the button as the GM sees it on Alice's panel

    first = await press_data(table, GM, alices, undo)
    assert not first.show_alert
    assert (await stored_sheet(table, alice))["stress"]["physical"] == []
    second = await press_data(table, GM, alices, undo)
    assert second.show_alert and second.text == RU("Already undone.")
    assert await _fate_points(table, carl) == 2  # Carl's spend stands
    assert await ledger_kinds(table) == ["fate.fp.spend", "fate.stress.mark", "undo"]


async def test_concurrent_presses_of_one_undo_undo_once(table: Harness) -> None:
    seat_table(table)
    await create_game(table, "fate", "Кампания")
    alice = await insert_character(table, "fate", _hero("Ира"), owner=ALICE)
    guard = await insert_character(table, "fate", _hero("Стражник"), owner=None, npc=True)
    gid = await game_id(table)
    async with table.engine.begin() as conn:  # Bob co-runs the table
        await conn.execute(
            text("INSERT INTO game_members (game_id, user_id, role) VALUES (:g, :u, 'cogm')"),
            {"g": gid, "u": BOB},
        )
    guards = await _panel(table, GM, "Стражник")  # an older change of another character
    await _press_and_redraw(
        table, GM, guards, views.FatePointCD(character_id=guard, delta=-1).pack()
    )
    panel = await _panel(table, ALICE)
    panel = await _press_and_redraw(
        table, ALICE, panel, views.FatePointCD(character_id=alice, delta=-1).pack()
    )
    undo = button_data(panel, "run:")
    # The GM and the co-GM press together: different users' updates run concurrently.
    presses = [
        table.emu.press(GM if i % 2 else BOB, GROUP, panel.message_id, undo) for i in range(10)
    ]
    answers = await asyncio.gather(
        *(table.emu.wait_callback_answer(p.callback_query_id, timeout=30) for p in presses)
    )
    assert sum(not a.show_alert for a in answers) == 1
    assert all(a.text for a in answers)
    assert await _fate_points(table, alice) == 3
    assert await _fate_points(table, guard) == 2  # the older change is not walked back to
    assert await ledger_kinds(table) == ["fate.fp.spend", "fate.fp.spend", "undo"]


async def test_an_undo_drawn_before_a_newer_press_is_refused(table: Harness) -> None:
    """DECISION: refused, not "its own batch anyway" — the ledger restores whole sheets, so
    undoing the older spend would silently take the newer one back too."""
    seat_table(table)
    await create_game(table, "fate", "Кампания")
    alice = await insert_character(table, "fate", _hero("Ира"), owner=ALICE)
    spend = views.FatePointCD(character_id=alice, delta=-1).pack()
    panel = await _panel(table, ALICE)
    panel = await _press_and_redraw(table, ALICE, panel, spend)
    older = button_data(panel, "run:")
    panel = await _press_and_redraw(table, ALICE, panel, spend)
    newer = button_data(panel, "run:")
    assert older != newer

    refused = await press_data(table, GM, panel, older)
    assert refused.show_alert
    assert refused.text == RU("Those sheets changed since; undo is not possible.")
    assert await _fate_points(table, alice) == 1
    assert not (await press_data(table, GM, panel, newer)).show_alert
    assert await _fate_points(table, alice) == 2  # exactly the newer spend came back
    assert await ledger_kinds(table) == ["fate.fp.spend", "fate.fp.spend", "undo"]


async def test_an_hour_old_change_is_not_undone(table: Harness) -> None:
    seat_table(table)
    await create_game(table, "fate", "Кампания")
    alice = await insert_character(table, "fate", _hero("Ира"), owner=ALICE)
    panel = await _panel(table, ALICE)
    panel = await _press_and_redraw(
        table, ALICE, panel, views.FatePointCD(character_id=alice, delta=-1).pack()
    )
    async with table.engine.begin() as conn:
        await conn.execute(text("UPDATE ledger SET created_at = created_at - interval '61 min'"))
    refused = await press_data(table, GM, panel, button_data(panel, "run:"))
    assert refused.show_alert and refused.text == RU("That change is too old to undo.")
    assert await _fate_points(table, alice) == 2
    assert await scalar(table, "SELECT count(*) FROM ledger WHERE undone_at IS NOT NULL") == 0
