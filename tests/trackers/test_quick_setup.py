"""The GM's quick taps on a tracker's set-up: in a group the edit that redraws the keyboard
follows a press by about a second (pacing), so a second toggle is often pressed on a keyboard
drawn one version back. A set-up toggle names what it toggles, so each tap applies, one step
each (``concurrent.recent``); any other button from an old keyboard is still refused, and so is
a toggle once the set-up is over. Every system's tracker, over the emulator and Postgres."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import text

from engine.systems import matter
from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GM, create_game, seat_table
from tests.helpers import table as tb
from tests.trackers import cliche_helpers as ch
from tests.trackers import fate_helpers as fh
from tests.trackers import lifegear_helpers as lh
from tests.trackers import storyteller_helpers as sh
from tgemu import ChatMessage


async def _taps(h: Harness, message: ChatMessage | int, *datas: str) -> None:
    """The GM presses every one of ``datas``, all read off one keyboard, one after another:
    none is refused."""
    for data in datas:
        answer = await tb.press_data(h, GM, message, data)
        assert not answer.show_alert, answer.text


async def _steps(h: Harness, action: str) -> int:
    async with h.engine.connect() as conn:
        found = await conn.execute(
            text("SELECT count(*) FROM tracker_steps WHERE action = :a"), {"a": action}
        )
        return int(found.scalar_one())


def _shows(h: Harness, message: ChatMessage | int, *parts: str) -> Callable[[], bool]:
    return lambda: all(part in tb.current(h, message).text for part in parts)


async def test_matter_members_and_conditions(running: Harness) -> None:
    h = running
    seat_table(h)
    await create_game(h, "matter", "Материя")
    await tb.insert_character(h, "matter", matter.new_character("Ася"), owner=ALICE)
    await tb.insert_character(h, "matter", matter.new_character("Гоблин"), owner=None, npc=True)
    tracker = await tb.send_for_buttons(h, GM, "/scene", "mxg:")
    shown = tb.current(h, tracker)
    goblin, cloud = (tb.labelled_data(shown, label) for label in ("Гоблин", "Ядовитое облако"))
    start = tb.labelled_data(shown, "Начать")
    await _taps(h, tracker, goblin, cloud)
    await h.emu.wait_for(_shows(h, tracker, "Ася, Гоблин", "Условия: Ядовитое облако"))
    assert await _steps(h, "member") == 1 and await _steps(h, "condition") == 1
    # «Start» from the same old keyboard is not a toggle: still refused as out of date.
    refused = await tb.press_data(h, GM, tracker, start)
    assert refused.show_alert and "устарела" in (refused.text or "")
    await tb.press_data(h, GM, tracker, tb.labelled_data(tb.current(h, tracker), "Начать"))
    await h.emu.wait_for(_shows(h, tracker, "раунд 1"))
    # Once the scene runs, a set-up toggle from before is refused and changes nothing.
    late = await tb.press_data(h, GM, tracker, goblin)
    assert late.show_alert and await _steps(h, "member") == 1


async def test_storyteller_participants(running: Harness) -> None:
    h = running
    seat_table(h)
    await create_game(h, "storyteller", "Грёзы")
    await sh.insert(h, sh.hero("Техлана"), owner=ALICE)
    await sh.insert(h, sh.hero("Гоблин"), owner=GM, npc=True)
    scene = await tb.send_for_buttons(h, GM, "/scene", "ztt:")
    tapped = [sh.data(scene, "ztt", name) for name in ("Техлана", "Гоблин")]
    await _taps(h, scene, *tapped)
    await h.emu.wait_for(_shows(h, scene, "▫️ Техлана", "▫️ Гоблин"))
    assert (await sh.tracker(h))["state"]["chosen"] == []


async def test_fate_sides(harness: Harness) -> None:
    h = harness
    await fh.table(h)  # starts the bot
    await tb.insert_character(h, "fate", fh.hero("Ира"), owner=ALICE)
    await tb.insert_character(h, "fate", fh.hero("Орк"), owner=GM, npc=True)
    tracker = await fh.open_conflict(h)
    orc = fh.data_of(h, tracker, lambda label, d: d.startswith("fzs:") and "Орк" in label)
    assert "🅱 Орк" in tb.current(h, tracker).text  # an NPC starts on the other side
    # Two quick taps on the same name: side B → out → side A, as tapped.
    await _taps(h, tracker, orc, orc)
    await h.emu.wait_for(_shows(h, tracker, "🅰 Орк"))
    assert await _steps(h, "toggle") == 2


async def test_lifegear_fighters(harness: Harness) -> None:
    h = harness
    await h.start()
    await lh.lifegear_table(h)
    await lh.insert(h, lh.hero("Лина", "3"))
    await lh.insert(h, lh.hero("Боб", "3"), owner=BOB)
    fight = await tb.send_and_answer(h, GM, "/fight Тролль 6")
    mid = fight.message_id
    await _taps(h, mid, lh.data_of(h, mid, "Лина"), lh.data_of(h, mid, "Боб"))
    await h.emu.wait_for(lambda: {"▫️ Лина", "▫️ Боб"} <= set(lh.labels(h, mid)))
    assert await _steps(h, "toggle") == 2


async def test_cliche_sides(running: Harness) -> None:
    h = running
    await ch.table(h)
    await ch.insert(h, ch.hero("Alice", ("Солдат", 4)))
    await ch.insert(h, ch.hero("Орк", ("Драчун", 3)), npc=True)
    fight = await ch.open_fight(h)
    alice, orc = ch.find(h, fight, "cfs", "Alice"), ch.find(h, fight, "cfs", "Орк")
    await _taps(h, fight, alice, orc, orc)  # Alice → side 1; the orc → side 1 → side 2
    await h.emu.wait_for(lambda: ch.has(h, fight, "cfs", "2️⃣ Орк"))
    assert (await ch.tracker_row(h))["state"]["sides"] == {
        str(await _id(h, "Alice")): "1",
        str(await _id(h, "Орк")): "2",
    }


async def _id(h: Harness, name: str) -> int:
    async with h.engine.connect() as conn:
        found = await conn.execute(text("SELECT id FROM characters WHERE name = :n"), {"n": name})
        return int(found.scalar_one())
