"""«📱 Sheet» is there wherever a sheet or a list of them is in the private chat (issue 33,
item 11): a GM with no character of their own, and ``/sheet Name`` in private."""

from __future__ import annotations

import re

from tests.games.helpers import ALICE, GM, buttons
from tests.helpers.table import WAIT
from tests.miniapp.conftest import MiniApp
from tests.miniapp.test_api import _table


def _apps(message: object) -> list[str]:
    return [b["web_app"]["url"] for b in buttons(message) if "web_app" in b]  # type: ignore[arg-type]


async def test_the_sheet_button_is_beside_every_private_sheet(mini_app: MiniApp) -> None:
    await _table(mini_app)
    emu = mini_app.h.emu
    sent = emu.send_text(GM, GM, "/sheet")
    gm = await emu.wait_bot_message(GM, after=sent.message_id, timeout=WAIT)
    assert _apps(gm) == [mini_app.base], gm.text
    sent = emu.send_text(ALICE, ALICE, "/sheet Ира")
    named = await emu.wait_bot_message(ALICE, after=sent.message_id, timeout=WAIT)
    assert "Ира" in named.text and _apps(named) == [mini_app.base], named.text


async def test_a_ledger_line_says_who_and_which_box(mini_app: MiniApp) -> None:
    cid = await _table(mini_app)
    emu = mini_app.h.emu
    sent = emu.send_text(ALICE, ALICE, "/start")  # the bot knows her name
    await emu.wait_bot_message(ALICE, after=sent.message_id, timeout=WAIT)
    status, body, _ = await mini_app.call(f"api/sheet/{cid}", user=ALICE)
    op = {"kind": "stress", "track": "physical", "box": 1, "mark": True}
    status, body, _ = await mini_app.call(
        f"api/sheet/{cid}/act", user=ALICE, body={"version": body["version"], "op": op}
    )
    assert status == 200 and body["changed"], body
    line = re.search(r"<li data-ledger=[^>]*>(.*?)</li>", body["html"], re.S)
    assert line is not None, body["html"]
    words = re.sub(r"<[^>]+>", "", line.group(1))
    assert "Physical stress" in words and "1" in words and "Alice" in words, words
    assert words.startswith("Stress box marked"), words  # the line's head is capitalised
