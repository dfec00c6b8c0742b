"""Issue 24 item 1: the GM's own NPC made through the full wizard (``/npc``'s link) is saved
from the preview («✅ Сохранить НПС») and active at once; nothing is sent for approval."""

from __future__ import annotations

from sqlalchemy import text

from tests.conftest import Harness
from tests.games.helpers import GM, GROUP, buttons, create_game, deep_link_token, seat_table
from tests.helpers import table as tb
from tests.wizards.fate import flow


async def test_the_gms_npc_is_saved_from_the_fate_preview_and_active_at_once(
    running: Harness,
) -> None:
    h = running
    seat_table(h)
    await create_game(h, "fate", "Меры")
    link = await tb.send_and_answer(h, GM, "/npc")
    h.emu.send_text(GM, GM, f"/start {deep_link_token(link)}")
    await h.emu.wait_bot_message(GM)
    await h.emu.wait_idle()
    for answer in ("Громила", "Наёмный громила", "Жадный", "Дрался на арене", "Знает Иру",
                   "Должен Бобу"):  # fmt: skip
        await flow.say(h, answer, user=GM)
    for _ in range(4):  # skills, stunts, gear: left as they are
        await flow.press(h, "Далее", user=GM)
    preview = flow.window(h, GM)
    labels = [b["text"] for b in buttons(preview)]
    assert "✅ Сохранить НПС" in labels, labels
    assert not any("мастеру" in label.lower() for label in labels), labels
    assert "Предпросмотр НПС" in preview.text and "отправьте мастеру" not in preview.text
    cards_before = len(h.emu.bot_messages(GROUP))

    await flow.press(h, "✅ Сохранить НПС", user=GM)
    await h.emu.wait_idle()
    async with h.engine.connect() as conn:
        rows = (await conn.execute(text("SELECT name, status, is_npc FROM characters"))).all()
    assert [tuple(r) for r in rows] == [("Громила", "active", True)]
    said = h.emu.bot_messages(GROUP)[cards_before:]
    assert len(said) == 1 and "Громила" in said[0].text  # «НПС … в игре», no approval card
    assert buttons(said[0]) == []
