"""Initiative: Dexterity + Wits − wounds + 1d10; ties by rating, then listing order."""

from __future__ import annotations

import pytest

from engine.dice.source import ScriptedSource
from engine.systems import storyteller
from engine.systems.storyteller import Attribute, DamageKind, apply_damage


def _hero(dex: int, wits: int, wounds: int = 0) -> storyteller.Character:
    c = storyteller.with_attribute(storyteller.new_character("X"), Attribute.DEXTERITY, dex)
    c = storyteller.with_attribute(c, Attribute.WITS, wits)
    if wounds:
        health, _ = apply_damage(c.health, DamageKind.LETHAL, wounds)
        c = c.model_copy(update={"health": health})
    return c


@pytest.mark.parametrize(
    ("dex", "wits", "wounds", "rating"),
    [(3, 2, 0, 5), (3, 2, 1, 5), (3, 2, 2, 4), (3, 2, 4, 3), (3, 2, 6, 0), (3, 2, 7, None)],
)
def test_rating_with_wounds(dex: int, wits: int, wounds: int, rating: int | None) -> None:
    assert storyteller.initiative_rating(_hero(dex, wits, wounds)) == rating


def test_roll_and_order() -> None:
    a = storyteller.roll_initiative(_hero(2, 2), ScriptedSource([7]))  # 11
    b = storyteller.roll_initiative(_hero(4, 3), ScriptedSource([4]))  # 11, higher rating
    c = storyteller.roll_initiative(_hero(2, 2), ScriptedSource([7]))  # 11, same as a
    d = storyteller.roll_initiative(_hero(1, 1, 7), ScriptedSource([]))  # cannot act
    e = storyteller.roll_initiative(_hero(1, 1), ScriptedSource([10]))  # 12
    assert (a.rating, a.die, a.total) == (4, 7, 11)
    assert not d.can_act and d.total is None
    order = storyteller.initiative_order([("a", a), ("b", b), ("d", d), ("c", c), ("e", e)])
    assert order == ["e", "b", "a", "c", "d"]


def test_notation() -> None:
    assert storyteller.initiative_notation(5) == "1d10+5"
    assert storyteller.initiative_notation(-1) == "1d10-1"
