"""Property tests: random state soups and random scenes keep the engine's invariants."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice.source import RandomSource, SeededSource
from engine.systems.matter import (
    Character,
    ConditionId,
    Remedy,
    Scene,
    StateId,
    advance_turn,
    apply_damage,
    apply_state,
    cure,
    new_character,
    start_scene,
    tick,
)


class CountingSource:
    """Records every face drawn, to check that reports show every die."""

    def __init__(self, inner: RandomSource) -> None:
        self.inner = inner
        self.drawn: list[int] = []

    def randint(self, low: int, high: int) -> int:
        face = self.inner.randint(low, high)
        self.drawn.append(face)
        return face


def fighter(name: str) -> Character:
    return new_character(name).model_copy(
        update={
            "skills": {"brutality": 2, "tenacity": 2, "cunning": 1, "dexterity": 1,
                       "communication": 1, "intellect": 1, "investigation": 1,
                       "intimidation": 1},
            "health": 4,
            "health_max": 4,
            "defence": 2,
            "anger": 1,
        }
    )  # fmt: skip


def check_invariants(ch: Character) -> None:
    ids = [s.state for s in ch.states]
    assert len(ids) == len(set(ids))
    assert not {StateId.KO, StateId.CRIPPLED} <= set(ids)
    assert not {StateId.PETRIFICATION, StateId.PETRIFIED} <= set(ids)
    assert all(s.age >= 1 for s in ch.states)
    assert all(s.turns_left is None or s.turns_left >= 1 for s in ch.states)
    assert ch.anger >= 0
    assert Character.model_validate(ch.model_dump(mode="json")) == ch


operation = st.one_of(
    st.tuples(st.just("apply"), st.sampled_from(list(StateId)), st.booleans()),
    st.tuples(st.just("tick"), st.none(), st.none()),
    st.tuples(st.just("damage"), st.integers(1, 3), st.none()),
    st.tuples(st.just("cure"), st.sampled_from(list(Remedy)), st.none()),
)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**6), ops=st.lists(operation, max_size=25))
def test_state_soup_keeps_invariants(seed: int, ops: list[tuple[str, object, object]]) -> None:
    source = SeededSource(seed)
    ch = fighter("x")
    for name, arg, flag in ops:
        if name == "apply":
            assert isinstance(arg, StateId) and isinstance(flag, bool)
            ch, _ = apply_state(ch, arg, source, resist=flag)
        elif name == "tick":
            ch, _ = tick(ch, source)
        elif name == "damage":
            assert isinstance(arg, int)
            ch, _ = apply_damage(ch, arg, source)
        else:
            assert isinstance(arg, Remedy)
            ch, _ = cure(ch, arg)
        check_invariants(ch)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    conditions=st.lists(st.sampled_from(list(ConditionId)), max_size=4),
)
def test_random_scene_reports_every_die(seed: int, conditions: list[ConditionId]) -> None:
    source = CountingSource(SeededSource(seed))
    scene = start_scene(conditions)
    chars = {"a": fighter("a"), "b": fighter("b")}
    reported: list[int] = []
    for round_no in range(1, 9):
        scene, chars, rep = advance_turn(scene, chars, source)
        assert rep.round == scene.round == round_no
        reported.extend(f for e in rep.rolls if e.roll is not None for f in e.roll.faces)
        for ch in chars.values():
            check_invariants(ch)
        assert Scene.model_validate(scene.model_dump(mode="json")) == scene
    assert reported == source.drawn
