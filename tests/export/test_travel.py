"""A living campaign travels (issue 33): a character in play (spent resources, harm, advance)
moves with its ledger history, checked by the rules of play; a game with a quick NPC, a
trusting table and the GM's stored lists comes back whole; refusals speak in words."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from bot.systems import SYSTEMS
from engine.common import SheetModel
from engine.dice.log import entry_hash
from engine.transfer import content_hash
from engine.verify import main as verify_main
from tests.conftest import Harness
from tests.export.helpers import FRESH, legal_sheet, new_game, seat_tables, send_file
from tests.export.test_round_trip import _approve, _export
from tests.games.helpers import ALICE, GM, GROUP, buttons
from tests.helpers.table import (
    WAIT,
    game_id,
    insert_character,
    scalar,
    seat,
    send_and_answer,
)


def _in_play(system: str, name: str) -> SheetModel:
    """A sheet as play leaves it: what ``/res``, milestones and fights produce, which a new
    character may not start with."""
    sheet: dict[str, Any] = legal_sheet(system, name).model_dump(mode="json")
    if system == "fate":  # a fate point spent, a stress box marked
        sheet["fate_points"] = sheet["refresh"] - 1
        sheet["stress"]["physical"] = [1]
    elif system == "cliche":  # advanced past the starting cap of 4 dice
        sheet["cliches"][0]["dice"] = 5
    elif system == "storyteller":  # experience spent past the creation budget, Willpower spent
        sheet["attributes"]["strength"] += 1
        sheet["willpower"]["pool"] = max(0, sheet["willpower"]["pool"] - 1)
    elif system == "lifegear":  # a life lost: the bow broke
        sheet["gear"][0]["state"] = "broken"
    else:  # matter: Willpower spent, a wound
        sheet["willpower"] -= 1
        sheet["health"] -= 2
    model: SheetModel = SYSTEMS[system].character_type.model_validate(sheet)
    return model


async def _ledger(h: Harness, character: int, entries: int) -> None:
    """``entries`` changes of the character in its game's ledger."""
    async with h.engine.begin() as conn:
        for n in range(entries):
            await conn.execute(
                text(
                    "INSERT INTO ledger (game_id, character_id, actor_user_id, kind, reason, "
                    "batch, diff, sheet_before, sheet_after, version_before, version_after) "
                    "SELECT game_id, id, :gm, 'resource', :reason, :batch, '[]', sheet, sheet, "
                    "1, 1 FROM characters WHERE id = :c"
                ),
                {"gm": GM, "c": character, "reason": f"change {n}", "batch": f"b{n}"},
            )


@pytest.mark.parametrize("system", sorted(SYSTEMS))
async def test_a_character_in_play_moves_with_its_history(running: Harness, system: str) -> None:
    h = running
    seat_tables(h)
    await new_game(h, GROUP, system, "Old table")
    kira = await insert_character(h, system, _in_play(system, "Кира"), owner=ALICE)
    await _ledger(h, kira, 4)
    data = await _export(h, ALICE)
    assert len(json.loads(data)["character"]["history"]) == 4

    await new_game(h, FRESH, system, "New table")
    answer = await send_file(h, ALICE, FRESH, data)
    assert "Nothing was imported" not in answer.text, answer.text
    await _approve(h, FRESH)
    fresh = await game_id(h, FRESH)
    moved = await scalar(
        h, "SELECT id FROM characters WHERE game_id = :g AND status = 'active'", g=fresh
    )
    assert await scalar(h, "SELECT count(*) FROM ledger WHERE character_id = :c", c=moved) == 4
    old = await send_and_answer(h, GM, "/sheet Кира", chat_id=GROUP)
    new = await send_and_answer(h, GM, "/sheet Кира", chat_id=FRESH)
    assert new.text == old.text


QUICK_NPC = {
    "fate": "Громила: Драка 3, Атлетика 2",
    "storyteller": "Громила: Сила 3, Драка 2",
    "matter": "Громила: Жестокость 3",
    "cliche": "Громила: Драчун 3",
    "lifegear": "Громила: защита 12",
}


async def _views(h: Harness, chat_id: int) -> tuple[str, str, str]:
    """What the GM sees: /game's characters and NPCs, /options, and the player's /sheet."""
    answers = []
    for user, line in ((GM, "/game"), (GM, "/options"), (ALICE, "/sheet")):
        answers.append(await send_and_answer(h, user, line, chat_id=chat_id))
        await h.emu.wait_idle(WAIT)
    game, options, sheet = answers
    # the card names its chat's title and nothing else differs between the two tables
    return game.text.split("\n", 1)[1], options.text, sheet.text


@pytest.mark.parametrize("system", sorted(SYSTEMS))
async def test_everything_a_game_holds_comes_back(running: Harness, system: str) -> None:
    h = running
    seat_tables(h)
    await new_game(h, GROUP, system, "Old table")
    await insert_character(h, system, _in_play(system, "Кира"), owner=ALICE)
    npc = await send_and_answer(h, GM, f"/npc {QUICK_NPC[system]}", chat_id=GROUP)
    assert "Громила" in npc.text, npc.text
    gid = await game_id(h)
    async with h.engine.begin() as conn:  # a trusting table, and a stored list of the GM's
        await conn.execute(
            text("INSERT INTO grant_trust (game_id, set_by) VALUES (:g, :gm)"),
            {"g": gid, "gm": GM},
        )
        await conn.execute(
            text("INSERT INTO game_data (game_id, key, value) VALUES (:g, 'gm.notes', :v)"),
            {"g": gid, "v": json.dumps(["Гавань", "Маяк"])},
        )
    await send_and_answer(h, ALICE, "/start", chat_id=ALICE)  # the bot learns her name
    await h.emu.wait_idle(WAIT)
    before = await _views(h, GROUP)
    sent = h.emu.send_text(GM, GROUP, "/export game")
    exported = await h.emu.wait_for(
        lambda: next((m for m in h.emu.bot_messages(GROUP) if m.document), None), timeout=WAIT
    )
    assert exported.document is not None and sent.message_id < exported.message_id

    answer = await send_file(h, GM, FRESH, exported.document.data)
    assert "импортирована" in answer.text, answer.text
    assert await _views(h, FRESH) == before
    fresh = await game_id(h, FRESH)
    assert await scalar(h, "SELECT count(*) FROM grant_trust WHERE game_id = :g", g=fresh) == 1
    notes = await scalar(
        h, "SELECT value FROM game_data WHERE game_id = :g AND key = 'gm.notes'", g=fresh
    )
    assert notes == ["Гавань", "Маяк"]
    # the new group had no language: it speaks its importing GM's now, as after /newgame
    assert await scalar(h, "SELECT locale FROM chats WHERE id = :c", c=FRESH) == "ru"


async def test_refusals_name_the_sheet_field_in_russian(running: Harness) -> None:
    h = running
    seat_tables(h)
    await new_game(h, GROUP, "fate", "Old table")
    await insert_character(h, "fate", legal_sheet("fate", "Кира"), owner=ALICE)
    document = json.loads(await _export(h, ALICE))
    document["character"]["sheet"]["fate_points"] = "много"
    document["character"]["sheet"]["aspects"] = "нет"
    document.pop("sha256")
    document["sha256"] = content_hash(document)
    await new_game(h, FRESH, "fate", "New table")
    h.emu.user(ALICE).language_code = "ru"
    answer = await send_file(h, ALICE, FRESH, json.dumps(document, ensure_ascii=False).encode())
    assert "Ничего не импортировано" in answer.text or "не импорт" in answer.text, answer.text
    assert "«Кира»: Очки судьбы — нужно число." in answer.text, answer.text
    for leak in ("fate_points", "aspects", "поле", "Input should", "field"):
        assert leak not in answer.text, (leak, answer.text)


async def test_the_import_picker_tells_look_alike_games_apart(running: Harness) -> None:
    h = running
    seat_tables(h)
    await new_game(h, GROUP, "fate", "Исходная fate")
    await insert_character(h, "fate", legal_sheet("fate", "Кира"), owner=ALICE)
    data = await _export(h, ALICE)
    await new_game(h, FRESH, "fate", "Исходная fate")
    await seat(h, ALICE, chat_id=FRESH)
    picker = await send_file(h, ALICE, ALICE, data)
    labels = [b["text"] for b in buttons(picker)]
    assert sorted(labels) == ["Исходная fate · New table", "Исходная fate · Table"], labels


async def test_a_log_forged_with_its_chain_remade_is_refused(
    running: Harness, tmp_path: Path
) -> None:
    h = running
    seat_tables(h)
    await new_game(h, GROUP, "fate", "Old table")
    await insert_character(h, "fate", legal_sheet("fate", "Кира"), owner=ALICE)
    for expression in ("1d6", "2d6+1", "4dF"):
        await send_and_answer(h, ALICE, f"/r {expression}")
        await h.emu.wait_idle(WAIT)
    sent = h.emu.send_text(GM, GROUP, "/export game")
    exported = await h.emu.wait_for(
        lambda: next(
            (
                m
                for m in h.emu.bot_messages(GROUP)
                if m.document and m.message_id > sent.message_id
            ),
            None,
        ),
        timeout=WAIT,
    )
    assert exported.document is not None
    document = json.loads(exported.document.data)
    entries = document["roll_log"]["entries"]
    entries[1]["result"] += 1  # a better roll …
    entries[1]["faces"] = [*entries[1]["faces"][:-1], entries[1]["faces"][-1] + 1]
    prev = entries[0]["hash"]
    for entry in entries[1:]:  # … and the chain made again after it
        entry["prev_hash"] = prev
        entry["hash"] = prev = entry_hash(prev, entry)
    document.pop("sha256")
    document["sha256"] = content_hash(document)
    forged = json.dumps(document, ensure_ascii=False).encode()
    path = tmp_path / "forged.json"
    path.write_bytes(forged)
    out = io.StringIO()
    assert verify_main([str(path)], out) == 0  # alone, the file checks out …
    assert "NOT checked: the dice of epochs 1" in out.getvalue()  # … and says what it cannot

    answer = await send_file(h, GM, FRESH, forged)
    assert "не тот журнал" in answer.text and "запись №2" in answer.text, answer.text
    assert await scalar(h, "SELECT count(*) FROM games WHERE chat_id = :c", c=FRESH) == 0
    # the genuine file still comes in
    done = await send_file(h, GM, FRESH, exported.document.data)
    assert "импортирована" in done.text, done.text


FIXTURES = Path(__file__).parent / "fixtures" / "v0"


@pytest.mark.parametrize("system", sorted(SYSTEMS))
async def test_a_version_0_file_is_upgraded(running: Harness, system: str) -> None:
    h = running
    seat_tables(h)
    old = (FIXTURES / f"{system}-character.json").read_bytes()
    assert b"schema_version" not in old and b"sha256" not in old
    await new_game(h, FRESH, system, "New table")
    answer = await send_file(h, ALICE, FRESH, old)
    assert "Nothing was imported" not in answer.text, answer.text
    await _approve(h, FRESH)
    stored = await scalar(
        h, "SELECT sheet FROM characters WHERE name = 'Старожил' AND status = 'active'"
    )
    version = await scalar(h, "SELECT schema_version FROM characters WHERE name = 'Старожил'")
    assert version == SYSTEMS[system].schema_version
    expected = legal_sheet(system, "Старожил").model_dump(mode="json")
    assert stored == expected
