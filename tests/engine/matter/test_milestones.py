"""Milestones (scene end, rest), message registration and the engine's purity."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from engine.common import Change
from engine.systems.matter import (
    STATES,
    ActiveState,
    Character,
    DurationKind,
    MilestoneKind,
    StateId,
    apply_milestone,
    new_character,
)
from engine.text import has_message, msg

PACKAGE = Path(__file__).parents[3] / "engine" / "systems" / "matter"


def with_states(*states: StateId, **update: object) -> Character:
    ch = new_character("Вера").model_copy(update={"anger": 2, **update})
    return ch.model_copy(update={"states": tuple(ActiveState(state=s) for s in states)})


def test_scene_end_expires_scene_bound_states_only() -> None:
    every = with_states(*StateId)
    after, changes = apply_milestone(every, MilestoneKind.SCENE_END)
    kept = [s.state for s in after.states]
    assert kept == [s for s in StateId if STATES[s].duration is DurationKind.UNTIL_CURED]
    assert kept == [
        StateId.POISON,
        StateId.CRIPPLED,
        StateId.FURY,
        StateId.SADNESS,
        StateId.MINI,
        StateId.FROG,
        StateId.BLINDED,
        StateId.PETRIFIED,
        StateId.STOP,
    ]
    expected: list[str] = []
    for state in (s for s in StateId if s not in kept):
        expected.append(f"states.{state}")
        if state is StateId.BERSERK:
            expected.append("anger")  # leaving Берсерк costs a dot of current Гнев
    assert [c.field for c in changes] == expected


def test_scene_end_change_list_is_exact() -> None:
    ch = with_states(StateId.KO, StateId.BERSERK, StateId.POISON, health=0)
    after, changes = apply_milestone(ch, MilestoneKind.SCENE_END)
    assert changes == [
        Change("states.ko", msg("matter.state.ko"), True, False),
        Change("states.berserk", msg("matter.state.berserk"), True, False),
        Change("anger", msg("matter.trait.anger"), 2, 1),
    ]
    assert [s.state for s in after.states] == [StateId.POISON]
    assert after.anger == 1


def test_rest_removes_fury_and_sadness() -> None:
    ch = with_states(StateId.FURY, StateId.SADNESS, StateId.POISON)
    after, changes = apply_milestone(ch, MilestoneKind.REST)
    assert [s.state for s in after.states] == [StateId.POISON]
    assert [c.field for c in changes] == ["states.fury", "states.sadness"]


def test_nothing_to_change() -> None:
    ch = new_character("x")
    assert apply_milestone(ch, MilestoneKind.SCENE_END) == (ch, [])


def test_every_message_key_used_is_registered() -> None:
    keys: set[str] = set()
    for path in PACKAGE.glob("*.py"):
        keys.update(re.findall(r'msg\(\s*"(matter\.[a-z_.]+)"', path.read_text("utf-8")))
    assert keys
    assert [k for k in sorted(keys) if not has_message(k)] == []
    for state in StateId:
        assert has_message(f"matter.state.{state}")


FORBIDDEN = {"aiogram", "sqlalchemy", "sqlmodel", "apscheduler", "asyncpg", "aiohttp", "random"}


def test_package_is_pure() -> None:
    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                roots = {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                roots = {(node.module or "").split(".")[0]}
            else:
                roots = set()
            assert not roots & FORBIDDEN, (path.name, roots)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id != "print", path.name
