"""One way to show each value (issue 36, item 10), end to end over the emulator, Postgres and
the Mini App: a value reads the same — the text of its formatter in ``engine.formats`` — on the
chat sheet, the /res panel, the tracker, the milestone preview and the Mini App page."""

from __future__ import annotations

import html
import re

from engine import formats
from engine.systems import cliche, fate, lifegear, matter, storyteller
from engine.systems.storyteller.sheet import PoolTrait
from tests.games.helpers import ALICE, GM, GROUP, create_game
from tests.helpers import table as tb
from tests.miniapp.conftest import MiniApp
from tests.trackers import storyteller_helpers as sh
from tests.trackers.fate_helpers import open_conflict, press

RAW_STRESS = re.compile(r"(?<![\w#])[0x]*x[0x]*(?!\w)|(?<!\d)00+(?!\d)")  # «x0», «00», «0x0»


def _seat_russian(app: MiniApp) -> None:
    app.h.emu.add_user(GM, "Гена", language_code="ru")
    app.h.emu.add_user(ALICE, "Алиса", language_code="ru")
    app.h.emu.add_group(GROUP, "Стол", members=[GM, ALICE], creator=GM)


def _shown(page: str) -> str:
    """The page as a reader sees it: inline tags gone, the others a space, entities read."""
    text = re.sub(r"</?(?:b|i|small)\b[^>]*>", "", page)
    text = html.unescape(re.sub(r"<[^>]+>", " ", text))
    return " ".join(text.split())


async def _surfaces(app: MiniApp, system: str, hero: object) -> tuple[int, dict[str, str]]:
    """The character's /sheet (private chat), /res panel and Mini App page, as text."""
    _seat_russian(app)
    await create_game(app.h, system, "Кампания")
    cid = await tb.insert_character(app.h, system, hero, owner=ALICE)  # type: ignore[arg-type]
    emu = app.h.emu
    said = emu.send_text(ALICE, ALICE, f"/sheet {hero.name}")  # type: ignore[attr-defined]
    sheet = await emu.wait_bot_message(ALICE, after=said.message_id, timeout=tb.WAIT)
    panel = await tb.send_for_buttons(app.h, ALICE, "/res", "run:")
    status, body, _ = await app.call(
        f"api/sheet/{cid}", init_data=app.init_data(ALICE, language="ru")
    )
    assert status == 200, body
    return cid, {"/sheet": sheet.text, "/res": panel.text, "Mini App": _shown(body["html"])}


async def test_fate_stress_reads_as_boxes_on_every_surface(mini_app: MiniApp) -> None:
    hero = fate.new_character("Ира").model_copy(
        update={"fate_points": 1, "refresh": 3, "stress": fate.StressMarks(physical=(2,))}
    )
    marked = formats.stress_track([False, True])  # «☐☒»: box 2 of 2 marked
    _, seen = await _surfaces(mini_app, "fate", hero)
    assert marked in seen["/sheet"] and marked in seen["/res"], seen
    assert "1 ☐" in seen["Mini App"] and "2 ☒" in seen["Mini App"], seen["Mini App"]
    assert "обновление 3" in seen["/res"] and "обновление 3" in seen["Mini App"]

    h = mini_app.h
    orc = fate.new_character("Орк")
    await tb.insert_character(h, "fate", orc, owner=GM, npc=True)
    tracker = await open_conflict(h, "Склад")
    await press(h, GM, tracker, "fzg:")
    seen["tracker"] = tb.current(h, tracker).text
    assert f"Ира 💪 {marked}" in seen["tracker"], seen["tracker"]

    said = h.emu.send_text(GM, GROUP, "/milestone")
    picker = await h.emu.wait_bot_message(GROUP, after=said.message_id, contains="🏁")
    await tb.press_data(h, GM, picker, tb.button_data(picker, "mlk:minor"))
    seen["milestone"] = tb.current(h, picker).text
    free = formats.stress_track([False, False])
    assert f"{marked} → {free}" in seen["milestone"], seen["milestone"]
    assert not re.search(r"#[0-9a-f]{8}", seen["milestone"])  # no internal fingerprint
    for surface, text in seen.items():
        assert not RAW_STRESS.search(text), (surface, RAW_STRESS.search(text), text)


async def test_storyteller_pools_read_alike_in_chat_and_mini_app(mini_app: MiniApp) -> None:
    hero = storyteller.new_character("Эйлин").model_copy(
        update={
            "willpower": PoolTrait(rating=4, pool=3),
            "glamour": PoolTrait(rating=5, pool=2),
            "banality": PoolTrait(rating=3, pool=0),
        }
    )
    _, seen = await _surfaces(mini_app, "storyteller", hero)
    h = mini_app.h
    await sh.insert(h, sh.hero("Гоблин"), owner=GM, npc=True)
    said = h.emu.send_text(GM, GROUP, "/scene")
    scene = await h.emu.wait_bot_message(GROUP, contains="🎭", after=said.message_id)
    await sh.tap(h, GM, scene, "zts")
    seen["tracker"] = tb.current(h, scene).text
    willpower = formats.pool(3, 4)
    for surface, text in seen.items():
        assert re.search(rf"(Воля:?|💪) {willpower}\b", text), (surface, text)
    for surface in ("/sheet", "/res", "Mini App"):
        assert re.search(rf"Гламур:? {formats.pool(2, 5)}\b", seen[surface]), surface
    for surface in ("/sheet", "Mini App"):
        assert "Банальность 3" in seen[surface] and "(0)" not in seen[surface], surface


async def test_cliche_dice_read_current_of_maximum(mini_app: MiniApp) -> None:
    """A cliché's dice: «current/maximum» on the sheet, the panel and the page alike."""
    soldier = cliche.Cliche(name="Солдат", dice=4)  # none lost: still «4/4»
    hero = cliche.new_character("Мал").model_copy(update={"cliches": (soldier,)})
    _, seen = await _surfaces(mini_app, "cliche", hero)
    for surface, text in seen.items():
        assert formats.pool(4, 4) in text, (surface, text)


async def test_lives_and_health_read_current_of_maximum(mini_app: MiniApp) -> None:
    """Lifegear's lives and Matter's Health: «current/maximum» on the sheet, the panel and
    the page (the trackers call the same formatter)."""
    bow = lifegear.Item(id="bow", name="Лук", kind=lifegear.ItemKind.WEAPON, dice="1d6")
    hero = lifegear.new_character("Лина").model_copy(update={"max_lives": 3, "gear": (bow,)})
    _, seen = await _surfaces(mini_app, "lifegear", hero)
    for surface, text in seen.items():
        assert formats.pool(1, 3) in text, (surface, text)


async def test_matter_health_reads_current_of_maximum(mini_app: MiniApp) -> None:
    hero = matter.new_character("Кай")
    shown = formats.pool(hero.health, hero.health_max)
    _, seen = await _surfaces(mini_app, "matter", hero)
    for surface, text in seen.items():
        assert re.search(rf"Здоровье:? {shown}\b", text), (surface, text)
