"""4d6 read as 4dF, the ladder, notation."""

from __future__ import annotations

import pytest

from engine.dice.source import ScriptedSource
from engine.systems.fate import (
    fate_notation,
    fate_symbols,
    fate_total,
    fate_value,
    ladder_label,
    roll,
    signed,
)


@pytest.mark.parametrize(("face", "value"), [(1, -1), (2, -1), (3, 0), (4, 0), (5, 1), (6, 1)])
def test_face_reading(face: int, value: int) -> None:
    # seed: 1, 2 -> "-"; 3, 4 -> "0"; 5, 6 -> "+"
    assert fate_value(face) == value


def test_seed_example_2356_is_plus_one() -> None:
    # seed: «если, например, выпадет что то вроде "2","3","5","6", ... что в сумме дает "+1"»
    assert fate_symbols((2, 3, 5, 6)) == "-0++"
    assert fate_total((2, 3, 5, 6)) == 1


def test_bad_face_rejected() -> None:
    with pytest.raises(ValueError):
        fate_value(7)


@pytest.mark.parametrize(
    ("value", "ru", "en"),
    [
        (8, "Легендарно", "Legendary"),
        (4, "Прекрасно", "Great"),
        (1, "Нормально", "Average"),
        (0, "Посредственно", "Mediocre"),
        (-3, "Провал!", "Abysmal"),
        (9, "+9", "+9"),
        (-5, "−5", "−5"),
    ],
)
def test_ladder_labels(value: int, ru: str, en: str) -> None:
    label = ladder_label(value)
    assert (label.render("ru"), label.render("en")) == (ru, en)


@pytest.mark.parametrize(("value", "text"), [(3, "+3"), (0, "0"), (-2, "−2")])
def test_signed(value: int, text: str) -> None:
    assert signed(value) == text


@pytest.mark.parametrize(("mod", "notation"), [(3, "4dF+3"), (0, "4dF"), (-1, "4dF-1")])
def test_notation(mod: int, notation: str) -> None:
    assert fate_notation(mod) == notation


def test_roll_keeps_faces_and_notation() -> None:
    r = roll(ScriptedSource([2, 3, 5, 6]), skill=3)
    assert r.faces == (2, 3, 5, 6)
    assert r.dice_total == 1
    assert r.total == 4
    assert r.notation == "4dF+3"
    assert r.symbols == "-0++"
