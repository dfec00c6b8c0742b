"""Fights take newcomers and leavers (issue 24 item 2) over the emulator: an NPC made after
the fight began joins it in its initiative place among those still to act, another leaves,
the acting one cannot be taken out before their turn is passed, the GM's undo takes a join
back — in a Fate conflict, a storyteller scene (the newcomer's initiative roll logged) and a
matter scene."""

from __future__ import annotations

from typing import Any

from sqlalchemy import text

from engine.systems import matter
from handlers.trackers.common import TrackerUndoCD
from tests.conftest import Harness
from tests.games.helpers import ALICE, GM, GROUP, create_game, seat_table
from tests.helpers import table as tb
from tests.trackers import fate_helpers as fh
from tests.trackers import matter_helpers as mh
from tests.trackers import storyteller_helpers as sh
from tgemu import ChatMessage


async def _say(h: Harness, line: str, user: int = GM) -> str:
    last = h.emu.last_bot_message(GROUP)
    h.emu.send_text(user, GROUP, line)
    answer = await h.emu.wait_bot_message(GROUP, after=last.message_id if last else 0)
    await h.emu.wait_idle()
    return answer.text


async def _state(h: Harness) -> dict[str, Any]:
    async with h.engine.connect() as conn:
        row = await conn.execute(text("SELECT state FROM trackers WHERE status = 'open'"))
        return dict(row.scalar_one())


async def _ids(h: Harness) -> dict[str, int]:
    async with h.engine.connect() as conn:
        rows = await conn.execute(text("SELECT name, id FROM characters"))
        return {r[0]: r[1] for r in rows}


async def _fate_conflict(h: Harness) -> ChatMessage:
    """Ира (Внимательность 4, Alice's) against the GM's Орк, not started yet."""
    seat_table(h)
    await create_game(h, "fate", "Конфликт")
    await tb.insert_character(h, "fate", fh.hero("Ира", notice=4), owner=ALICE)
    await tb.insert_character(h, "fate", fh.hero("Орк"), owner=GM, npc=True)
    return await fh.open_conflict(h)


async def _storyteller_scene(h: Harness) -> None:
    """A started scene with Лиса (Alice's), and the GM's quick NPC Стражник outside it."""
    seat_table(h)
    await create_game(h, "storyteller", "Сцена")
    await sh.insert(h, sh.hero("Лиса"), owner=ALICE)
    tracker = await tb.send_for_buttons(h, GM, "/scene", "zts:")
    await sh.tap(h, GM, tracker, "zts")
    await _say(h, "/npc Стражник: Ловкость 3, Сообразительность 3")


async def test_a_fate_conflict_takes_a_newcomer_and_lets_one_go(running: Harness) -> None:
    h = running
    tracker = await _fate_conflict(h)
    await fh.press(h, GM, tracker, "fzg:")  # start: Ира (4) acts, then Орк (0)

    assert "Гоблин" in await _say(h, "/npc Гоблин: Внимательность 2, Бой 1")
    assert "Гоблин" in await _say(h, "/join гоблин")
    ids = await _ids(h)
    conflict = (await _state(h))["conflict"]
    assert conflict["order"] == [str(ids["Ира"]), str(ids["Гоблин"]), str(ids["Орк"])]
    assert conflict["turn"] == 0
    assert "Гоблин" in tb.current(h, tracker).text  # the tracker redrawn in place

    assert "уже участвует" in await _say(h, "/join Гоблин")
    assert "Сейчас ход: Ира" in await _say(h, "/leave Ира")
    assert "Орк" in await _say(h, "/leave Орк")
    conflict = (await _state(h))["conflict"]
    assert conflict["order"] == [str(ids["Ира"]), str(ids["Гоблин"])]
    assert all(p["id"] != str(ids["Орк"]) for p in conflict["participants"])

    # The GM's undo takes the leave back: the Орк is in the order again.
    shown = tb.current(h, tracker)
    v = await _state_version(h)
    answer = await tb.press_data(h, GM, shown, TrackerUndoCD(tracker_id=await _tid(h), v=v).pack())
    assert not answer.show_alert, answer.text
    assert (await _state(h))["conflict"]["order"][-1] == str(ids["Орк"])


async def test_the_gm_puts_an_allied_npc_on_the_players_side(running: Harness) -> None:
    """``/join Name: 1``: an NPC fights beside the characters (by default NPCs take side 2);
    a tracker without sides and a side on /leave are refused, and nothing changes."""
    h = running
    tracker = await _fate_conflict(h)
    await fh.press(h, GM, tracker, "fzg:")
    await _say(h, "/npc Страж: Внимательность 1, Бой 2")
    await _say(h, "/npc Гоблин: Бой 1")
    assert "Страж" in await _say(h, "/join Страж: 1")
    assert "Гоблин" in await _say(h, "/join Гоблин")
    ids = await _ids(h)
    sides = {p["id"]: p["side"] for p in (await _state(h))["conflict"]["participants"]}
    assert sides[str(ids["Страж"])] == sides[str(ids["Ира"])] == "A"
    assert sides[str(ids["Гоблин"])] == sides[str(ids["Орк"])] == "B"
    before = await _state_version(h)
    assert "без стороны" in await _say(h, "/leave Гоблин: 2")
    assert await _state_version(h) == before


async def test_a_side_where_nobody_takes_sides_is_refused(running: Harness) -> None:
    h = running
    await _storyteller_scene(h)
    before = await _state_version(h)
    assert "нет сторон" in await _say(h, "/join Стражник: 2")
    assert await _state_version(h) == before
    assert "Стражник" in await _say(h, "/join Стражник")


async def _tid(h: Harness) -> int:
    return int(await tb.scalar(h, "SELECT id FROM trackers WHERE status = 'open'"))


async def _state_version(h: Harness) -> int:
    return int(await tb.scalar(h, "SELECT version FROM trackers WHERE status = 'open'"))


async def test_a_player_cannot_change_the_roster(running: Harness) -> None:
    h = running
    seat_table(h)
    await create_game(h, "fate", "Конфликт")
    await tb.insert_character(h, "fate", fh.hero("Ира"), owner=ALICE)
    await tb.insert_character(h, "fate", fh.hero("Орк"), owner=GM, npc=True)
    await fh.open_conflict(h)
    await h.emu.wait_idle()  # the tracker's row commits after its message is sent
    before = await _state_version(h)
    answer = await _say(h, "/join Ира", user=ALICE)
    assert "мастер" in answer  # the group's Russian, though Alice reads English
    assert await _state_version(h) == before


async def test_a_storyteller_scene_rolls_the_newcomers_initiative(running: Harness) -> None:
    h = running
    await _storyteller_scene(h)
    assert "Стражник" in await _say(h, "/join Стражник")
    state = await _state(h)
    ids = await _ids(h)
    assert ids["Стражник"] in state["order"] and state["order"][0] == ids["Лиса"]
    assert str(ids["Стражник"]) in state["init"]
    logged = await sh.rolls(h)
    assert any(roll_id.endswith(":j") for roll_id, _ in logged)  # its roll is in the log
    assert "Стражник" in await _say(h, "/leave Стражник")
    assert ids["Стражник"] not in (await _state(h))["order"]


async def test_a_matter_scene_takes_a_newcomer_in_its_initiative_place(running: Harness) -> None:
    h = running
    seat_table(h)
    await create_game(h, "matter", "Материя")
    asya = matter.new_character("Ася").model_copy(update={"initiative": 2})
    await tb.insert_character(h, "matter", asya, owner=ALICE)
    tracker = await mh.open_scene(h)
    await mh.press(h, GM, tracker, "Начать")
    await _say(h, "/npc Бандит: Инициатива 5")
    assert "Бандит" in await _say(h, "/join Бандит")
    ids = await _ids(h)
    state = await _state(h)
    assert state["order"] == [ids["Ася"], ids["Бандит"]] and state["turn"] == 0
    assert "Бандит" in tb.current(h, tracker).text
    assert "Сейчас ход: Ася" in await _say(h, "/leave Ася")
    assert "Бандит" in await _say(h, "/leave Бандит")
    assert (await _state(h))["order"] == [ids["Ася"]]
