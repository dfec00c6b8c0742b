"""Gear, artifacts and alchemy: costs, caps, budgets, and using prepared items."""

from __future__ import annotations

import pytest

from engine.errors import EngineError, RuleViolation
from engine.systems.fate import (
    AlchemyItem,
    AlchemyKind,
    Artifact,
    ArtifactKind,
    Consequence,
    Equipment,
    GearItem,
    Nature,
    Skill,
    SlotId,
    StressMarks,
    TrackKind,
    accumulator_cost,
    alchemy_cost,
    converter_cost,
    gear_cost,
    gear_violations,
    lose_gear,
    medicine_bonus,
    tool_bonus,
    tool_cost,
    use_converter,
    use_item,
    use_medicine,
    use_restorative,
)
from tests.engine.fate.factories import sample


@pytest.mark.parametrize(
    ("equipment", "cost"),
    [
        (Equipment(), 0),
        (Equipment(melee=3), 3),
        (Equipment(ranged=2), 2),
        (Equipment(armor=1), 2),
        (Equipment(melee=1, ranged=1, armor=3), 8),
    ],
)
def test_gear_cost(equipment: Equipment, cost: int) -> None:
    assert gear_cost(equipment) == cost


@pytest.mark.parametrize(
    ("equipment", "keys"),
    [
        (Equipment(melee=3, ranged=1, armor=1), []),  # 3 + 1 + 2 = 6 = sample's points
        (Equipment(melee=3, ranged=2, armor=1), ["fate.gear.over_points"]),
        (Equipment(ranged=3), ["fate.gear.ranged_cap"]),
        (Equipment(armor=4), ["fate.gear.armor_cap", "fate.gear.over_points"]),
    ],
)
def test_gear_budget_and_caps(equipment: Equipment, keys: list[str]) -> None:
    assert [v.msg.key for v in gear_violations(sample(equipment=equipment))] == keys


@pytest.mark.parametrize(("boxes", "cost"), [(1, 1), (5, 5), (6, 7), (8, 11)])
def test_accumulator_cost(boxes: int, cost: int) -> None:
    # seed: 1 point per box up to the fifth, 2 per box after
    assert accumulator_cost(boxes) == cost


@pytest.mark.parametrize(
    ("difficulty", "cost"), [(1, 1), (2, 1), (3, 2), (10, 5), (11, 6), (13, 8)]
)
def test_converter_cost(difficulty: int, cost: int) -> None:
    assert converter_cost(difficulty) == cost


@pytest.mark.parametrize(("level", "cost"), [(1, 1), (2, 3), (3, 6)])
def test_tool_cost(level: int, cost: int) -> None:
    assert tool_cost(level) == cost


@pytest.mark.parametrize(
    ("item", "cost"),
    [
        (AlchemyItem(kind=AlchemyKind.MEDICINE, points=3, nature=Nature.PHYSICAL), 3),
        (AlchemyItem(kind=AlchemyKind.STIMULANT, level=2), 2),
        (AlchemyItem(kind=AlchemyKind.ELIXIR, stunt="Кошачье зрение"), 2),
        (AlchemyItem(kind=AlchemyKind.COMPOUND, damage=3), 2),
        (AlchemyItem(kind=AlchemyKind.COMPOUND, damage=4, aspects=1, aspect_strength=1), 4),
    ],
)
def test_alchemy_cost(item: AlchemyItem, cost: int) -> None:
    assert alchemy_cost(item) == cost


def test_medicine_bonus() -> None:
    item = AlchemyItem(kind=AlchemyKind.MEDICINE, points=3, nature=Nature.PHYSICAL)
    assert medicine_bonus(item) == 4


def test_artifact_and_alchemy_budgets() -> None:
    # sample: Артефакторика +2, Алхимия +2
    ok = sample(
        artifacts=(
            Artifact(kind=ArtifactKind.TOOL, school=Skill.FIRE, level=1),
            Artifact(kind=ArtifactKind.ACCUMULATOR, boxes=1),
        ),
        alchemy=(AlchemyItem(kind=AlchemyKind.ELIXIR, stunt="x"),),
    )
    assert gear_violations(ok) == []
    bad = sample(
        artifacts=(Artifact(kind=ArtifactKind.TOOL, school=Skill.FIGHT, level=2),),
        alchemy=(AlchemyItem(kind=AlchemyKind.MEDICINE, points=3),),
    )
    assert [v.msg.key for v in gear_violations(bad)] == [
        "fate.artifacts.bad",
        "fate.artifacts.over_points",
        "fate.alchemy.bad",
        "fate.alchemy.over_points",
    ]


def test_tool_bonus_best_for_school() -> None:
    char = sample(
        artifacts=(
            Artifact(kind=ArtifactKind.TOOL, school=Skill.FIRE, level=1),
            Artifact(kind=ArtifactKind.TOOL, school=Skill.FIRE, level=2),
        )
    )
    assert (tool_bonus(char, Skill.FIRE), tool_bonus(char, Skill.AIR)) == (2, 0)


def test_losing_gear_refunds_points() -> None:
    char, changes = lose_gear(sample(), GearItem.ARMOR)
    assert char.equipment.armor == 0
    assert [(c.field, c.before, c.after) for c in changes] == [("equipment.armor", 2, 0)]


def test_stimulant_clears_highest_fitting_box() -> None:
    char = sample(
        stress=StressMarks(physical=(1, 3)),
        alchemy=(AlchemyItem(kind=AlchemyKind.STIMULANT, level=2),),
    )
    new, use = use_restorative(char, 0)
    assert (new.stress.physical, use.box, new.alchemy[0].used) == ((3,), 1, True)
    with pytest.raises(RuleViolation):
        use_restorative(new, 0)  # used up


def test_restorative_needs_a_fitting_box() -> None:
    char = sample(
        stress=StressMarks(mental=(3,)),
        alchemy=(AlchemyItem(kind=AlchemyKind.RELAXANT, level=2),),
    )
    with pytest.raises(RuleViolation):
        use_restorative(char, 0)
    with pytest.raises(RuleViolation):
        use_restorative(char, 0, track=TrackKind.PHYSICAL)
    with pytest.raises(EngineError):
        use_restorative(char, 5)


def test_energiser_on_accumulator() -> None:
    char = sample(
        artifacts=(Artifact(kind=ArtifactKind.ACCUMULATOR, boxes=2),),
        stress=StressMarks(accumulator=(2,)),
        alchemy=(AlchemyItem(kind=AlchemyKind.ENERGISER, level=2),),
    )
    new, use = use_restorative(char, 0, track=TrackKind.ACCUMULATOR)
    assert (new.stress.accumulator, use.track) == ((), TrackKind.ACCUMULATOR)


def test_medicine_clears_mild_and_lowers_others() -> None:
    med = AlchemyItem(kind=AlchemyKind.MEDICINE, points=2, nature=Nature.PHYSICAL)
    char = sample(
        consequences=(
            Consequence(slot=SlotId.MILD, text="Синяк"),
            Consequence(slot=SlotId.SEVERE, text="Перелом"),
        ),
        alchemy=(med, med),
    )
    char, use = use_medicine(char, 0, SlotId.MILD)
    assert (use.consequence_to, use.bonus) == (None, 2)
    assert [c.slot for c in char.consequences] == [SlotId.SEVERE]
    char, use = use_medicine(char, 1, SlotId.SEVERE)
    assert [(c.slot, c.text) for c in char.consequences] == [(SlotId.MODERATE, "Перелом")]


def test_medicine_refusals() -> None:
    mental = AlchemyItem(kind=AlchemyKind.MEDICINE, points=1, nature=Nature.MENTAL)
    char = sample(
        consequences=(
            Consequence(slot=SlotId.MILD, text="a"),
            Consequence(slot=SlotId.MODERATE, text="b", nature=Nature.MENTAL),
        ),
        alchemy=(mental, AlchemyItem(kind=AlchemyKind.ELIXIR, stunt="x")),
    )
    with pytest.raises(RuleViolation):
        use_medicine(char, 0, SlotId.MILD)  # physical consequence, mental medicine
    with pytest.raises(RuleViolation):
        use_medicine(char, 0, SlotId.MODERATE)  # the mild slot is taken
    with pytest.raises(RuleViolation):
        use_medicine(char, 0, SlotId.SEVERE)  # nothing there
    with pytest.raises(RuleViolation):
        use_medicine(char, 1, SlotId.MILD)  # not a medicine


def test_elixir_and_converter_are_spent() -> None:
    char = sample(
        alchemy=(AlchemyItem(kind=AlchemyKind.ELIXIR, stunt="x"),),
        artifacts=(Artifact(kind=ArtifactKind.CONVERTER, difficulty=4),),
    )
    char, use = use_item(char, 0)
    assert use.kind is AlchemyKind.ELIXIR and char.alchemy[0].used
    char, art = use_converter(char, 0)
    assert art.used
    with pytest.raises(RuleViolation):
        use_converter(char, 0)
