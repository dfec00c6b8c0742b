"""Fate create-advantage shows its opposition (issue 24 item 5, in part): the GM sets the
passive opposition before the roll, the stage and the result line name it, and an advantage
made under its default name is named right after by a reply — over the emulator."""

from __future__ import annotations

from tests.conftest import Harness
from tests.games.helpers import ALICE, GM
from tests.helpers import table as tb
from tests.trackers import fate_helpers as fh


async def test_the_advantage_names_its_opposition(running: Harness) -> None:
    h = running
    fh.seat_table(h)
    await fh.create_game(h, "fate", "Конфликт")
    await tb.insert_character(h, "fate", fh.hero("Ира", notice=4, stealth=8), owner=ALICE)
    await tb.insert_character(h, "fate", fh.hero("Орк"), owner=GM, npc=True)
    tracker = await fh.open_conflict(h)
    await fh.press(h, GM, tracker, "fzg:")
    await fh.press(h, ALICE, tracker, "fza:", ":advantage")
    assert "против сложности Неплохо (+2)" in tb.current(h, tracker).text
    # Only the GM sets the opposition.
    answer = await fh.press(h, ALICE, tracker, "fzd:", "Хорошо")
    assert answer.show_alert
    answer = await fh.press(h, GM, tracker, "fzd:", "Хорошо")
    assert not answer.show_alert, answer.text
    assert "против сложности Хорошо (+3)" in tb.current(h, tracker).text
    await fh.press(h, ALICE, tracker, "fzv:", "stealth")
    text = tb.current(h, tracker).text
    line = next(x for x in text.splitlines() if "создаёт преимущество" in x)
    assert "(Скрытность) против сложности Хорошо (+3)" in line
    total = int(line.split("→ ")[1].split(",")[0])
    assert total >= 4  # Скрытность +8 cannot fall below +4: a success against +3
    assert "🌀 Ничья" not in text  # no tie, no boost line
    assert "«Преимущество: Ира»" in text  # made under its default name …
    assert "назвать преимущество «Преимущество: Ира»" in text  # … and asked for a name
    h.emu.send_text(ALICE, fh.GROUP, "Тени складов", reply_to=tracker.message_id)
    await h.emu.wait_for(lambda: "«Тени складов»" in tb.current(h, tracker).text)
    text = tb.current(h, tracker).text
    assert "назвать преимущество" not in text
    row = await tb.tracker_row(h, kind="fate_conflict")
    names = [a["name"] for z in row["state"]["conflict"]["zones"] for a in z["aspects"]]
    assert "Тени складов" in names and "Преимущество: Ира" not in names
