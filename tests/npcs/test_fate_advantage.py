"""Fate create-advantage shows its opposition (issue 24 item 5, in part): the GM sets the
passive opposition before the roll, the stage and the result line name it, and an advantage
made under its default name is named right after by a reply — over the emulator."""

from __future__ import annotations

from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GM
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
    assert "💰 Ира обращается к «Тень гильдии» за очко судьбы: +2" in text
    assert (await tb.stored_sheet(h, ira))["fate_points"] == 2
    assert not fh.has(h, tracker, "fzp:")  # once per roll


async def test_an_advantage_against_an_active_defenders_roll(running: Harness) -> None:
    """Issue 24 item 5: Bob names his own Бран as the active defender of Ира's advantage;
    Ира rolls, then Бран rolls 4dF + the skill Bob picks, both through the log, and the
    engine reads Ира's roll against Бран's (shifts, outcome, what it makes)."""
    h = running
    fh.seat_table(h)
    await fh.create_game(h, "fate", "Конфликт")
    await tb.insert_character(h, "fate", fh.hero("Ира", notice=4, stealth=4), owner=ALICE)
    bran = await tb.insert_character(h, "fate", fh.hero("Бран", notice=2), owner=BOB)
    tracker = await fh.open_conflict(h)
    await fh.press(h, GM, tracker, "fzs:", "Бран")  # Бран: side A → side B
    await fh.press(h, GM, tracker, "fzg:")
    await fh.press(h, ALICE, tracker, "fza:", ":advantage")
    assert fh.has(h, tracker, "fzq:")  # who may oppose with a roll is offered

    # Only the GM or Бран's owner names Бран; the GM may go back to the passive opposition.
    answer = await fh.press(h, ALICE, tracker, "fzq:", "Бран")
    assert answer.show_alert
    answer = await fh.press(h, BOB, tracker, "fzq:", "Бран")
    assert not answer.show_alert, answer.text
    assert "Бран противодействует броском" in tb.current(h, tracker).text
    assert not fh.has(h, tracker, "fzo:")  # no passive difficulty while a defender rolls
    await fh.press(h, GM, tracker, "fzq:", "Пассивное")
    assert fh.has(h, tracker, "fzo:")
    await fh.press(h, BOB, tracker, "fzq:", "Бран")

    await fh.press(h, ALICE, tracker, "fzv:", "stealth")
    text = tb.current(h, tracker).text
    assert "✨ Ира создаёт преимущество (Скрытность), Бран противодействует" in text
    assert "противодействует преимуществу, которое создаёт" in text
    answer = await fh.press(h, ALICE, tracker, "fzw:", "notice")  # not Alice's defender
    assert answer.show_alert
    answer = await fh.press(h, BOB, tracker, "fzw:", "notice")
    assert not answer.show_alert, answer.text

    logged = await tb.tracker_rolls(h)
    assert [rid.rsplit(":", 1)[1] for rid, _, _ in logged] == ["adv", "opp"]
    text = tb.current(h, tracker).text

    def total(start: str) -> int:
        line = next(x for x in text.splitlines() if x.startswith(start))
        return int(line.rsplit("→ ", 1)[1].replace("\u2212", "-"))  # a real minus: «−1»

    atk, dfn = total("✨ Ира создаёт"), total("🛡 Бран противодействует")
    assert 0 <= atk <= 8 and -2 <= dfn <= 6  # Скрытность +4 and Внимательность +2, 4dF each
    shifts = atk - dfn
    outcome = fh.fate.outcome_of(shifts)
    words = {"fail": "Провал", "tie": "Ничья", "success": "Успех", "style": "Крит"}
    assert "🛡 Бран противодействует (Внимательность): " in text
    assert (
        f"{words[outcome.value]}: {atk} против {dfn}, сдвигов: {fh.fate.signed(shifts)}." in text
    )
    row = await tb.tracker_row(h, kind="fate_conflict")
    assert row["state"]["pending"] is None
    aspects = {a["name"]: a["free_invokes"] for z in row["state"]["conflict"]["zones"]
               for a in z["aspects"]}  # fmt: skip
    ira = next(p["id"] for p in row["state"]["conflict"]["participants"] if p["name"] == "Ира")
    if outcome.value in ("success", "style"):
        assert aspects["Преимущество: Ира"] == {ira: 1 if outcome.value == "success" else 2}
    elif outcome.value == "tie":
        assert aspects["Усиление: Ира"] == {ira: 1}
    else:  # a failure: the advantage is the defender's
        assert aspects["Преимущество: Бран"] == {str(bran): 1}


async def test_a_failed_advantage_against_a_defender_is_the_defenders(running: Harness) -> None:
    """«Провал: создается преимущество для противника, если это возможно»: Ира's Бой +0
    (at most +4) against the GM's Орк's Внимательность +9 (at least +5) always fails, and the
    advantage is the Орк's, with his free invoke."""
    h = running
    fh.seat_table(h)
    await fh.create_game(h, "fate", "Конфликт")
    await tb.insert_character(h, "fate", fh.hero("Ира", notice=4), owner=ALICE)
    orc = await tb.insert_character(h, "fate", fh.hero("Орк", notice=9), owner=GM, npc=True)
    tracker = await fh.open_conflict(h)
    await fh.press(h, GM, tracker, "fzg:")  # Орк acts first (Внимательность 9): he passes
    await fh.press(h, GM, tracker, "fza:", ":pass")
    await fh.press(h, ALICE, tracker, "fza:", ":advantage")
    await fh.press(h, GM, tracker, "fzq:", "Орк")
    await fh.press(h, ALICE, tracker, "fzv:", "fight")
    await fh.press(h, GM, tracker, "fzw:", "notice")
    text = tb.current(h, tracker).text
    assert "Провал: " in text and "«Преимущество: Орк»: бесплатные обращения — Орк: 1" in text
    row = await tb.tracker_row(h, kind="fate_conflict")
    aspects = {
        a["name"]: a["free_invokes"]
        for z in row["state"]["conflict"]["zones"]
        for a in z["aspects"]
    }
    assert aspects.pop("Преимущество: Орк") == {str(orc): 1}
    # a defence by 3 or more is with style: the Орк's boost as well (the seed's defence table)
    assert aspects in ({}, {"Усиление: Орк": {str(orc): 1}})
    assert ("Орк получает усиление" in text) == bool(aspects)
