"""A Mini App action's notice goes to the game's forum topic."""

from __future__ import annotations

from tests.games.helpers import ALICE
from tests.miniapp.conftest import MiniApp
from tests.topics.helpers import fate_character, forum_table, in_topic


async def test_a_panel_press_is_told_in_the_games_topic(mini_app: MiniApp) -> None:
    h = mini_app.h
    forum = await forum_table(h)
    cid = await fate_character(h, forum.dragons_game)
    status, body, _ = await mini_app.call(f"api/sheet/{cid}", user=ALICE)
    assert status == 200, body
    status, body, _ = await mini_app.call(
        f"api/sheet/{cid}/act", user=ALICE,
        body={"version": body["version"], "op": {"kind": "fate_points", "delta": -1}},
    )  # fmt: skip
    assert status == 200 and body["changed"], body
    notice = await h.emu.wait_for(
        lambda: next((m for m in in_topic(h, forum.dragons) if "1 → 0" in m.text), None)
    )
    assert "Alice" in notice.text
    assert in_topic(h, None) == []  # nothing in «General»
    assert all("1 → 0" not in m.text for m in in_topic(h, forum.shadows))
