"""Rests and milestones: what each clears or restores, as change lists."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import RuleViolation
from engine.systems.fate import (
    AlchemyItem,
    AlchemyKind,
    Artifact,
    ArtifactKind,
    Character,
    Consequence,
    Equipment,
    MilestoneKind,
    SlotId,
    StressMarks,
    apply_milestone,
    rewrite_aspect,
)
from tests.engine.fate.factories import sample

REST, MINOR, SIG, MAJOR = (
    MilestoneKind.REST_STOP,
    MilestoneKind.MINOR,
    MilestoneKind.SIGNIFICANT,
    MilestoneKind.MAJOR,
)


def _hurt() -> Character:
    return sample(
        fate_points=1,
        stress=StressMarks(physical=(2,), magical=(1,)),
        consequences=(
            Consequence(slot=SlotId.MILD, text="Синяк"),
            Consequence(slot=SlotId.MODERATE, text="Рана", treated=True),
            Consequence(slot=SlotId.SEVERE, text="Перелом", treated=True),
            Consequence(slot=SlotId.EXTREME, text="Без глаза", treated=True, replaces_aspect=2),
        ),
        alchemy=(AlchemyItem(kind=AlchemyKind.ELIXIR, stunt="x", used=True),),
        artifacts=(Artifact(kind=ArtifactKind.CONVERTER, difficulty=2, used=True),),
    )


@pytest.mark.parametrize(
    ("kind", "left", "fp"),
    [
        (REST, [SlotId.MODERATE, SlotId.SEVERE, SlotId.EXTREME], 1),
        (MINOR, [SlotId.SEVERE, SlotId.EXTREME], 3),
        (SIG, [SlotId.EXTREME], 3),
        (MAJOR, [], 3),
    ],
)
def test_larger_milestone_includes_smaller(
    kind: MilestoneKind, left: list[SlotId], fp: int
) -> None:
    char, changes = apply_milestone(_hurt(), kind)
    assert char.stress == StressMarks()
    assert [c.slot for c in char.consequences] == left
    assert char.fate_points == fp
    replenished = kind in (SIG, MAJOR)
    assert char.alchemy[0].used is not replenished
    assert char.artifacts[0].used is not replenished
    fields = [c.field for c in changes]
    assert fields[:2] == ["stress.physical", "stress.magical"]
    assert ("fate_points" in fields) == (kind is not REST)


def test_rest_stop_change_list() -> None:
    _, changes = apply_milestone(_hurt(), REST)
    assert [(c.field, c.before, c.after) for c in changes] == [
        ("stress.physical", "0x0", "000"),
        ("stress.magical", "x000", "0000"),
        ("consequences.mild", "Синяк", None),
    ]
    assert changes[2].what.render("ru") == "Последствие снято: Синяк"


def test_untreated_consequences_stay() -> None:
    char = sample(consequences=(Consequence(slot=SlotId.MODERATE, text="Рана"),))
    new, _ = apply_milestone(char, MAJOR)
    assert new.consequences == char.consequences


def test_refresh_never_lowers_fate_points() -> None:
    new, changes = apply_milestone(sample(fate_points=5), MINOR)
    assert new.fate_points == 5 and changes == []


def test_no_ingredients_no_replenishment() -> None:
    new, _ = apply_milestone(_hurt(), SIG, ingredients=False)
    assert new.alchemy[0].used and new.artifacts[0].used


def test_gear_changes_at_a_milestone_only() -> None:
    new, changes = apply_milestone(
        sample(), MINOR, equipment=Equipment(melee=3, ranged=1, armor=1)
    )
    assert [(c.field, c.before, c.after) for c in changes] == [
        ("equipment.melee", 2, 3),
        ("equipment.ranged", 0, 1),
        ("equipment.armor", 2, 1),
    ]
    assert new.equipment.melee == 3
    with pytest.raises(RuleViolation):
        apply_milestone(sample(), REST, equipment=Equipment())
    with pytest.raises(RuleViolation):
        apply_milestone(sample(), MINOR, equipment=Equipment(melee=3, armor=2))  # 7 > 6 points


def test_keep_stress_partly() -> None:
    new, _ = apply_milestone(_hurt(), REST, keep_stress=StressMarks(physical=(2, 3)))
    assert new.stress.physical == (2,)  # box 3 was never marked


def test_rewrite_aspect_after_extreme_clears() -> None:
    char = _hurt()
    with pytest.raises(RuleViolation):
        rewrite_aspect(char, 2, "Одноглазый")
    healed, _ = apply_milestone(char, MAJOR)
    new, changes = rewrite_aspect(healed, 2, "Одноглазый")
    assert new.aspects[2].text == "Одноглазый"
    assert changes[0].after == "Одноглазый"


@settings(max_examples=60, deadline=None)
@given(
    fp=st.integers(0, 8),
    refresh=st.integers(0, 3),
    kinds=st.lists(st.sampled_from(list(MilestoneKind)), min_size=1, max_size=5),
)
def test_milestones_never_lower_fate_points(
    fp: int, refresh: int, kinds: list[MilestoneKind]
) -> None:
    char = sample(fate_points=fp, refresh=refresh)
    for kind in kinds:
        new, _ = apply_milestone(char, kind)
        assert new.fate_points >= char.fate_points
        assert new.fate_points >= (refresh if kind is not REST else 0)
        char = new


def test_accumulator_recharges_only_with_artifacts() -> None:
    char = sample(
        artifacts=(Artifact(kind=ArtifactKind.ACCUMULATOR, boxes=2),),
        stress=StressMarks(physical=(1,), accumulator=(1, 2)),
    )
    rested, _ = apply_milestone(char, MINOR)
    assert rested.stress == StressMarks(accumulator=(1, 2))
    recharged, changes = apply_milestone(char, SIG)
    assert recharged.stress == StressMarks()
    assert ("stress.accumulator", "xx", "00") in [(c.field, c.before, c.after) for c in changes]
