"""What a Russian-speaking table sees, end to end over the emulator and Postgres (issue 23,
items 4 and 6): the GM's undo note names each change in the system's own words, a roll by a
trait says «Итог» once and is signed with the character's name and the player's, a request
card says the difficulty once, and the chance die has a Russian name."""

from __future__ import annotations

import re

import pytest

from engine.systems import lifegear, matter, storyteller
from engine.systems.matter import STATES, StateId
from engine.systems.storyteller import AbilityDots, AbilityGroup, Attributes
from handlers.views import resources as views
from tests.conftest import Harness
from tests.games.helpers import ALICE, GM, GROUP, create_game
from tests.helpers.table import insert_character, scalar, stored_sheet
from tests.resources.test_panel import CASES, _edited, _panel, _press, _start

REPR = re.compile(r"\{'|\[\{|': ")  # a Python dict or list of dicts shown as is

# What the undo note says per system (the press takes the change back: after → before).
UNDONE: dict[str, str] = {
    "storyteller": "Воля: 3 → 4",
    "cliche": "Клише · Солдат (потеряно костей): 1 → 0",
    "lifegear": "Снаряжение · Лук: сломано → годно",
    "matter": "Состояния: − " + STATES[StateId.POISON].name_ru,
}
INTERNAL = ("willpower", "cliches", "gear", "states", "pool", "lost", "broken", "poison")


@pytest.mark.parametrize("system", list(UNDONE))
async def test_the_gms_undo_note_speaks_the_systems_words(table: Harness, system: str) -> None:
    build, press, check, _ = CASES[system]
    cid = await _start(table, system, build())
    panel = await _panel(table)
    edits = 0
    if system == "matter":  # states are chosen on a second screen
        view = views.ResViewCD(character_id=cid, view=views.PanelView.STATES).pack()
        await _press(table, ALICE, panel, view)
        edits = (await _edited(table, panel, 1)).edits
    await _press(table, ALICE, panel, press(cid))
    assert check(await stored_sheet(table, cid))
    edits = (await _edited(table, panel, edits + 1)).edits
    await _press(table, GM, panel, views.UndoCD(character_id=cid, version=2).pack())
    assert not check(await stored_sheet(table, cid))
    shown = (await _edited(table, panel, edits + 1)).text
    note = shown[shown.index("↩️") :]
    assert UNDONE[system] in note, note
    assert not REPR.search(note) and not any(word in note for word in INTERNAL), note


# --- a table that reads Russian -----------------------------------------------------------------


def _seat_russian(h: Harness) -> None:
    h.emu.add_user(GM, "Гена", language_code="ru")
    h.emu.add_user(ALICE, "Алиса", language_code="ru")
    h.emu.add_group(GROUP, "Стол", members=[GM, ALICE], creator=GM)


async def _reply(h: Harness, sender: int, line: str) -> str:
    emu = h.emu
    sent = emu.send_text(sender, GROUP, line)
    found = await emu.wait_for(
        lambda: next((m for m in emu.bot_messages(GROUP) if m.reply_to == sent.message_id), None),
        timeout=10,
    )
    return found.text or ""


async def test_a_trait_roll_says_total_once_and_is_signed_by_character_and_player(
    running: Harness,
) -> None:
    _seat_russian(running)
    await create_game(running, "lifegear", "Кампания")
    hero = lifegear.Character(name="Ли", stats=(lifegear.Stat(name="Стрельба", dice="1d8+1d6+3"),))
    await insert_character(running, "lifegear", hero, owner=ALICE)
    text = await _reply(running, ALICE, "/r Стрельба")
    total = await scalar(running, "SELECT result FROM rolls")
    assert text.count("Итог") == 1 and f"Итог: {total}" in text, text
    assert text.splitlines()[0].startswith("Стрельба") and "Ли (Алиса)" in text, text


async def test_a_matter_roll_counts_its_successes_once(running: Harness) -> None:
    _seat_russian(running)
    await create_game(running, "matter", "Кампания")
    skills = {s.value: 0 for s in matter.Skill} | {"brutality": 3}
    hero = matter.new_character("Пепел").model_copy(update={"skills": skills})
    await insert_character(running, "matter", hero, owner=ALICE)
    text = await _reply(running, ALICE, "/r Жестокость")
    assert text.count("Успехов") == 1, text


async def _card(h: Harness, spec: str) -> str:
    emu = h.emu
    said = emu.send_text(ALICE, GROUP, "готова")
    emu.send_text(GM, GROUP, f"/request {spec}", reply_to=said.message_id)
    card = await emu.wait_bot_message(GROUP, contains="🎲", after=said.message_id)
    return card.text or ""


async def test_a_storyteller_card_says_the_difficulty_once_in_words(running: Harness) -> None:
    _seat_russian(running)
    await create_game(running, "storyteller", "Кампания")
    hero = storyteller.new_character("Эйлин").model_copy(
        update={
            "attributes": Attributes(dexterity=3),
            "abilities": (AbilityDots(key="athletics", group=AbilityGroup.TALENTS, dots=2),),
        }
    )
    await insert_character(running, "storyteller", hero, owner=ALICE)
    text = await _card(running, "Ловкость+Атлетизм 8")
    assert await scalar(running, "SELECT expression FROM roll_requests") == "5d10>=8f1"
    first = text.splitlines()[0]
    assert (
        first == "🎲 Бросок для: Эйлин (Алиса) — Ловкость+Атлетизм (5d10) против 8 (просит Гена)"
    ), text
    assert ">=" not in text and " vs " not in text


async def test_the_chance_die_has_a_russian_name(running: Harness) -> None:
    _seat_russian(running)
    await create_game(running, "matter", "Кампания")
    await insert_character(running, "matter", matter.new_character("Пепел"), owner=ALICE)
    text = await _reply(running, ALICE, "/r шанс")
    assert "chance" not in text and "шанс" in text, text
