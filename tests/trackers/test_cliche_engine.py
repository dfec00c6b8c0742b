"""The pure helpers the cliche fight tracker asks of the engine: units standing on each side
and the pool a fighter has declared."""

from __future__ import annotations

import pytest

from engine.dice.source import ScriptedSource
from engine.errors import RuleViolation
from engine.systems import cliche
from engine.systems.cliche import fight
from engine.systems.cliche.fight_units import free_fighters, members, other_side, sides, units


def _fighter(key: str, side: str, dice: int, name: str = "Драчун") -> fight.Fighter:
    sheet = cliche.Character(name=key, cliches=(cliche.Cliche(name=name, dice=dice),))
    return fight.fighter_from_character(sheet, key=key, side=side, appropriate=(name,))


def _state() -> fight.FightState:
    return fight.start_fight([_fighter("a", "1", 3), _fighter("b", "1", 2), _fighter("o", "2", 4)])


def test_units_are_teams_then_free_fighters() -> None:
    state = _state()
    assert sides(state) == ("1", "2")
    assert other_side(state, "1") == "2" and other_side(state, "2") == "1"
    assert units(state, "1") == ("a", "b") and free_fighters(state, "1") == ("a", "b")
    state, formed = fight.form_team(state, "t1", [("b", "Драчун"), ("a", "Драчун")])
    assert formed.leader == "a"
    assert units(state, "1") == ("t1",) and free_fighters(state, "1") == ()
    assert members(state, "t1") == ("a", "b") and members(state, "o") == ("o",)


def test_an_out_fighter_is_no_unit() -> None:
    state = fight.open_round(_state(), "b", "o")
    state = fight.declare(state, "b", "Драчун")
    state = fight.declare(state, "o", "Драчун")
    state, _ = fight.roll_for(state, "b", ScriptedSource([1, 1]))
    state, outcome = fight.roll_for(state, "o", ScriptedSource([6, 6, 6, 6]))
    assert outcome.resolution is not None and not outcome.resolution.finished
    state = fight.open_round(state, "o", "b")
    state = fight.declare(state, "b", "Драчун")
    state = fight.declare(state, "o", "Драчун")
    state, _ = fight.roll_for(state, "o", ScriptedSource([6, 6, 6, 6]))
    state, _ = fight.roll_for(state, "b", ScriptedSource([1]))
    assert state.fighter("b").out
    assert units(state, "1") == ("a",)


def test_declared_pool_counts_pump_and_penalty() -> None:
    state = fight.open_round(_state(), "a", "o")
    with pytest.raises(RuleViolation):
        fight.declared_pool(state, "a")
    assert fight.declaration_of(state, "a") is None
    state = fight.declare(state, "a", "Драчун", pump=2)
    assert fight.declared_pool(state, "a").size == 5
    declared = fight.declaration_of(state, "a")
    assert declared is not None and declared.pump == 2
