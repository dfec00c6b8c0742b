"""The Mini App lists the character's own rolls (issue 33): a sheet roll, a GM's request its
player rolled and an inline trait roll are logged for the character (the player is the actor),
and a free roll of its player shows too — each with its log entry."""

from __future__ import annotations

from tests.games.helpers import ALICE, GM, GROUP, buttons
from tests.helpers.table import WAIT, scalar, send_and_answer
from tests.miniapp.conftest import MiniApp
from tests.miniapp.test_api import _table


async def _page(app: MiniApp, cid: int) -> str:
    status, body, _ = await app.call(f"api/sheet/{cid}", user=ALICE)
    assert status == 200, body
    return str(body["html"])


async def test_the_page_lists_the_characters_rolls(mini_app: MiniApp) -> None:
    h = mini_app.h
    emu = h.emu
    cid = await _table(mini_app)
    assert "data-roll" not in await _page(mini_app, cid)

    await send_and_answer(h, ALICE, "/r Fight", chat_id=GROUP)
    await emu.wait_idle(WAIT)
    await send_and_answer(h, ALICE, "/r 2d6 на удачу", chat_id=GROUP)
    await emu.wait_idle(WAIT)
    said = emu.send_text(ALICE, GROUP, "Лезу на стену")
    emu.send_text(GM, GROUP, "/request 4dF+2 vs 3", reply_to=said.message_id)
    card = await emu.wait_bot_message(GROUP, contains="🎲", after=said.message_id, timeout=WAIT)
    pressed = emu.press(ALICE, GROUP, card.message_id, buttons(card)[0]["callback_data"])
    await emu.wait_callback_answer(pressed.callback_query_id, timeout=WAIT)
    await emu.wait_idle(WAIT)

    subjects = await scalar(
        h, "SELECT string_agg(subject || '|' || actor, ',' ORDER BY seq) FROM rolls"
    )
    # the sheet roll and the request are the character's; the free roll is Alice's
    assert subjects == "Ира|Alice,Alice|Alice,Ира|Alice", subjects
    html = await _page(mini_app, cid)
    assert html.count("data-roll=") == 3, html
    for expression in ("4dF+4", "2d6", "4dF+2"):
        assert expression in html, (expression, html)
