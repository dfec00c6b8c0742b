"""Every stored state survives a JSON round trip exactly, mid-action and finished."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from engine.dice.source import ScriptedSource, SeededSource
from engine.systems.storyteller import (
    ActionStatus,
    ExtendedAction,
    MultipleAction,
    OpposedAction,
    OpposedExtendedAction,
    PlannedAction,
    SimpleAction,
    TeamworkAction,
    roll_extended,
    roll_multiple,
    roll_opposed,
    roll_opposed_extended,
    roll_simple,
    roll_teamwork,
    start_extended,
    start_multiple,
    start_opposed,
    start_opposed_extended,
    start_simple,
    start_teamwork,
)


def _round_trip(state: BaseModel) -> None:
    dumped: dict[str, Any] = state.model_dump(mode="json")
    restored = type(state).model_validate(dumped)
    assert restored == state
    assert restored.model_dump(mode="json") == dumped


def _states() -> list[BaseModel]:
    simple, _ = roll_simple(start_simple(), 3, ScriptedSource([1, 2, 9]), willpower=True)
    multiple = start_multiple([PlannedAction("a", 4), PlannedAction("b", 6, 7)], [2, 2])
    multiple_half, _ = roll_multiple(multiple, 1, ScriptedSource([7, 1]))
    extended, _ = roll_extended(start_extended(7, turn_limit=3), 4, ScriptedSource([6, 6, 1, 2]))
    opposed, _ = roll_opposed(start_opposed(("x", "y"), (5, 6)), 0, 2, ScriptedSource([5, 5]))
    race = start_opposed_extended(("x", "y"), 3)
    race, _ = roll_opposed_extended(race, 0, 2, ScriptedSource([9, 9]))
    race_turn, _ = roll_opposed_extended(race, 1, 2, ScriptedSource([2, 2]))
    team = start_teamwork(["a", "b"], target=5, max_members=3)
    team, _ = roll_teamwork(team, 0, 2, ScriptedSource([8, 8]))
    return [simple, multiple, multiple_half, extended, opposed, race, race_turn, team]


@pytest.mark.parametrize("state", _states(), ids=lambda s: type(s).__name__)
def test_states_round_trip(state: BaseModel) -> None:
    _round_trip(state)


def test_state_classes_are_the_public_ones() -> None:
    kinds = {type(s) for s in _states()}
    assert kinds == {
        SimpleAction,
        MultipleAction,
        ExtendedAction,
        OpposedAction,
        OpposedExtendedAction,
        TeamworkAction,
    }


@settings(max_examples=60, deadline=None)
@given(
    st.integers(3, 20),
    st.integers(2, 10),
    st.lists(st.integers(0, 8), min_size=1, max_size=12),
    st.integers(0, 2**32),
)
def test_extended_tally_property(
    target: int, difficulty: int, pools: list[int], seed: int
) -> None:
    """The tally is the sum of net successes since the last botch, and stops at the target."""
    state = start_extended(target, difficulty=difficulty)
    source = SeededSource(seed)
    expected = 0
    for dice in pools:
        if state.status is not ActionStatus.ACTIVE:
            break
        state, step = roll_extended(state, dice, source)
        expected = 0 if step.roll.botch else expected + step.roll.achieved
        assert state.accumulated == expected
        assert (state.status is ActionStatus.SUCCEEDED) == (expected >= target)
    _round_trip(state)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 8), st.integers(0, 8)), min_size=1, max_size=15),
    st.integers(0, 2**32),
)
def test_opposed_extended_property(turns: list[tuple[int, int]], seed: int) -> None:
    """Only one side gains per turn, by the margin; a winner has reached the target."""
    state = start_opposed_extended(("a", "b"), 5)
    source = SeededSource(seed)
    for first, second in turns:
        if state.status is not ActionStatus.ACTIVE:
            break
        before = state.tallies
        state, _ = roll_opposed_extended(state, 1, second, source)
        state, step = roll_opposed_extended(state, 0, first, source)
        turn = step.turn
        assert turn is not None
        for side in (0, 1):
            base = 0 if turn.wiped[side] else before[side]
            gain = turn.excess if turn.winner == side else 0
            assert state.tallies[side] == base + gain
    if state.winner is not None:
        assert state.tallies[state.winner] >= 5
    _round_trip(state)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=1, max_size=6), st.integers(0, 2**32))
def test_simple_teamwork_sums_property(pools: list[int], seed: int) -> None:
    state = start_teamwork([f"m{i}" for i in range(len(pools))])
    source = SeededSource(seed)
    nets = []
    for index, dice in enumerate(pools):
        state, step = roll_teamwork(state, index, dice, source)
        nets.append(step.roll.net)
    assert state.total == sum(max(0, n) for n in nets)
    assert state.status is not ActionStatus.ACTIVE
