"""The GM's /export game and its /import into a group without a game: characters, NPCs,
members, schedules, options, the ledger and the roll log come back; the log section is what
``python -m engine.verify`` checks; a forged log or a second import creates nothing."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from sqlalchemy import text

from engine.transfer import content_hash
from engine.verify import main as verify_main
from tests.conftest import Harness
from tests.export.helpers import (
    FRESH,
    legal_sheet,
    new_game,
    seat_tables,
    send_file,
    wait_document,
)
from tests.games.helpers import ALICE, BOB, GM, GROUP
from tests.helpers.table import WAIT, game_id, insert_character, scalar, send_and_answer

THIRD = -100950


async def _game_with_history(h: Harness) -> bytes:
    """A fate game with a character, an NPC, a schedule, a ledger entry, options and rolls;
    the GM's export of it."""
    seat_tables(h)
    h.emu.add_group(THIRD, "Third table", members=[GM, ALICE, BOB], creator=GM)
    await new_game(h, GROUP, "fate", "Old table")
    kira = await insert_character(h, "fate", legal_sheet("fate", "Кира"), owner=ALICE)
    await insert_character(h, "fate", legal_sheet("fate", "Стражник"), owner=None, npc=True)
    gid = await game_id(h)
    async with h.engine.begin() as conn:
        await conn.execute(
            text(
                "INSERT INTO schedules (game_id, kind, weekday, minute_of_day, created_by) "
                "SELECT :g, 'minor', 4, 1200, :gm"
            ),
            {"g": gid, "gm": GM},
        )
        await conn.execute(
            text(
                "INSERT INTO ledger (game_id, character_id, actor_user_id, kind, reason, batch, "
                "diff, sheet_before, sheet_after, version_before, version_after) SELECT :g, "
                ":c, :gm, 'fate_points', 'test', 'b1', '[]', sheet, sheet, 1, 1 "
                "FROM characters WHERE id = :c"
            ),
            {"g": gid, "c": kira, "gm": GM},
        )
        await conn.execute(
            text("UPDATE games SET timezone = 'Asia/Tokyo' WHERE id = :g"), {"g": gid}
        )
    for expression in ("1d6", "2d6+1", "4dF"):
        await send_and_answer(h, ALICE, f"/r {expression}")
    sent = h.emu.send_text(GM, GROUP, "/export game")
    message = await wait_document(h, GROUP, sent.message_id)
    assert message.document is not None
    return message.document.data


def _verify(tmp_path: Path, name: str, content: bytes) -> tuple[int, str]:
    path = tmp_path / name
    path.write_bytes(content)
    out = io.StringIO()
    return verify_main([str(path)], out), out.getvalue()


async def _count(h: Harness, table: str) -> int:
    return int(await scalar(h, f"SELECT count(*) FROM {table}"))


async def test_a_game_leaves_and_comes_back(running: Harness, tmp_path: Path) -> None:
    h = running
    data = await _game_with_history(h)
    document: dict[str, Any] = json.loads(data)
    assert document["kind"] == "game" and document["system"] == "fate"
    assert [c["name"] for c in document["characters"]] == ["Кира"]
    assert [c["name"] for c in document["npcs"]] == ["Стражник"]
    assert len(document["schedules"]) == 1 and len(document["ledger"]) == 1
    assert len(document["roll_log"]["entries"]) == 3
    # The log section is a rollog/1 log: the verifier checks it alone or inside the game file.
    log_only = json.dumps(document["roll_log"]).encode()
    assert _verify(tmp_path, "log.json", log_only)[0] == 0
    code, summary = _verify(tmp_path, "game.json", data)
    assert code == 0 and "3 entries" in summary

    games = await _count(h, "games")
    refused = await send_file(h, BOB, FRESH, data)
    assert "только её мастер" in refused.text and await _count(h, "games") == games

    done = await send_file(h, GM, FRESH, data)
    assert "Old table" in done.text and "1 персонаж" in done.text, done.text
    fresh = await game_id(h, FRESH)
    assert await scalar(h, "SELECT timezone FROM games WHERE id = :g", g=fresh) == "Asia/Tokyo"
    assert await scalar(h, "SELECT count(*) FROM schedules WHERE game_id = :g", g=fresh) == 1
    assert await scalar(h, "SELECT count(*) FROM ledger WHERE game_id = :g", g=fresh) == 1
    log = await scalar(
        h, "SELECT value FROM game_data WHERE game_id = :g AND key = 'imported_roll_log'",
        g=fresh,
    )  # fmt: skip
    assert log == document["roll_log"]
    old = await send_and_answer(h, GM, "/sheet Кира", chat_id=GROUP)
    new = await send_and_answer(h, GM, "/sheet Кира", chat_id=FRESH)
    assert new.text == old.text
    npc = await send_and_answer(h, GM, "/sheet Стражник", chat_id=FRESH)
    assert "Стражник" in npc.text

    # Again into the same group: it has a game now; nothing is created twice.
    counts = [await _count(h, t) for t in ("games", "characters", "schedules", "ledger")]
    again = await send_file(h, GM, FRESH, data)
    assert "уже идёт игра" in again.text, again.text
    assert [await _count(h, t) for t in ("games", "characters", "schedules", "ledger")] == counts
    await h.emu.wait_idle(WAIT)


async def test_a_forged_roll_log_is_refused(running: Harness, tmp_path: Path) -> None:
    h = running
    data = await _game_with_history(h)
    document: dict[str, Any] = json.loads(data)
    document["roll_log"]["entries"][1]["result"] += 1  # a better roll, the hash left as it was
    document.pop("sha256")
    document["sha256"] = content_hash(document)  # the file's own seal made to match
    forged = json.dumps(document, ensure_ascii=False).encode()
    code, summary = _verify(tmp_path, "forged.json", forged)
    assert code == 1 and "FAILED" in summary
    games = await _count(h, "games")
    answer = await send_file(h, GM, FRESH, forged)
    assert "журнал бросков" in answer.text.lower() or "roll log" in answer.text, answer.text
    assert await _count(h, "games") == games and await _count(h, "imports") == 0

    # Two active characters of one name (a file from before the unique index of names):
    # /sheet and /r could reach only one, so the file is refused saying which.
    twice: dict[str, Any] = json.loads(data)
    guard = twice["npcs"][0]
    other = {**guard, "ref": guard["ref"] + 1000, "name": "стражник"}
    twice["npcs"].append({**other, "sheet": {**guard["sheet"], "name": "стражник"}})
    twice.pop("sha256")
    twice["sha256"] = content_hash(twice)
    answer = await send_file(h, GM, FRESH, json.dumps(twice, ensure_ascii=False).encode())
    assert "«стражник»: в файле два активных персонажа с таким именем." in answer.text, answer.text
    assert await _count(h, "games") == games and await _count(h, "imports") == 0
