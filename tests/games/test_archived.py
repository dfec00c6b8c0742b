"""Issue 36 item 4: a character of an archived game, or a retired one, stays readable and
exportable — in /sheet, /res, /export and the Mini App — marked archived, changeable by no
one."""

from __future__ import annotations

from sqlalchemy import text

from engine.systems import fate
from tests.conftest import Harness
from tests.export.helpers import file_json, legal_sheet, wait_document
from tests.games.helpers import ALICE, GM, buttons, create_game, seat_table
from tests.helpers import table as tb


async def _archive(h: Harness) -> None:
    async with h.engine.begin() as conn:
        await conn.execute(text("UPDATE games SET archived_at = now()"))


async def test_an_archived_games_character_is_read_and_exported(running: Harness) -> None:
    h = running
    seat_table(h)
    await create_game(h, "fate", "Кампания")
    await tb.insert_character(h, "fate", legal_sheet("fate", "Вереск"))
    await _archive(h)

    listed = await tb.send_and_answer(h, ALICE, "/sheet", chat_id=ALICE)
    assert "Вереск" in listed.text and "archived" in listed.text, listed.text
    assert buttons(listed)[0]["text"] == "🗄 Вереск"
    sheet = await tb.send_and_answer(h, ALICE, "/sheet вереск", chat_id=ALICE)
    assert "Archived: read only." in sheet.text and "Вереск" in sheet.text, sheet.text
    assert not any("url" in b or "res" in b.get("callback_data", "") for b in buttons(sheet))
    # the list's button opens it too
    data = buttons(listed)[0]["callback_data"]
    answer = await tb.press_data(h, ALICE, listed, data, chat_id=ALICE)
    assert not answer.show_alert, answer.text

    sent = h.emu.send_text(ALICE, ALICE, "/export Вереск")
    document = file_json(await wait_document(h, ALICE, sent.message_id))
    assert document["character"]["name"] == "Вереск"
    resources = await tb.send_and_answer(h, ALICE, "/res", chat_id=ALICE)
    assert "Вереск" in resources.text and "Archived" in resources.text, resources.text

    # the group whose game is archived reads it too, and changes nothing
    sheet = await tb.send_and_answer(h, GM, "/sheet Вереск")
    assert "В архиве: только чтение." in sheet.text and "Вереск" in sheet.text, sheet.text
    assert not any("url" in b or "res" in b.get("callback_data", "") for b in buttons(sheet))
    panel = await tb.send_and_answer(h, GM, "/res Вереск")
    assert "Вереск" in panel.text and "В архиве" in panel.text and not panel.reply_markup
    assert "Вереск" in (await tb.send_and_answer(h, GM, "/history Вереск")).text


async def test_a_retired_character_is_read_in_the_group(running: Harness) -> None:
    h = running
    seat_table(h)
    await create_game(h, "fate", "Кампания")
    await tb.insert_character(h, "fate", fate.new_character("Старый"), status="retired")
    await tb.insert_character(h, "fate", fate.new_character("Вереск"))

    sheet = await tb.send_and_answer(h, GM, "/sheet Старый")
    assert "Старый" in sheet.text and "В архиве: только чтение." in sheet.text, sheet.text
    assert not any(b.get("callback_data", "").startswith(("res", "rq")) for b in buttons(sheet))
    panel = await tb.send_and_answer(h, GM, "/res Старый")
    assert "Старый" in panel.text and "В архиве" in panel.text, panel.text
    assert not panel.reply_markup  # no button changes it
    # the live one keeps its panel with buttons
    live = await tb.send_for_buttons(h, ALICE, "/res", "run:")
    assert "Вереск" in live.text


async def test_private_res_of_archived_characters_sends_no_one_to_change_them(
    running: Harness,
) -> None:
    """/res in private with only an archived game's character ended with «To change
    resources, send /res in the game's group» — where the panel refuses every press."""
    h = running
    seat_table(h)
    await create_game(h, "lifegear", "Рынок")
    await tb.insert_character(h, "lifegear", legal_sheet("lifegear", "Зед"))
    await _archive(h)
    sent = h.emu.send_text(ALICE, ALICE, "/res")
    await h.emu.wait_idle()
    said = [m.text for m in h.emu.bot_messages(ALICE) if m.message_id > sent.message_id]
    assert len(said) == 1 and "Зед" in said[0] and "Archived" in said[0], said
