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
    answer = await fh.press(h, ALICE, tracker, "fzo:", "Хорошо")
    assert answer.show_alert
    answer = await fh.press(h, GM, tracker, "fzo:", "Хорошо")
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


async def test_after_a_free_invoke_a_paid_one_is_offered(running: Harness) -> None:
    """Ира attacks with a free invoke from her advantage, then pays a fate point for her own
    aspect: +2 more, one point off her sheet, the aspect not offered twice."""
    h = running
    fh.seat_table(h)
    await fh.create_game(h, "fate", "Конфликт")
    ira_sheet = fh.hero("Ира", notice=4, stealth=8, fight=2).model_copy(
        update={
            "aspects": (
                fh.fate.CharacterAspect(text="Тень гильдии", role=fh.fate.AspectRole.CONCEPT),
            )
        }
    )
    ira = await tb.insert_character(h, "fate", ira_sheet, owner=ALICE)
    orc = await tb.insert_character(h, "fate", fh.hero("Орк"), owner=GM, npc=True)
    tracker = await fh.open_conflict(h)
    await fh.press(h, GM, tracker, "fzg:")
    await fh.press(h, ALICE, tracker, "fza:", ":advantage")
    await fh.press(h, ALICE, tracker, "fzv:", "stealth")  # a sure success: free invoke(s)
    await fh.press(h, GM, tracker, "fza:", ":pass")
    await fh.press(h, ALICE, tracker, "fza:", ":attack")
    await fh.press(h, ALICE, tracker, "fzt:", f":{orc}:fight")
    await fh.press(h, GM, tracker, "fzd:", "athletics")
    await fh.press(h, ALICE, tracker, "fzi:", "✨ +2")  # the free invoke first
    assert fh.has(h, tracker, "fzp:")  # … and the paid one is still offered
    answer = await fh.press(h, ALICE, tracker, "fzp:", "Тень гильдии")
    assert not answer.show_alert, answer.text
    text = tb.current(h, tracker).text
    assert "💰 Ира призывает «Тень гильдии» за очко судьбы: +2" in text
    assert (await tb.stored_sheet(h, ira))["fate_points"] == 2
    assert not fh.has(h, tracker, "fzp:")  # once per roll
