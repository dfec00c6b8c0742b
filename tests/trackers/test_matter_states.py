"""A character under Мини seen in play (issue 22 item 5): the /sheet card and the scene
tracker show the Health the state leaves (seed 004: «Мини» — max Health 2), not the sheet's."""

from __future__ import annotations

from engine.systems import matter
from engine.systems.matter import ActiveState, StateId
from tests.conftest import Harness
from tests.games.helpers import ALICE, GM, GROUP, create_game, seat_table
from tests.helpers import table as tb
from tests.trackers import matter_helpers as mh


async def _mini_table(h: Harness) -> int:
    seat_table(h)
    await create_game(h, "matter", "Материя")
    asya = matter.new_character("Ася").model_copy(
        update={"states": (ActiveState(state=StateId.MINI),)}
    )
    return await tb.insert_character(h, "matter", asya, owner=ALICE)


async def test_sheet_card_shows_health_under_mini(running: Harness) -> None:
    h = running
    await _mini_table(h)
    last = h.emu.last_bot_message(GROUP)
    h.emu.send_text(GM, GROUP, "/sheet Ася")
    card = await h.emu.wait_bot_message(GROUP, contains="Ася", after=last.message_id)
    assert "Здоровье 2/2" in card.text, card.text
    assert "Изменено состояниями:" in card.text and "Макс. Здоровье 5 → 2" in card.text


async def test_scene_shows_health_under_mini(running: Harness) -> None:
    h = running
    await _mini_table(h)
    tracker = await mh.open_scene(h)
    await mh.press(h, GM, tracker, "Начать")
    text = tb.current(h, tracker).text
    assert "Ася ❤️2/2 · Мини" in text, text
