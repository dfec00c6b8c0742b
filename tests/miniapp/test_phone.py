"""The Mini App as a phone shows it (issue 33, item 10), in headless Chromium at 390 px: no
word of a gear row breaks, the page's title is the character's and Russian, grey hint text
reads at 4.5:1 against what it sits on with Telegram's light colours, and the storyteller
concept stands under the name. At 360 px, in both themes, every button takes a thumb (40 px
each way), nothing passes the screen's edge and every text reads at 4.5:1; the GM's list marks
NPCs and the archived; «← All characters» leads to the list; an error that is not the bot's
toasts the page's own words."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import text

from bot.services.rolls import roll_logged
from db.database import create_session_factory
from db.uow import UnitOfWork
from engine.systems import fate, lifegear
from engine.systems.lifegear import Item, ItemKind
from tests.games.helpers import ALICE, GM, GROUP, create_game, seat_table
from tests.helpers.table import insert_character
from tests.miniapp.browser import Browser, needs_browser
from tests.miniapp.cases import CASES
from tests.miniapp.conftest import MiniApp
from tests.miniapp.test_browser import DARK, LIGHT, _measure
from webapp.service import LEDGER_SHOWN, ROLLS_SHOWN

pytestmark = needs_browser

# Every text element's colour against what is drawn under it (its own and its ancestors'
# backgrounds composed: a chip's is translucent), by WCAG's formula; the lowest few, with
# their text. Colours are read through a canvas: a computed color-mix() is «color(srgb …)»,
# which a parse of «rgb(…)» numbers misread as near black.
CONTRAST = """
const cv = document.createElement('canvas'); cv.width = cv.height = 1;
const cx = cv.getContext('2d', {willReadFrequently: true});
function rgba(s) {  // any CSS colour (rgb(), color(srgb …), color-mix results) as [r, g, b, a]
  cx.clearRect(0, 0, 1, 1); cx.fillStyle = '#000'; cx.fillStyle = s; cx.fillRect(0, 0, 1, 1);
  const d = cx.getImageData(0, 0, 1, 1).data; return [d[0], d[1], d[2], d[3] / 255];
}
function over(top, under) {
  const a = top[3]; return [0, 1, 2].map(i => top[i] * a + under[i] * (1 - a)).concat(1);
}
function bg(el) {  // the colour drawn under el: its own and its ancestors' backgrounds composed
  const layers = [];
  for (; el; el = el.parentElement) {
    const c = rgba(getComputedStyle(el).backgroundColor);
    if (c[3] > 0) layers.push(c);
    if (c[3] === 1) break;
  }
  let under = [255, 255, 255, 1];
  for (const layer of layers.reverse()) under = over(layer, under);
  return under;
}
function lin(c) { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); }
function lum([r, g, b]) { return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b); }
const found = [];
for (const el of document.querySelectorAll('#app *')) {
  const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
  if (!own || el.closest('button')) continue;
  const under = bg(el), a = lum(over(rgba(getComputedStyle(el).color), under)), b = lum(under);
  const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  found.push([Math.round(ratio * 100) / 100, el.tagName, el.textContent.trim().slice(0, 30)]);
}
return found.sort((x, y) => x[0] - y[0]).slice(0, 5);
"""

# Words of the gear rows drawn on more than one line (a word broken in the middle).
BROKEN_WORDS = """
const broken = [];
for (const label of document.querySelectorAll('.gear .label')) {
  const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const re = /\\S+/g; let m;
    while ((m = re.exec(node.textContent))) {
      const range = document.createRange();
      range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
      const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
      if (lines.size > 1) broken.push(m[0]);
    }
  }
}
return broken;
"""


def _armoured() -> lifegear.Character:
    """A fighter whose gear has long names and rules beside its buttons."""
    gear = (
        Item(id="mail", name="Кольчуга", kind=ItemKind.ARMOR,
             description="выдерживает один удар мечом"),
        Item(id="axe", name="Двуручный топор", kind=ItemKind.WEAPON, dice="1d6",
             description="оружие, 1d6"),
        Item(id="shield", name="Щит", kind=ItemKind.ARMOR),
    )  # fmt: skip
    character: lifegear.Character = CASES["lifegear"].make()
    return character.model_copy(update={"gear": gear, "max_lives": 6})


async def _open(app: MiniApp, browser: Browser, system: str, sheet: object) -> None:
    seat_table(app.h)
    await create_game(app.h, system, "Кампания")
    await insert_character(app.h, system, sheet, owner=ALICE)  # type: ignore[arg-type]
    await browser.open(app.url(ALICE, theme=LIGHT, language="ru"))
    await browser.wait("return document.body.dataset.view === 'sheet'")


async def test_a_lifegear_sheet_on_a_phone(mini_app: MiniApp, browser: Browser) -> None:
    sheet = _armoured()
    await _open(mini_app, browser, "lifegear", sheet)
    assert await browser.js(BROKEN_WORDS) == []
    assert await browser.js("return document.title") == sheet.name
    lowest = await browser.js(CONTRAST)
    assert lowest[0][0] >= 4.5, lowest
    await browser.screenshot("lifegear-phone")


async def test_the_storyteller_concept_is_under_the_name(
    mini_app: MiniApp, browser: Browser
) -> None:
    sheet = CASES["storyteller"].make().model_copy(update={"concept": "Бродячий сказочник"})
    await _open(mini_app, browser, "storyteller", sheet)
    where = await browser.js(
        "const c = [...document.querySelectorAll('#app *')].find("
        "e => e.textContent.trim().startsWith('Бродячий сказочник'));"
        "return [c.previousElementSibling?.tagName, !!c.closest('section')];"
    )
    assert where == ["HEADER", False], where
    lowest = await browser.js(CONTRAST)
    assert lowest[0][0] >= 4.5, lowest


async def test_a_busy_sheet_stays_light(mini_app: MiniApp, browser: Browser) -> None:
    """20 ledger entries and 50 rolls: the page lists the newest few of each; its weight and
    first render go to ``artifacts/measurements.json`` (figures, not a timed assertion)."""
    h = mini_app.h
    seat_table(h)
    await create_game(h, "fate", "Кампания")
    cid = await insert_character(h, "fate", CASES["fate"].make(), owner=ALICE)
    async with h.engine.begin() as conn:
        for n in range(20):
            await conn.execute(
                text(
                    "INSERT INTO ledger (game_id, character_id, actor_user_id, kind, reason, "
                    "batch, diff, sheet_before, sheet_after, version_before, version_after) "
                    "SELECT game_id, id, :u, 'fate_points', 'x', :b, '[]', sheet, sheet, 1, 1 "
                    "FROM characters WHERE id = :c"
                ),
                {"u": ALICE, "b": f"b{n}", "c": cid},
            )
    async with UnitOfWork(create_session_factory(h.engine)) as uow:
        for n in range(50):
            await roll_logged(
                uow, chat_id=GROUP, roll_id=f"bench:{n}", text="4dF+2", actor="Alice",
                subject="Ира", actor_user_id=ALICE,
            )  # fmt: skip
    await browser.open(mini_app.url(ALICE, theme=LIGHT, language="ru"))
    await browser.wait("return document.body.dataset.view === 'sheet'")
    shown = await browser.js(
        "return [document.querySelectorAll('[data-ledger]').length,"
        " document.querySelectorAll('[data-roll]').length]"
    )
    assert shown == [LEDGER_SHOWN, ROLLS_SHOWN]
    await _measure(browser, "fate-20-ledger-50-rolls")
    await browser.screenshot("fate-busy")


# Tap targets smaller than a thumb (40 px each way) and anything drawn past the screen's edge.
CRAMPED = """
const w = window.innerWidth, found = {small: [], past: []};
for (const e of document.querySelectorAll('#app button, #app a')) {
  const r = e.getBoundingClientRect();
  if (r.width && (r.width < 40 || r.height < 40))
    found.small.push(`${e.textContent.trim()} ${Math.round(r.width)}x${Math.round(r.height)}`);
}
for (const e of document.querySelectorAll('#app *'))
  if (e.getBoundingClientRect().right > w + 0.5) found.past.push(e.textContent.slice(0, 20));
return found;
"""


@pytest.mark.parametrize("system", list(CASES))
async def test_every_button_takes_a_thumb_at_360_px(
    mini_app: MiniApp, browser: Browser, system: str
) -> None:
    await browser.resize(360)
    try:
        await _open(mini_app, browser, system, CASES[system].make())
        assert await browser.js(CRAMPED) == {"small": [], "past": []}
        await browser.screenshot(f"{system}-360")
        for theme in (LIGHT, DARK):
            await browser.open(mini_app.url(ALICE, theme=theme, language="en"))
            await browser.wait("return document.body.dataset.view === 'sheet'")
            assert await browser.js(CRAMPED) == {"small": [], "past": []}
            lowest = await browser.js(CONTRAST)
            assert lowest[0][0] >= 4.5, lowest
    finally:
        await browser.resize()


async def test_the_gms_list_marks_npcs_and_the_archived(
    mini_app: MiniApp, browser: Browser
) -> None:
    h = mini_app.h
    seat_table(h)
    await create_game(h, "fate", "Кампания")
    await insert_character(h, "fate", CASES["fate"].make(), owner=ALICE)
    await insert_character(h, "fate", fate.new_character("Громила"), owner=GM, npc=True)
    async with h.engine.begin() as conn:
        await conn.execute(text("UPDATE games SET archived_at = now()"))
    await browser.open(mini_app.url(GM, theme=LIGHT, language="ru"))
    await browser.wait("return document.body.dataset.view === 'list'")
    lines = await browser.js(
        "return [...document.querySelectorAll('.list a small')].map(s => s.innerText)"
    )
    assert lines == ["Кампания · Фэйт (FATE) · 🗄 в архиве",
                     "Кампания · Фэйт (FATE) · НПС · 🗄 в архиве"], lines  # fmt: skip
    assert await browser.js(CRAMPED) == {"small": [], "past": []}


async def test_a_proxys_error_page_is_not_shown_as_a_status(
    mini_app: MiniApp, browser: Browser
) -> None:
    """A press answered by something that is not the bot (a proxy's 502 page) toasts the
    page's own words in the user's language, never «502»."""
    await _open(mini_app, browser, "fate", CASES["fate"].make())
    await browser.js(
        "window.fetch = () => Promise.resolve(new Response('<h1>Bad Gateway</h1>', "
        "{status: 502, headers: {'Content-Type': 'text/html'}}));"
        "document.querySelector('button.act').click()"
    )
    toast = await browser.wait(
        "const t = document.getElementById('toast'); return !t.hidden && t.innerText"
    )
    assert toast == "Что-то пошло не так, попробуйте чуть позже.", toast


async def test_back_shows_the_list_even_of_one(mini_app: MiniApp, browser: Browser) -> None:
    """A lone character opens at once; «← All characters» then shows the list (it reopened
    the same sheet, so the button did nothing)."""
    await _open(mini_app, browser, "fate", CASES["fate"].make())
    await browser.js("document.getElementById('back').click()")
    await browser.wait("return document.body.dataset.view === 'list'")
    await asyncio.sleep(1)  # the list stays: nothing opens the sheet again
    assert await browser.js("return document.body.dataset.view") == "list"
    assert await browser.js("return document.querySelectorAll('.list a').length") == 1
