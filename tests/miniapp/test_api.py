"""The Mini App's API over HTTP against the running bot, the emulator and Postgres: the buttons
that open it, initData checks, who sees which sheet, actions through the panel's use case (the
ledger row, the group's notice, the same refusals), and the ETag a polling page relies on."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time

import pytest

from engine.common import SheetModel
from handlers.views import grants as grant_views
from handlers.views import resources as views
from tests.games.helpers import ALICE, BOB, GM, GROUP, buttons, create_game, seat_table
from tests.helpers.table import (
    WAIT,
    insert_character,
    ledger_kinds,
    press_data,
    scalar,
    send_for_buttons,
    stored_sheet,
)
from tests.miniapp.cases import CASES
from tests.miniapp.conftest import MiniApp
from tgemu import ChatMessage


async def _table(app: MiniApp, system: str = "fate") -> int:
    seat_table(app.h)
    await create_game(app.h, system, "Кампания")
    return await insert_character(app.h, system, CASES[system].make(), owner=ALICE)


async def _version(app: MiniApp, cid: int) -> int:
    status, body, _ = await app.call(f"api/sheet/{cid}", user=ALICE)
    assert status == 200, body
    return int(body["version"])


async def test_sheet_and_menu_buttons_open_the_page(mini_app: MiniApp) -> None:
    await _table(mini_app)
    emu = mini_app.h.emu
    sent = emu.send_text(ALICE, ALICE, "/sheet")
    reply = await emu.wait_bot_message(ALICE, after=sent.message_id, timeout=WAIT)
    opened = [b["web_app"]["url"] for b in buttons(reply) if "web_app" in b]
    assert opened == [mini_app.base]
    menu = [c for c in emu.calls if c.method == "setChatMenuButton"]
    button = menu[-1].params["menu_button"]
    button = json.loads(button) if isinstance(button, str) else button
    assert button["type"] == "web_app" and button["web_app"]["url"] == mini_app.base


async def test_the_page_itself_is_served(mini_app: MiniApp) -> None:
    for path, kind in (("", "text/html"), ("static/app.js", "javascript"),
                       ("static/app.css", "text/css")):  # fmt: skip
        async with mini_app.http.get(mini_app.base + path) as res:
            assert res.status == 200 and kind in res.headers["Content-Type"]
    async with mini_app.http.get(mini_app.base + "static/../auth.py") as res:
        assert res.status == 404


async def test_without_valid_init_data_nothing_is_shown(mini_app: MiniApp) -> None:
    cid = await _table(mini_app)
    good = mini_app.init_data(ALICE)
    forged = good.replace("%22id%22%3A1001", "%22id%22%3A1000")  # claims to be the GM
    assert forged != good
    expired = mini_app.init_data(ALICE, auth_date=int(time.time()) - 25 * 3600)
    other_bot = good.rsplit("hash=", 1)[0] + "hash=" + "ab" * 32
    for init_data in ("", forged, expired, other_bot, "user=1001"):
        for path in ("api/characters", f"api/sheet/{cid}"):
            status, body, _ = await mini_app.call(path, init_data=init_data)
            assert status == 401 and set(body) == {"error", "title"}, (init_data, body)
            assert "Ира" not in json.dumps(body, ensure_ascii=False)
        op = {"version": 1, "op": CASES["fate"].op}
        status, _, _ = await mini_app.call(f"api/sheet/{cid}/act", init_data=forged, body=op)
        assert status == 401
    assert (await stored_sheet(mini_app.h, cid))["fate_points"] == 3
    assert await ledger_kinds(mini_app.h) == []


async def test_each_user_sees_their_own_and_the_gm_sees_the_game(mini_app: MiniApp) -> None:
    alice = await _table(mini_app)

    def named(name: str) -> SheetModel:  # a game holds one active character of a name
        return CASES["fate"].make().model_copy(update={"name": name})

    bob = await insert_character(mini_app.h, "fate", named("Бран"), owner=BOB)
    npc = await insert_character(mini_app.h, "fate", named("Страж"), owner=GM, npc=True)
    seen = {}
    for user in (ALICE, BOB, GM):
        status, body, _ = await mini_app.call("api/characters", user=user)
        assert status == 200
        seen[user] = [c["id"] for c in body["characters"]]
    assert seen == {ALICE: [alice], BOB: [bob], GM: [alice, bob, npc]}
    status, body, _ = await mini_app.call(f"api/sheet/{alice}", user=BOB)
    assert status == 404 and "html" not in body
    status, _, _ = await mini_app.call(
        f"api/sheet/{alice}/act", user=BOB, body={"version": 1, "op": CASES["fate"].op}
    )
    assert status == 404
    status, body, _ = await mini_app.call(f"api/sheet/{alice}", user=GM)
    assert status == 200 and "Ира" in body["html"]
    assert (await stored_sheet(mini_app.h, alice))["fate_points"] == 3


@pytest.mark.parametrize("system", list(CASES))
async def test_an_action_is_the_panels_change(mini_app: MiniApp, system: str) -> None:
    case = CASES[system]
    cid = await _table(mini_app, system)
    version = await _version(mini_app, cid)
    before = case.shown(await stored_sheet(mini_app.h, cid))
    status, body, _ = await mini_app.call(
        f"api/sheet/{cid}/act", user=ALICE, body={"version": version, "op": case.op}
    )
    assert status == 200 and body["changed"], body
    assert body["version"] == version + 1
    assert case.shown(await stored_sheet(mini_app.h, cid)) == before - 1
    assert await ledger_kinds(mini_app.h) == [case.kind]
    notice = await mini_app.h.emu.wait_bot_message(GROUP, contains=case.notice, timeout=WAIT)
    assert "Alice" in notice.text
    # the same press again names a version that is gone: nothing changes twice
    status, again, _ = await mini_app.call(
        f"api/sheet/{cid}/act", user=ALICE, body={"version": version, "op": case.op}
    )
    assert status == 409 and again["error"]
    assert await ledger_kinds(mini_app.h) == [case.kind]


async def test_user_text_is_escaped(mini_app: MiniApp) -> None:
    seat_table(mini_app.h)
    await create_game(mini_app.h, "cliche", "<b>Кампания</b>")
    hostile = '<img src=x onerror="alert(1)">'
    sheet = CASES["cliche"].make().model_copy(update={"name": hostile})
    cid = await insert_character(mini_app.h, "cliche", sheet, owner=ALICE)
    status, body, _ = await mini_app.call(f"api/sheet/{cid}", user=ALICE)
    assert status == 200
    assert (
        "<img" not in body["html"]
        and "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in (body["html"])
    )
    assert "<b>Кампания" not in body["html"]
    async with mini_app.http.get(mini_app.base) as res:
        assert "script-src 'self'" in res.headers["Content-Security-Policy"]


async def test_the_engine_refuses_as_on_the_panel(mini_app: MiniApp) -> None:
    seat_table(mini_app.h)
    await create_game(mini_app.h, "fate", "Кампания")
    broke = CASES["fate"].make().model_copy(update={"fate_points": 0})
    cid = await insert_character(mini_app.h, "fate", broke, owner=ALICE)
    version = await _version(mini_app, cid)
    status, body, _ = await mini_app.call(
        f"api/sheet/{cid}/act", user=ALICE, body={"version": version, "op": CASES["fate"].op}
    )
    assert status == 409 and "0" in body["error"]
    assert await ledger_kinds(mini_app.h) == []
    for bad in ({"kind": "fate_points", "delta": -5}, {"kind": "nope"}, "x", None):
        status, _, _ = await mini_app.call(
            f"api/sheet/{cid}/act", user=ALICE, body={"version": version, "op": bad}
        )
        assert status == 400
    assert (await stored_sheet(mini_app.h, cid))["fate_points"] == 0


async def test_two_taps_at_once_change_once(mini_app: MiniApp) -> None:
    cid = await _table(mini_app)
    version = await _version(mini_app, cid)
    body = {"version": version, "op": CASES["fate"].op}
    results = await asyncio.gather(
        *(mini_app.call(f"api/sheet/{cid}/act", user=ALICE, body=body) for _ in range(4))
    )
    assert sorted(r[0] for r in results) == [200, 409, 409, 409]
    assert (await stored_sheet(mini_app.h, cid))["fate_points"] == 2
    assert await ledger_kinds(mini_app.h) == ["fate.fp.spend"]


async def test_a_change_in_the_chat_moves_the_etag(mini_app: MiniApp) -> None:
    cid = await _table(mini_app)
    status, body, res = await mini_app.call(f"api/sheet/{cid}", user=ALICE)
    etag = res.headers["ETag"]
    assert status == 200 and body["etag"] == etag and "Server-Timing" in res.headers
    status, _, _ = await mini_app.call(
        f"api/sheet/{cid}", user=ALICE, headers={"If-None-Match": etag}
    )
    assert status == 304
    panel = await send_for_buttons(mini_app.h, ALICE, "/res", "run:")
    data = views.FatePointCD(character_id=cid, delta=-1).pack()
    await press_data(mini_app.h, ALICE, panel, data)
    status, body, _ = await mini_app.call(
        f"api/sheet/{cid}", user=ALICE, headers={"If-None-Match": etag}
    )
    assert status == 200 and body["etag"] != etag
    assert 'data-value="2">2<' in body["html"]


def _cards(app: MiniApp) -> list[ChatMessage]:
    """The group's request cards that still carry the GM's buttons."""
    return [
        m
        for m in app.h.emu.bot_messages(GROUP)
        if any(b.get("callback_data", "").startswith("grq:") for b in buttons(m))
    ]


def _grant(card: ChatMessage) -> str:
    return next(
        b["callback_data"]
        for b in buttons(card)
        if b.get("callback_data", "").startswith("grq:")
        and grant_views.GrantCD.unpack(b["callback_data"]).yes
    )


async def _trust_the_table(app: MiniApp) -> None:
    """The GM's /options switch: players gain without asking."""
    options = await send_for_buttons(app.h, GM, "/options", "gtr:")
    await press_data(app.h, GM, options, grant_views.GrantTrustCD(on=True).pack())
    assert await scalar(app.h, "SELECT count(*) FROM grant_trust") == 1


async def _open_requests(app: MiniApp) -> int:
    return int(await scalar(app.h, "SELECT count(*) FROM resource_grants WHERE status = 'open'"))


async def test_a_players_gain_asks_the_gm_in_the_chat(mini_app: MiniApp) -> None:
    """Issue 24 item 10: the page's «+1» on a gain is the panel's — a player's opens a request
    and the group gets the card the GM grants with one tap; until then nothing changes."""
    cid = await _table(mini_app)
    version = await _version(mini_app, cid)
    gain = {"version": version, "op": {"kind": "fate_points", "delta": 1}}
    russian = mini_app.init_data(ALICE, language="ru")
    status, body, _ = await mini_app.call(f"api/sheet/{cid}/act", init_data=russian, body=gain)
    assert status == 200 and not body["changed"] and body["asked"], body
    assert body["summary"] == "Запрос отправлен мастеру: он в чате игры."
    assert body["version"] == version and 'data-value="3">3<' in body["html"]
    assert (await stored_sheet(mini_app.h, cid))["fate_points"] == 3
    assert await ledger_kinds(mini_app.h) == [] and await _open_requests(mini_app) == 1
    card = await mini_app.h.emu.wait_bot_message(GROUP, contains="🙋", timeout=WAIT)
    assert "Ира" in card.text and "Alice" in card.text
    assert _cards(mini_app) == [card]

    # a second press while it is open asks nothing new, on the page as on the panel
    status, again, _ = await mini_app.call(f"api/sheet/{cid}/act", user=ALICE, body=gain)
    assert status == 409 and again["error"] == "Already asked: the GM has not answered yet."
    await mini_app.h.emu.wait_idle()
    assert len(_cards(mini_app)) == 1 and await _open_requests(mini_app) == 1

    answer = await press_data(mini_app.h, GM, card, _grant(card))  # the GM's one tap
    assert not answer.show_alert, answer
    assert (await stored_sheet(mini_app.h, cid))["fate_points"] == 4
    assert await ledger_kinds(mini_app.h) == ["fate.fp.gain"]
    assert await scalar(mini_app.h, "SELECT asked_by_user_id FROM ledger") == ALICE
    assert await _open_requests(mini_app) == 0
    status, body, _ = await mini_app.call(f"api/sheet/{cid}", user=ALICE)
    assert status == 200 and 'data-value="4">4<' in body["html"]


async def test_the_gms_press_and_a_trusting_table_gain_at_once(mini_app: MiniApp) -> None:
    cid = await _table(mini_app)
    gain = {"kind": "fate_points", "delta": 1}
    version = await _version(mini_app, cid)
    status, body, _ = await mini_app.call(
        f"api/sheet/{cid}/act", user=GM, body={"version": version, "op": gain}
    )
    assert status == 200 and body["changed"] and "asked" not in body, body
    await _trust_the_table(mini_app)
    status, body, _ = await mini_app.call(
        f"api/sheet/{cid}/act", user=ALICE,
        body={"version": await _version(mini_app, cid), "op": gain},
    )  # fmt: skip
    assert status == 200 and body["changed"] and "asked" not in body, body
    assert (await stored_sheet(mini_app.h, cid))["fate_points"] == 5
    assert await ledger_kinds(mini_app.h) == ["fate.fp.gain", "fate.fp.gain"]
    assert _cards(mini_app) == [] and await _open_requests(mini_app) == 0


@pytest.mark.parametrize("system", ["fate", "storyteller", "cliche", "matter"])
async def test_the_gain_buttons_say_they_ask(mini_app: MiniApp, system: str) -> None:
    """«🙋 +1» for the player at a gated table, as the panel's «🙋 Ask…»; «+1» for the GM
    and, once the table is trusted, for the player too (the ETag moves with it)."""
    cid = await _table(mini_app, system)

    def plus(html: str) -> list[str]:
        return re.findall(r'<button type="button" class="act plus[^"]*"[^>]*>([^<]*)<', html)

    status, body, res = await mini_app.call(f"api/sheet/{cid}", user=ALICE)
    assert status == 200 and "🙋 +1" in plus(body["html"]) and "+1" not in plus(body["html"])
    assert 'title="Ask the GM"' in body["html"]
    status, ru, _ = await mini_app.call(
        f"api/sheet/{cid}", init_data=mini_app.init_data(ALICE, language="ru")
    )
    assert status == 200 and 'title="Попросить у мастера"' in ru["html"]
    status, gm, _ = await mini_app.call(f"api/sheet/{cid}", user=GM)
    assert status == 200 and "+1" in plus(gm["html"]) and "🙋" not in gm["html"]
    await _trust_the_table(mini_app)
    status, trusted, _ = await mini_app.call(
        f"api/sheet/{cid}", user=ALICE, headers={"If-None-Match": res.headers["ETag"]}
    )
    assert status == 200 and "+1" in plus(trusted["html"]) and "🙋" not in trusted["html"]


async def test_a_lost_card_keeps_the_request(
    mini_app: MiniApp, caplog: pytest.LogCaptureFixture
) -> None:
    """The request is committed before the card is sent: a refused send loses neither it nor
    the answer, and the log says so."""
    cid = await _table(mini_app)
    version = await _version(mini_app, cid)
    mini_app.h.emu.add_fault(
        "sendMessage", status=403, chat_id=GROUP, description="Forbidden: bot was kicked"
    )
    gain = {"version": version, "op": {"kind": "fate_points", "delta": 1}}
    with caplog.at_level(logging.WARNING, logger="webapp.server"):
        status, body, _ = await mini_app.call(f"api/sheet/{cid}/act", user=ALICE, body=gain)
    assert status == 200 and body["asked"], body
    assert body["summary"] == "Asked the GM: the request is in the game's chat."
    assert await _open_requests(mini_app) == 1
    assert any("request card" in r.getMessage() for r in caplog.records), caplog.text
    assert (await stored_sheet(mini_app.h, cid))["fate_points"] == 3
