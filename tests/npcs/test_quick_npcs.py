"""Quick NPCs (issue 24 item 1) over the emulator: one line makes an active NPC in every
system, a nameless mook is numbered, a bad line says what to fix and writes nothing, players
are refused, and the GM's paged list (from /game too) retires an NPC after asking, once."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import text

from bot.services import npcs
from bot.systems import SYSTEMS
from db.database import create_session_factory
from db.uow import UnitOfWork
from tests.conftest import Harness
from tests.games.helpers import ALICE, GM, GROUP, buttons, create_game, seat_table
from tests.helpers.table import scalar
from tgemu import ChatMessage

LINES = {
    "fate": ("Громила: Драка 3, Атлетика 2, стресс 2, Здоровый как бык", "Громила"),
    "storyteller": ("Стражник: Сила 3, Драка 3, Воля 4, страж ворот", "Стражник"),
    "matter": ("Бандит: Жестокость 2, Здоровье 4, Броня 1", "Бандит"),
    "cliche": ("Вышибала: Вышибала из салуна 4, Пьяница 2", "Вышибала"),
    "lifegear": ("Тролль: защита 12, до боя 2, после боя 1", "Тролль"),
}


async def _npc(h: Harness, text: str, user: int = GM) -> str:
    last = h.emu.last_bot_message(GROUP)
    h.emu.send_text(user, GROUP, text)
    return (await h.emu.wait_bot_message(GROUP, after=last.message_id if last else 0)).text


def _message(h: Harness, message_id: int) -> ChatMessage:
    return next(m for m in h.emu.bot_messages(GROUP) if m.message_id == message_id)


async def _sheets(h: Harness) -> list[tuple[str, dict[str, Any], str]]:
    async with h.engine.connect() as conn:
        rows = await conn.execute(
            text("SELECT name, sheet, status FROM characters WHERE is_npc ORDER BY id")
        )
        return [(r[0], r[1], r[2]) for r in rows]


@pytest.mark.parametrize("system", sorted(LINES))
async def test_one_line_makes_an_active_npc(running: Harness, system: str) -> None:
    seat_table(running)
    await create_game(running, system)
    line, name = LINES[system]
    answer = await _npc(running, f"/npc {line}")
    assert any(f"{word} {name}" in answer for word in ("НПС", "NPC"))
    [(stored, sheet, status)] = await _sheets(running)
    assert (stored, status) == (name, "active")
    # the stored sheet is the engine's reading of the line, and loads back
    form = SYSTEMS[system].npc_form
    assert form is not None
    assert sheet == form.build(line, "?").model_dump(mode="json")
    SYSTEMS[system].load(sheet)


async def test_a_fate_mook_in_one_line_and_its_stress(running: Harness) -> None:
    seat_table(running)
    await create_game(running, "fate")
    await _npc(running, "/npc Бой 2, стресс 1")
    await _npc(running, "/npc Стрельба 1")
    sheets = await _sheets(running)
    assert [s[0] for s in sheets] == ["Статист 1", "Статист 2"]
    assert sheets[0][1]["skills"] == {"fight": 2} and sheets[0][1]["stress_boxes"] == 1
    assert sheets[0][1]["fate_points"] == 0


async def test_a_bad_line_says_what_to_fix_and_writes_nothing(running: Harness) -> None:
    seat_table(running)
    await create_game(running, "fate")
    answer = await _npc(running, "/npc Громила: Бег 3")
    assert "«Бег»" in answer and "/npc" in answer
    answer = await _npc(running, "/npc Громила: Бой 12")
    assert "от -2 до 8" in answer
    answer = await _npc(running, "/npc Громила: Бой 2, Бой 3")
    assert "дважды" in answer
    assert await scalar(running, "SELECT count(*) FROM characters") == 0


async def test_players_are_refused_and_npc_alone_explains(running: Harness) -> None:
    seat_table(running)
    await create_game(running, "storyteller")
    answer = await _npc(running, "/npc Стражник: Сила 3", user=ALICE)
    assert "мастер" in answer  # the group's language, not Alice's English
    assert await scalar(running, "SELECT count(*) FROM characters") == 0
    answer = await _npc(running, "/npc")
    assert "/npc Стражник: Сила 3" in answer  # the system's own example
    how = running.emu.last_bot_message(GROUP)
    assert any("url" in b for b in buttons(how))  # the full form stays possible


async def test_the_list_pages_and_retires_once(running: Harness) -> None:
    emu = running.emu
    seat_table(running)
    await create_game(running, "cliche")
    for i in range(10):
        await _npc(running, f"/npc Бандит {i}: Бандит 2")
    last = emu.last_bot_message(GROUP)
    emu.send_text(GM, GROUP, "/game")
    card = await emu.wait_bot_message(GROUP, after=last.message_id)
    index = next(i for i, b in enumerate(buttons(card)) if b.get("callback_data") == "nls")
    pressed = emu.press_button(GM, GROUP, card.message_id, index)
    await emu.wait_callback_answer(pressed.callback_query_id)
    listing = await emu.wait_bot_message(GROUP, contains="10", after=card.message_id)
    assert "1/2" in listing.text and "Бандит 0" in listing.text
    assert "Бандит 9" not in listing.text
    labels = [b["text"] for b in buttons(listing)]
    assert labels[-1] == "▶" and "◀" not in labels
    # a player's press is refused
    pressed = emu.press_button(ALICE, GROUP, listing.message_id, 0)
    assert (await emu.wait_callback_answer(pressed.callback_query_id)).show_alert
    # the GM: retire «Бандит 0» → asked first → confirm, pressed twice at once
    pressed = emu.press_button(GM, GROUP, listing.message_id, 0)
    await emu.wait_callback_answer(pressed.callback_query_id)
    await emu.wait_idle()
    asked = _message(running, listing.message_id)
    assert "Бандит 0" in asked.text and "?" in asked.text
    first = emu.press_button(GM, GROUP, listing.message_id, 0)
    second = emu.press_button(GM, GROUP, listing.message_id, 0)
    await emu.wait_callback_answer(first.callback_query_id)
    await emu.wait_callback_answer(second.callback_query_id)
    await emu.wait_idle()
    assert await scalar(running, "SELECT count(*) FROM characters WHERE status='retired'") == 1
    assert (
        await scalar(
            running,
            "SELECT count(*) FROM character_versions v JOIN characters c "
            "ON c.id = v.character_id WHERE v.kind = 'retire'",
        )
        == 1
    )
    after = _message(running, listing.message_id)
    assert "9" in after.text and "Бандит 0" not in after.text


async def test_a_lifegear_monster_npc_is_fought_by_name(running: Harness) -> None:
    seat_table(running)
    await create_game(running, "lifegear")
    created = await _npc(running, "/npc Тролль: защита 12, до боя 2, после боя 1")
    assert "Защита 12" in created and "до боя: 2" in created
    answer = await _npc(running, "/fight Тролль")
    assert "Тролль" in answer and "12" in answer
    # issue 36 item 9d: its specials are explained, with how the GM applies them
    assert "До боя: урон 2 каждому бойцу — мастер добавляет его кнопкой 💥." in answer
    assert "После боя: урон 1 каждому бойцу" in answer
    await running.emu.wait_idle()
    state = await scalar(running, "SELECT state FROM trackers WHERE status = 'open'")
    assert state["monster"] == {
        "name": "Тролль", "defence": 12,
        "specials": [
            {"name": "до боя", "timing": "before_fight", "damage": 2},
            {"name": "после боя", "timing": "after_fight", "damage": 1},
        ],
    }  # fmt: skip
    assert state["ids"] == []  # the monster is no fighter on the players' side


@pytest.mark.parametrize("system", sorted(LINES))
async def test_a_line_without_content_makes_no_npc(running: Harness, system: str) -> None:
    """Issue 36 item 7: «/npc :::» is refused in every system, with what a line looks like."""
    seat_table(running)
    await create_game(running, system)
    answer = await _npc(running, "/npc :::")
    assert "Не из чего сделать НПС" in answer and "/npc " in answer, answer
    answer = await _npc(running, "/npc , ;")
    assert "Не из чего сделать НПС" in answer, answer
    assert await _sheets(running) == []


async def test_the_first_nameless_mook_is_number_one(running: Harness) -> None:
    seat_table(running)
    await create_game(running, "fate")
    await _npc(running, "/npc Громила: Драка 3")
    await _npc(running, "/npc Бой 2")
    assert [s[0] for s in await _sheets(running)] == ["Громила", "Статист 1"]


async def test_a_second_npc_of_an_active_name_is_refused_and_writes_nothing(
    running: Harness,
) -> None:
    """A GM typing «/npc Громила» twice made two «Громила»: /sheet and /r reached only the
    newer, empty one. The second is refused with another name to try; a retired name is free."""
    seat_table(running)
    await create_game(running, "fate")
    await _npc(running, "/npc Громила: Драка 3")
    answer = await _npc(running, "/npc громила")
    assert "«Громила»" in answer and "/npc Громила 2: …" in answer
    assert [name for name, _sheet, _status in await _sheets(running)] == ["Громила"]
    await _npc(running, "/npc Громила 2: Драка 1")  # the line it offered is taken
    assert [name for name, _s, _st in await _sheets(running)] == ["Громила", "Громила 2"]


async def test_two_npcs_of_one_name_at_once_make_one_and_a_refusal(running: Harness) -> None:
    """Two «/npc Громила» at the same moment: each reads the game's characters before the
    other writes, so both pass the read. The database's unique index of active names lets
    one in; the other is refused in the same words, having written nothing. Made certain
    here: the first holds its commit until the second waits on its row."""
    seat_table(running)
    await create_game(running, "fate")
    factory = create_session_factory(running.engine)
    inserted, release = asyncio.Event(), asyncio.Event()
    async with UnitOfWork(factory) as first, UnitOfWork(factory) as second:
        game = await first.games.live_for_chat(GROUP)
        assert game is not None
        commit = first.commit

        async def held_commit() -> None:
            inserted.set()
            await release.wait()
            await commit()

        first.commit = held_commit  # type: ignore[method-assign]

        def make(uow: UnitOfWork) -> asyncio.Task[Any]:
            return asyncio.create_task(
                npcs.create(uow, game, user_id=GM, text="Громила: Драка 3", mook_name="{n}")
            )

        made = make(first)
        await inserted.wait()
        refused = make(second)
        async with running.engine.connect() as conn:  # the second waits on the first's row
            for _ in range(500):
                waiting = await conn.scalar(
                    text("SELECT count(*) FROM pg_locks WHERE NOT granted")
                )
                if waiting or refused.done():
                    break
                await asyncio.sleep(0.01)
        assert waiting, "the second /npc did not reach its insert"
        release.set()
        stored = await made
        with pytest.raises(npcs.NpcRefused) as error:
            await refused
    assert (error.value.reason, error.value.args_) == (npcs.NAME_TAKEN, {"name": "Громила"})
    assert [(n, st) for n, _s, st in await _sheets(running)] == [("Громила", "active")]
    assert stored.name == "Громила"
