"""The records piece (``flow.records``) on a toy over the emulator: a list of pets in the draft,
each asked part by part (a typed name refused by a rule, an age with ➖ / ➕ within a rule, an
optional note) while added, then shown on its card with a button per part, «Delete» and the
way back; «Add» refused with the rule's reason at the cap; a tap on a pet opens its card; a
restart resumes the card; a «Back» that drops a half-asked pet."""

from __future__ import annotations

from html import escape
from typing import Any

import pytest
from aiogram import F
from aiogram.fsm.state import State
from aiogram_dialog import DialogManager, Window
from aiogram_dialog.widgets.kbd import Column, Row
from aiogram_dialog.widgets.text import Const, Format

from engine.common import Violation
from engine.text import msg, register_messages
from handlers.wizards.flow import Flow, Screens, Text, flow_states, own_draft
from handlers.wizards.flow.own_widgets import counter, go, pick, typed
from handlers.wizards.flow.own_window import own_window
from handlers.wizards.flow.records import Records
from tests.conftest import Harness
from tests.wizards.storyteller.driver import Player
from tests.wizards.toy.driven import play
from tests.wizards.toy.toy import ToySheet

register_messages(
    {
        "toy.pets.full": {"en": "Two pets are plenty.", "ru": "Двух питомцев хватит."},
        "toy.pets.twice": {"en": "{name} is here already.", "ru": "{name} уже есть."},
        "toy.pets.age": {"en": "A pet is 1 to 3.", "ru": "Питомцу от 1 до 3."},
    }
)


def _pets(manager: DialogManager) -> list[Any]:
    pets: list[Any] = own_draft(manager).setdefault("pets", [])
    return pets


def _twice(manager: DialogManager, index: int, name: str) -> list[Violation]:
    others = [p["name"].casefold() for i, p in enumerate(_pets(manager)) if i != index]
    found = name.casefold() in others
    return [Violation("pets", msg("toy.pets.twice", name=name))] if found else []


def _age(manager: DialogManager, index: int, step: int) -> list[Violation]:
    fits = 1 <= _pets(manager)[index]["age"] + step <= 3
    return [] if fits else [Violation("pets", msg("toy.pets.age"))]


PETS = Records(
    "pets", ("pet_name", "pet_age", "pet_note"), _pets,
    new=lambda name: {"name": name, "age": 1, "note": ""},
    full=lambda m: [Violation("pets", msg("toy.pets.full"))] if len(_pets(m)) >= 2 else [],
    card="pet_card",
)  # fmt: skip


async def _data(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
    pet = PETS.current(dialog_manager) or {"name": "", "age": 0, "note": ""}
    pets = _pets(dialog_manager)
    return {
        "pets": escape(", ".join(f"{p['name']} ({p['age']})" for p in pets)) or "none",
        "items": [{"i": i, "name": p["name"]} for i, p in enumerate(pets)],
        **{key: escape(str(value)) for key, value in pet.items()},
    }


def _windows(s: Any) -> list[Window]:
    def window(state: State, *widgets: Any) -> Window:
        return own_window(*widgets, state=state, getter=_data)

    return [
        window(s.pets, Format("Pets: {pets}"), Column(pick("{item[name]}", "pk", "items",
               PETS.opener())), go("Add", "add", PETS.add)),
        window(s.pet_name, Const("Name the pet."), Format("Now: {name}", when="name"),
               typed("pn", "A name of up to {limit}.", PETS.named(_twice)),
               go("Back", "bk", PETS.onward())),
        window(s.pet_age, Format("Age of {name}:"), counter("am", Format("{age}"), "av", "ap",
               PETS.stepper("age", _age)), Row(go("Back", "bk", PETS.onward()),
               go("Drop", "dr", PETS.dropped), go("Next", "nx", PETS.onward("pet_note")))),
        window(s.pet_note, Format("A note on {name}?"), typed("nt", "Up to {limit}.",
               PETS.setter("note"), long=True), go("Skip", "sk", PETS.onward(), when=~F["note"])),
        window(s.pet_card, Format("Card: {name}, {age}, «{note}»"),
               Row(go("Name", "rn", s.pet_name), go("Age", "ag", s.pet_age),
                   go("Note", "no", s.pet_note)),
               Row(go("Delete", "del", PETS.delete), go("To the list", "tl", s.pets))),
    ]  # fmt: skip


FLOW = Flow(
    name="pets",
    steps=(
        Text("name", "Name", "Whose pets?", required=True),
        Screens(
            "pets", "Pets", "", _windows, more=("pet_name", "pet_age", "pet_note", "pet_card")
        ),
    ),
    options=lambda raw: dict(raw),
    build=lambda d, o: ToySheet(name=d.get("name", "")),
    load=lambda sheet, o: {},
    validate=lambda sheet, o: [],
    render=lambda s, t, locale: escape(s.name),  # type: ignore[attr-defined]
)


@pytest.fixture
async def pets(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> Player:
    p = await play(harness, monkeypatch, FLOW, flow_states(FLOW))
    await p.say("/pets")
    await p.say("Ann")
    assert "Pets: none" in p.text
    return p


async def test_an_entry_is_asked_part_by_part_then_kept_on_its_card(pets: Player) -> None:
    p = pets
    await p.press("add")
    assert "Name the pet." in p.text and "Now:" not in p.text
    await p.say("Tom")
    assert "Age of Tom:" in p.text  # named: on to the next part
    await p.press("ap", 2)
    await p.press("ap")  # a fourth year: the rule's refusal, in the answer and the message
    assert p.last_answer.show_alert and p.last_answer.text == "⛔ A pet is 1 to 3."
    assert "A pet is 1 to 3." in p.text and "3" in p.labels()
    await p.press("nx")
    assert "A note on Tom?" in p.text and "A pet is" not in p.text
    await p.press("sk")  # the last part, skipped: the list
    assert "Pets: Tom (3)" in p.text

    await p.press("add")
    await p.say("tom")  # the name rule refuses, the part stays
    assert "⛔ tom is here already." in p.text and "Name the pet." in p.text
    await p.say("Kit")
    await p.press("bk")  # «Back» while added: the list, the pet kept as it is so far
    assert "Pets: Tom (3), Kit (1)" in p.text
    await p.press("add")  # at the cap: refused with the rule's reason, the list stays
    assert p.last_answer.show_alert and p.last_answer.text == "⛔ Two pets are plenty."
    assert "Pets: Tom (3), Kit (1)" in p.text

    await p.press("pk:0")  # a tap on a pet: its card, each part one tap away
    assert "Card: Tom, 3, «»" in p.text
    await p.press("rn")
    assert "Now: Tom" in p.text
    await p.say("Tim")  # renamed: back to the card, not on to the age
    assert "Card: Tim, 3, «»" in p.text
    await p.press("ag")
    await p.press("am")
    await p.press("nx")  # «Next» from a part of a kept pet: the card, not the note
    assert "Card: Tim, 2, «»" in p.text
    await p.press("no")
    await p.say("Striped")
    assert "Card: Tim, 2, «Striped»" in p.text
    await p.h.restart()  # the pet at hand lives on in Postgres
    await p.press("del")
    assert "Pets: Kit (1)" in p.text


async def test_a_back_that_drops_the_half_asked_entry(pets: Player, harness: Harness) -> None:
    p = pets
    await p.press("add")
    await p.say("Rex")
    await p.press("dr")  # the new pet dropped
    assert "Pets: none" in p.text
    await p.press("add")
    await p.say("Max")
    await p.press("nx")
    await p.say("Loud")
    assert "Pets: Max (1)" in p.text
    await p.press("pk:0")
    await p.press("ag")
    await p.press("dr")  # a kept pet is not dropped: back to its card
    assert "Card: Max, 1, «Loud»" in p.text
