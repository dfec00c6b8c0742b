"""Issue 36 item 4 in the Mini App: a character of an archived game is listed and shown,
marked archived; a change from its page is refused with a word and changes nothing."""

from __future__ import annotations

from sqlalchemy import text

from engine.systems import fate
from tests.games.helpers import ALICE, create_game, seat_table
from tests.helpers import table as tb
from tests.miniapp.conftest import MiniApp


async def test_the_mini_app_shows_an_archived_character_and_refuses_changes(
    mini_app: MiniApp,
) -> None:
    h = mini_app.h
    seat_table(h)
    await create_game(h, "fate", "Кампания")
    cid = await tb.insert_character(h, "fate", fate.new_character("Ира"))
    async with h.engine.begin() as conn:
        await conn.execute(text("UPDATE games SET archived_at = now()"))
    status, body, _ = await mini_app.call("api/characters", user=ALICE)
    assert status == 200 and [c["archived"] for c in body["characters"]] == [True], body
    status, body, _ = await mini_app.call(f"api/sheet/{cid}", user=ALICE)
    assert status == 200 and "archived" in body["html"], body
    op = {"kind": "fate_points", "delta": -1}
    status, body, _ = await mini_app.call(
        f"api/sheet/{cid}/act", user=ALICE, body={"version": 1, "op": op}
    )
    assert status == 409 and "archived" in body["error"], body
    assert (await tb.stored_sheet(h, cid))["fate_points"] == 3
