"""The Mini App in headless Chromium at a phone's size: per system the owner opens the page
with valid initData, sees the sheet's values as stored, presses an action and sees it land
(ledger row, group notice, the page redrawn); screenshots in both themes go to the artefacts
folder. A forged initData shows the refusal page; a change made in the chat reaches an open
page without a reload. Figures (page weight, first render, server time) are written to
``artifacts/measurements.json``."""

from __future__ import annotations

import pytest

from handlers.views import resources as views
from tests.games.helpers import ALICE, BOB, GM, GROUP, create_game, seat_table
from tests.helpers.table import (
    WAIT,
    insert_character,
    ledger_kinds,
    press_data,
    send_for_buttons,
    stored_sheet,
)
from tests.miniapp.browser import MEASURED, Browser, needs_browser
from tests.miniapp.cases import CASES
from tests.miniapp.conftest import MiniApp

pytestmark = needs_browser

LIGHT = {"bg_color": "#ffffff", "text_color": "#000000", "hint_color": "#707579",
         "link_color": "#3390ec", "button_color": "#3390ec", "button_text_color": "#ffffff",
         "secondary_bg_color": "#f4f4f5"}  # fmt: skip
DARK = {"bg_color": "#212121", "text_color": "#ffffff", "hint_color": "#aaaaaa",
        "link_color": "#8774e1", "button_color": "#8774e1", "button_text_color": "#ffffff",
        "secondary_bg_color": "#181818"}  # fmt: skip
SHOWN = "return document.querySelector(arguments[0])?.dataset.value"


async def _measure(browser: Browser, name: str) -> None:
    figures = await browser.js(
        """
        const nav = performance.getEntriesByType('navigation')[0];
        const res = performance.getEntriesByType('resource');
        const timed = res.filter(e => e.serverTiming && e.serverTiming.length);
        return {
          bytes: nav.transferSize + res.reduce((s, e) => s + e.transferSize, 0),
          first_render_ms: Number(document.body.dataset.firstRender),
          first_sheet_ms: Number(document.body.dataset.firstsheet),
          server_ms: timed.map(e => [e.name.replace(/^.*\\/app\\//, ''),
                                     e.serverTiming[0].duration]),
        };
        """
    )
    MEASURED[name] = figures


@pytest.mark.parametrize("system", list(CASES))
async def test_the_owner_sees_and_changes_the_sheet(
    mini_app: MiniApp, browser: Browser, system: str
) -> None:
    case = CASES[system]
    seat_table(mini_app.h)
    await create_game(mini_app.h, system, "Кампания")
    cid = await insert_character(mini_app.h, system, case.make(), owner=ALICE)
    await browser.open(mini_app.url(ALICE, theme=LIGHT, language="ru"))
    await browser.wait("return document.body.dataset.view === 'sheet'")
    await _measure(browser, system)
    stored = await stored_sheet(mini_app.h, cid)
    assert int(await browser.wait(SHOWN, case.field)) == case.shown(stored)
    title = await browser.js("return document.querySelector('h1[data-character]').innerText")
    assert stored["name"] in title
    await browser.screenshot(f"{system}-light")

    await browser.press(case.op)
    now = case.shown(stored) - 1
    await browser.wait(f"return {SHOWN.removeprefix('return ')} == arguments[1]", case.field, now)
    assert case.shown(await stored_sheet(mini_app.h, cid)) == now
    assert await ledger_kinds(mini_app.h) == [case.kind]
    notice = await mini_app.h.emu.wait_bot_message(GROUP, contains=case.notice, timeout=WAIT)
    assert "Alice" in notice.text
    logged = await browser.wait("return document.querySelector('[data-ledger]')?.dataset.kind")
    assert logged == case.kind

    await browser.open(mini_app.url(ALICE, theme=DARK, language="en"))
    await browser.wait("return document.body.dataset.view === 'sheet'")
    background = await browser.js("return getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(33, 33, 33)"
    await browser.screenshot(f"{system}-dark")


async def test_forged_init_data_shows_the_refusal_page(
    mini_app: MiniApp, browser: Browser
) -> None:
    seat_table(mini_app.h)
    await create_game(mini_app.h, "fate", "Кампания")
    await insert_character(mini_app.h, "fate", CASES["fate"].make(), owner=ALICE)
    url = mini_app.url(ALICE, theme=LIGHT, language="ru")
    forged = url.replace("%2522id%2522%253A1001", "%2522id%2522%253A1002")
    assert forged != url
    await browser.open(forged)
    text = await browser.wait("return document.getElementById('refused')?.innerText")
    assert "Telegram" in text and "Ира" not in await browser.js("return document.body.innerHTML")
    assert await browser.js("return document.title") == "Доступ закрыт"
    await browser.screenshot("refused")


async def test_a_change_in_the_chat_reaches_the_open_page(
    mini_app: MiniApp, browser: Browser
) -> None:
    seat_table(mini_app.h)
    await create_game(mini_app.h, "fate", "Кампания")
    cid = await insert_character(mini_app.h, "fate", CASES["fate"].make(), owner=ALICE)
    await browser.open(mini_app.url(ALICE, theme=LIGHT))
    await browser.wait("return document.body.dataset.view === 'sheet'")
    await browser.js("window.notReloaded = true")
    panel = await send_for_buttons(mini_app.h, ALICE, "/res", "run:")
    await press_data(
        mini_app.h, ALICE, panel, views.FatePointCD(character_id=cid, delta=-1).pack()
    )
    field = CASES["fate"].field
    await browser.wait(f"return {SHOWN.removeprefix('return ')} == '2'", field, timeout=15)
    assert await browser.js("return window.notReloaded === true")


async def test_the_gm_picks_any_character_of_the_game(mini_app: MiniApp, browser: Browser) -> None:
    seat_table(mini_app.h)
    await create_game(mini_app.h, "fate", "Кампания")
    await insert_character(mini_app.h, "fate", CASES["fate"].make(), owner=ALICE)
    bob = CASES["fate"].make().model_copy(update={"name": "Боб"})
    bob_id = await insert_character(mini_app.h, "fate", bob, owner=BOB)
    await browser.open(mini_app.url(GM, theme=DARK, language="ru"))
    await browser.wait("return document.body.dataset.view === 'list'")
    names = await browser.js(
        "return [...document.querySelectorAll('.list a b')].map(b => b.innerText)"
    )
    assert names == ["Ира", "Боб"]
    await browser.screenshot("gm-list-dark")
    await browser.js(f"document.querySelector('[data-character=\"{bob_id}\"]').click()")
    await browser.wait("return document.body.dataset.view === 'sheet'")
    assert "Боб" in await browser.js("return document.querySelector('h1').innerText")
