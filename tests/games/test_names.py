"""Issue 36 item 3: every command that takes a character's name uses it, the same way — the
exact name (case aside, ё as е), else the one name it starts; otherwise «not found» or
«several match» with the names to choose from, and nothing else done. A returned draft is
never listed beside the live character of the same name."""

from __future__ import annotations

from engine.systems import fate
from tests.conftest import Harness
from tests.export.helpers import file_json, legal_sheet, wait_document
from tests.games.helpers import ALICE, BOB, GM, buttons, create_game, seat_table
from tests.helpers import table as tb
from tests.trackers import lifegear_helpers as lh


def _hero(name: str) -> fate.Character:
    return fate.new_character(name)


async def _fate_table(h: Harness) -> None:
    """Alice's «Вереск» (with an older returned draft of that name), Bob's «Алёна», the GM's
    NPC «Алёша»."""
    seat_table(h)
    await create_game(h, "fate", "Кампания")
    await tb.insert_character(h, "fate", legal_sheet("fate", "Вереск"), status="returned")
    await tb.insert_character(h, "fate", legal_sheet("fate", "Вереск"))
    await tb.insert_character(h, "fate", _hero("Алёна"), owner=BOB)
    await tb.insert_character(h, "fate", _hero("Алёша"), owner=GM, npc=True)


def _no_such(text: str, query: str) -> None:
    assert f"«{query}»" in text and ("не найден" in text or "not found" in text), text
    assert text.count("Вереск") == 1 and "Алёна" in text and "Алёша" in text, text


def _several(text: str) -> None:
    assert "Алёна" in text and "Алёша" in text and "Вереск" not in text, text
    assert "несколько" in text or "Several" in text, text


async def test_group_commands_resolve_a_name_or_say_which_there_are(running: Harness) -> None:
    h = running
    await _fate_table(h)

    # /sheet: ё as е, a prefix, and the two answers that name nobody
    assert "Алёна" in (await tb.send_and_answer(h, GM, "/sheet алена")).text
    assert "Вереск" in (await tb.send_and_answer(h, GM, "/sheet вер")).text
    _no_such((await tb.send_and_answer(h, GM, "/sheet Нечто несуществующее")).text,
             "Нечто несуществующее")  # fmt: skip
    _several((await tb.send_and_answer(h, GM, "/sheet Ал")).text)

    # /history: the returned draft is no second «Вереск» among the names
    _no_such((await tb.send_and_answer(h, GM, "/history Нечто")).text, "Нечто")
    _several((await tb.send_and_answer(h, GM, "/history Ал")).text)
    assert "Алёша" in (await tb.send_and_answer(h, GM, "/history АЛЕШ")).text

    # /res: a name that names nobody is said so, not the usage
    _no_such((await tb.send_and_answer(h, ALICE, "/res Нечто")).text, "Нечто")
    _several((await tb.send_and_answer(h, ALICE, "/res ал")).text)
    panel = await tb.send_for_buttons(h, ALICE, "/res алёна", "run:")
    assert "Алёна" in panel.text


async def test_private_sheet_and_export_use_the_name(running: Harness) -> None:
    h = running
    await _fate_table(h)
    said = await tb.send_and_answer(h, ALICE, "/export Нечто несуществующее", chat_id=ALICE)
    assert "«Нечто несуществующее»" in said.text and "Вереск" in said.text, said.text
    assert not [m for m in h.emu.bot_messages(ALICE) if m.document]
    said = await tb.send_and_answer(h, ALICE, "/sheet Алиса", chat_id=ALICE)
    assert "«Алиса»" in said.text and said.text.count("Вереск") == 1, said.text
    assert not said.reply_markup, said.reply_markup

    sent = h.emu.send_text(ALICE, ALICE, "/export вереск")
    document = file_json(await wait_document(h, ALICE, sent.message_id))
    assert document["character"]["name"] == "Вереск"
    # the list of one's own characters names the live one, not its returned draft beside it
    listed = await tb.send_and_answer(h, ALICE, "/sheet", chat_id=ALICE)
    assert listed.text.count("Вереск") == 1, listed.text
    # two of one's own that the name starts: the picker offers just those
    await tb.insert_character(h, "fate", legal_sheet("fate", "Верба"), status="pending")
    picker = await tb.send_and_answer(h, ALICE, "/export Вер", chat_id=ALICE)
    assert sorted(b["text"].split(" · ")[0] for b in buttons(picker)) == ["Верба", "Вереск"]


async def test_join_and_leave_use_the_name(running: Harness) -> None:
    h = running
    await lh.lifegear_table(h)
    await lh.insert(h, lh.hero("Лина", "1d6"))
    await lh.insert(h, lh.hero("Лиса", "1d6"), owner=BOB)
    assert "Шакал" in (await tb.send_and_answer(h, GM, "/npc Шакал: защита 6")).text
    await tb.send_for_buttons(h, GM, "/fight Шакал", "")
    await h.emu.wait_idle()  # the tracker's message goes out before its update commits
    version = (await tb.tracker_row(h))["version"]

    said = (await tb.send_and_answer(h, GM, "/join Нечто")).text
    assert "«Нечто»" in said and "Лина" in said and "Лиса" in said, said
    said = (await tb.send_and_answer(h, GM, "/leave Ли")).text
    assert "Лина" in said and "Лиса" in said and ("несколько" in said or "Several" in said)
    # 9a: the monster exists; it is fought, it does not join
    said = (await tb.send_and_answer(h, GM, "/join Шакал")).text
    assert "чудовище" in said and "не присоединяется" in said, said
    assert (await tb.tracker_row(h))["version"] == version

    # a prefix names Лина, who fights already (a fight takes every fighter from the start)
    said = (await tb.send_and_answer(h, GM, "/join лин")).text
    assert "Лина" in said and "участвует" in said, said
