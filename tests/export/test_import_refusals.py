"""/import of a character: the private chat's game picker and «send the file now», one import
per game and file however often it comes, and every refusal — a bounds check before the
download, hostile or broken files, another system, creation rules — leaving nothing stored."""

from __future__ import annotations

import json
import re
from typing import Any

from bot.services.transfer import MAX_FILE_BYTES
from engine.transfer import content_hash
from tests.conftest import Harness
from tests.export.helpers import (
    FRESH,
    legal_sheet,
    new_game,
    seat_tables,
    send_file,
    wait_document,
)
from tests.games.helpers import ALICE, BOB, GROUP, buttons
from tests.helpers.table import WAIT, insert_character, scalar, seat

OLD = "Кира"


async def _table(h: Harness, system: str = "fate", *, lang: str | None = None) -> bytes:
    """ALICE's character in GROUP's game, exported from the private chat."""
    seat_tables(h)
    await new_game(h, GROUP, system, "Old table", lang=lang)
    await insert_character(h, system, legal_sheet(system, OLD), owner=ALICE)
    sent = h.emu.send_text(ALICE, ALICE, "/export")
    message = await wait_document(h, ALICE, sent.message_id)
    assert message.document is not None
    return message.document.data


def _resealed(document: dict[str, Any]) -> bytes:
    """The document with a matching seal, as someone who edits files knowingly would."""
    document = {k: v for k, v in document.items() if k != "sha256"}
    document["sha256"] = content_hash(document)
    return json.dumps(document, ensure_ascii=False).encode()


async def _characters(h: Harness) -> int:
    return int(await scalar(h, "SELECT count(*) FROM characters"))


async def _imports(h: Harness) -> int:
    return int(await scalar(h, "SELECT count(*) FROM imports"))


async def test_private_import_asks_for_the_file_and_the_game(running: Harness) -> None:
    h = running
    data = await _table(h)
    await new_game(h, FRESH, "fate", "New table")
    await seat(h, ALICE, chat_id=FRESH)
    prompt = await send_file_after(h, "/import")
    assert "/cancel" in prompt.text
    picker = await send_file(h, ALICE, ALICE, data, caption=None)
    games = [b for b in buttons(picker) if b["callback_data"].startswith("ipt:")]
    assert [b["text"] for b in games] == ["Old table", "New table"]
    pressed = h.emu.press(ALICE, ALICE, picker.message_id, games[1]["callback_data"])
    await h.emu.wait_callback_answer(pressed.callback_query_id, timeout=WAIT)
    await h.emu.wait_idle(WAIT)
    card = h.emu.last_bot_message(FRESH)
    assert card is not None and OLD in card.text
    assert any(b.get("callback_data", "").startswith("apv:") for b in buttons(card))
    assert await _characters(h) == 2 and await _imports(h) == 1
    # The same press again: the file was taken, the button is spent.
    again = h.emu.press(ALICE, ALICE, picker.message_id, games[1]["callback_data"])
    answer = await h.emu.wait_callback_answer(again.callback_query_id, timeout=WAIT)
    assert answer.text and await _characters(h) == 2


async def send_file_after(h: Harness, line: str) -> Any:
    sent = h.emu.send_text(ALICE, ALICE, line)
    return await h.emu.wait_bot_message(ALICE, after=sent.message_id, timeout=WAIT)


async def test_the_same_file_imports_once(running: Harness) -> None:
    h = running
    data = await _table(h)
    await new_game(h, FRESH, "fate", "New table")
    # Twice at once (two members upload it together): the unique key lets one through.
    alice = h.emu.send_document(ALICE, FRESH, "export.json", data, caption="/import")
    bob = h.emu.send_document(BOB, FRESH, "copy.json", data, caption="/import")
    await h.emu.wait_idle(WAIT)
    answers = [
        m.text
        for m in h.emu.bot_messages(FRESH)
        if m.reply_to in (alice.message_id, bob.message_id) or m.message_id > alice.message_id
    ]
    assert sum("already imported" in a or "уже импортирован" in a for a in answers) == 1, answers
    assert await _characters(h) == 2  # the original and one import
    again = await send_file(h, ALICE, FRESH, data)
    assert "already imported" in again.text or "уже импортирован" in again.text
    assert await _characters(h) == 2 and await _imports(h) == 1


async def test_a_character_brought_back_into_its_own_game_is_refused(running: Harness) -> None:
    """A player's export imported into the game it came from was sent to the GM as a second
    «Кира» beside the first: refused by name, nothing stored, the file not taken."""
    h = running
    data = await _table(h, "lifegear", lang="en")  # the refusal's words in English
    answer = await send_file(h, ALICE, GROUP, data)
    assert f"«{OLD}»" in answer.text and "another game" in answer.text, answer.text
    assert await _characters(h) == 1 and await _imports(h) == 0


async def test_creation_rules_list_every_violation_and_store_nothing(running: Harness) -> None:
    h = running
    data = await _table(h)
    await new_game(h, FRESH, "fate", "New table", lang="en")  # the refusals' words in English
    document = json.loads(data)
    sheet = document["character"]["sheet"]
    sheet["fate_points"] = 0  # not the refresh a new character starts with
    sheet["skills"] = {name: 5 for name in sheet["skills"]}  # past the pyramid's top
    answer = await send_file(h, ALICE, FRESH, _resealed(document))
    assert answer.text.count("⛔") >= 2, answer.text
    assert "Nothing was imported." in answer.text
    assert await _characters(h) == 1 and await _imports(h) == 0


async def test_another_system_is_refused(running: Harness) -> None:
    h = running
    data = await _table(h)
    await new_game(h, FRESH, "matter", "New table", lang="en")
    answer = await send_file(h, ALICE, FRESH, data)
    assert "FATE" in answer.text and "Matter" in answer.text, answer.text
    assert await _characters(h) == 1 and await _imports(h) == 0


async def test_a_huge_file_is_refused_before_the_download(running: Harness) -> None:
    h = running
    await _table(h)
    await new_game(h, FRESH, "fate", "New table", lang="en")
    calls = len(h.emu.calls_to("getFile"))
    answer = await send_file(h, ALICE, FRESH, b" " * (MAX_FILE_BYTES + 1))
    assert f"{MAX_FILE_BYTES // 2**20} MB" in answer.text
    assert len(h.emu.calls_to("getFile")) == calls


async def test_hostile_and_broken_files_get_a_clear_error(running: Harness) -> None:
    h = running
    data = await _table(h)
    await new_game(h, FRESH, "fate", "New table", lang="en")  # the refusals' words in English
    document = json.loads(data)
    future = {**document, "schema_version": 99}
    wrong_type = json.loads(data)
    wrong_type["character"]["name"] = 5
    newer_sheet = json.loads(data)
    newer_sheet["character"]["schema_version"] = 99
    bad_field = json.loads(data)
    bad_field["character"]["sheet"]["fate_points"] = "many"
    forged = json.loads(data)
    forged["character"]["name"] = "Mallory"  # edited, the seal left as it was
    cases = {
        b"[" * 50_000 + b"]" * 50_000: "nested too deep",
        b"\xff\xfe not json": "holds no JSON",
        b'{"format": "rollog/1"}': "not the bot's export file",
        _resealed(future): "newer version of the bot (format 99",
        # in words, never a field path (issue 33, item 5)
        _resealed(wrong_type): "edited by hand: the name — text is needed",
        _resealed(newer_sheet): "the sheet comes from a newer version",
        _resealed(bad_field): "«Кира»: Fate points — a number is needed.",
        json.dumps(forged).encode(): "checksum does not match",
        _resealed({**document, "system": "dnd"}): "Unknown rule system",
    }
    for content, expected in cases.items():
        answer = await send_file(h, ALICE, FRESH, content)
        assert expected in answer.text, (expected, answer.text)
        assert len(answer.text) < 1000
    assert await _characters(h) == 1 and await _imports(h) == 0
    assert h.runtime is not None and h.runtime.dispatcher["cpu"].started == 1


async def test_a_russian_refusal_names_fields_in_russian(running: Harness) -> None:
    """No internal field path of a sheet and no English inside a Russian refusal (issue 36,
    item 16): the field is named as the sheet names it, the problem in Russian."""
    h = running
    seat_tables(h)
    h.emu.add_user(ALICE, "Алиса", language_code="ru")
    await new_game(h, GROUP, "fate", "Old table")
    await insert_character(h, "fate", legal_sheet("fate", OLD), owner=ALICE)
    sent = h.emu.send_text(ALICE, ALICE, "/export")
    message = await wait_document(h, ALICE, sent.message_id)
    assert message.document is not None
    await new_game(h, FRESH, "fate", "New table")
    bad_sheet = json.loads(message.document.data)
    bad_sheet["character"]["sheet"]["fate_points"] = "many"
    wrong_type = json.loads(message.document.data)
    wrong_type["character"]["name"] = 5
    cases = {
        _resealed(bad_sheet): f"«{OLD}»: Очки судьбы — нужно число.",
        _resealed(wrong_type): "изменён вручную: имя — нужен текст.",
    }
    for content, expected in cases.items():
        answer = await send_file(h, ALICE, FRESH, content)
        assert expected in answer.text, answer.text
        outside_paths = re.sub(r"«[^»]*»", "", answer.text)
        assert not re.search(r"[A-Za-z]{2,}", outside_paths), answer.text
