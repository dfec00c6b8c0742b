"""Magic: lead and supporting schools, tools, cost paid in magical stress."""

from __future__ import annotations

import pytest

from engine.dice.source import ScriptedSource
from engine.errors import RuleViolation
from engine.systems.fate import (
    Action,
    Artifact,
    ArtifactKind,
    Outcome,
    Skill,
    StressMarks,
    TrackKind,
    absorb,
    cast_spell,
    is_mage,
    spell_modifier,
    stress_track,
)
from tests.engine.fate.factories import with_skills

ZERO = (3, 3, 3, 3)


@pytest.mark.parametrize(
    ("lead", "supporting", "modifier"),
    [(3, [], 0), (3, [4], 1), (3, [1], -1), (3, [4, 5, 1], 1), (2, [2], 0)],
)
def test_spell_modifier(lead: int, supporting: list[int], modifier: int) -> None:
    # seed: «За каждый ведомый навык уровень которого выше ведущего добавьте +1 к броску. Для
    # каждого навыка ниже ведущего - отнимите от броска единицу (-1).»
    assert spell_modifier(lead, supporting) == modifier


def test_is_mage() -> None:
    assert is_mage(with_skills(light=1))
    assert not is_mage(with_skills(fight=4))


def test_cast_spell_rolls_lead_with_modifiers_and_tool() -> None:
    char = with_skills(fire=3, air=4, earth=1).model_copy(
        update={"artifacts": (Artifact(kind=ArtifactKind.TOOL, school=Skill.FIRE, level=2),)}
    )
    out = cast_spell(
        ScriptedSource(ZERO),
        char,
        lead=Skill.FIRE,
        supporting=[Skill.AIR, Skill.EARTH],
        difficulty=4,
        cost=2,
    )
    assert (out.schools_modifier, out.tool_bonus) == (0, 2)
    assert (out.check.total, out.check.outcome) == (5, Outcome.SUCCESS)
    assert out.notation == "4dF+5"
    assert out.faces == ZERO
    # paying the cost marks magical stress
    option = next(o for o in out.cost_options if o.box == 2 and not o.slots)
    paid, _ = absorb(char, 2, TrackKind.MAGICAL, option)
    assert stress_track(paid, TrackKind.MAGICAL).render() == "0x0"


def test_attack_spell() -> None:
    out = cast_spell(
        ScriptedSource(ZERO),
        with_skills(fire=2),
        lead=Skill.FIRE,
        difficulty=2,
        cost=1,
        action=Action.ATTACK,
    )
    assert out.check.action is Action.ATTACK and out.check.outcome is Outcome.TIE


def test_cost_never_offers_taken_out_and_unpayable_is_refused() -> None:
    char = with_skills(fire=1).model_copy(update={"stress": StressMarks(magical=(1, 2))})
    out = cast_spell(ScriptedSource(ZERO), char, lead=Skill.FIRE, difficulty=1, cost=1)
    assert all(not o.taken_out for o in out.cost_options)
    assert all(o.slots for o in out.cost_options)  # only consequences are left
    with pytest.raises(RuleViolation):
        cast_spell(ScriptedSource(ZERO), char, lead=Skill.FIRE, difficulty=1, cost=30)


def test_school_checks() -> None:
    char = with_skills(fire=1)
    with pytest.raises(RuleViolation):
        cast_spell(ScriptedSource(ZERO), char, lead=Skill.FIGHT, difficulty=1, cost=1)
    with pytest.raises(RuleViolation):
        cast_spell(
            ScriptedSource(ZERO),
            char,
            lead=Skill.FIRE,
            supporting=[Skill.FIRE],
            difficulty=1,
            cost=1,
        )
