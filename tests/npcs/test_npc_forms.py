"""The systems' quick NPC forms, pure: exact sheets for example lines, the errors a GM meets,
and a fuzz: any text builds a sheet or raises ``EngineError`` (nothing else escapes)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.systems import SYSTEMS
from engine.errors import EngineError
from engine.systems import cliche, fate, lifegear, matter, storyteller
from engine.systems.npc import NpcFormError, split_line


def _form(system: str):  # type: ignore[no-untyped-def]
    form = SYSTEMS[system].npc_form
    assert form is not None
    return form


def test_split_line_names_and_mooks() -> None:
    assert split_line("Громила: Бой 3, Атлетика +2", "x").name == "Громила"
    nameless = split_line("Бой 2; стресс 1", "x")
    assert nameless.name is None and [i.value for i in nameless.items] == [2, 1]
    alone = split_line("Старый  Бандит", "x")
    assert alone.name == "Старый Бандит" and alone.items == ()
    assert split_line("X: Бой −1", "x").items[0].value == -1  # a real minus sign


def test_fate_mook() -> None:
    sheet = _form("fate").build("Бой 2, стресс 1, Трус", "Статист 1")
    assert isinstance(sheet, fate.Character)
    assert sheet.name == "Статист 1" and sheet.skills == {fate.Skill.FIGHT: 2}
    assert sheet.stress_boxes == 1 and sheet.fate_points == 0 and sheet.refresh == 0
    assert [a.text for a in sheet.aspects] == ["Трус"]
    track = fate.stress_track(sheet, fate.TrackKind.PHYSICAL)
    assert len(track.boxes) == 1  # the mook's own single box


def test_storyteller_npc() -> None:
    sheet = _form("storyteller").build("Стражник: Сила 3, Драка 2, Воля 4, у ворот", "?")
    assert isinstance(sheet, storyteller.Character)
    assert sheet.attributes.strength == 3 and sheet.ability("brawl") == 2
    assert sheet.willpower.rating == 4 and sheet.concept == "у ворот"


def test_matter_npc() -> None:
    sheet = _form("matter").build("Бандит: Жестокость 2, Здоровье 4, Броня 1", "?")
    assert isinstance(sheet, matter.Character)
    assert sheet.skills == {"brutality": 2} and (sheet.health, sheet.health_max) == (4, 4)
    assert sheet.armor == 1


def test_cliche_npc() -> None:
    sheet = _form("cliche").build("Громила: Вышибала 4, Пьяница 2", "?")
    assert isinstance(sheet, cliche.Character)
    assert [(c.name, c.dice) for c in sheet.cliches] == [("Вышибала", 4), ("Пьяница", 2)]


def test_lifegear_monster() -> None:
    sheet = _form("lifegear").build("Тролль: защита 12, до боя 2, после боя 1", "?")
    assert isinstance(sheet, lifegear.Character) and sheet.monster is not None
    assert sheet.monster.defence == 12
    timings = [(s.timing.value, s.damage) for s in sheet.monster.specials]
    assert timings == [("before_fight", 2), ("after_fight", 1)]


@pytest.mark.parametrize(
    ("system", "line", "words"),
    [
        ("fate", "X: Бег 3", "Не знаю черту «Бег»"),
        ("fate", "X: Бой 9", "от -2 до 8"),
        ("fate", "X: Бой 1, бой 2", "указано дважды"),
        ("cliche", "X: просто текст", "хотя бы одно клише"),
        ("lifegear", "X: до боя 2", "защита"),
        ("storyteller", "X: Сила 0", "от 1 до 10"),
        ("matter", "X: Жестокость 11", "от 0 до 10"),
        ("fate", "", "одной строкой"),
    ],
)
def test_errors_say_what_to_fix(system: str, line: str, words: str) -> None:
    with pytest.raises(NpcFormError) as error:
        _form(system).build(line, "?")
    assert words in error.value.render("ru")


@settings(max_examples=150, deadline=None)
@given(system=st.sampled_from(sorted(SYSTEMS)), text=st.text(max_size=120))
def test_any_text_builds_or_says_why(system: str, text: str) -> None:
    try:
        sheet = _form(system).build(text, "Статист 1")
    except EngineError:
        return
    SYSTEMS[system].load(sheet.model_dump(mode="json"))  # what is stored loads back
