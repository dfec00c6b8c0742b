"""Sheet, options, creation validation and JSON round-trips."""

from __future__ import annotations

import pytest

from engine.common import Severity, errors_only
from engine.systems.matter import (
    SCHEMA_VERSION,
    SYSTEM_ID,
    ActiveState,
    Character,
    Element,
    Item,
    MatterAbility,
    MatterKind,
    MatterOptions,
    Scene,
    Skill,
    StateId,
    new_character,
    validate_character,
)
from engine.systems.matter.scene import Footing
from engine.systems.matter.traits import Trait, trait_message_key
from engine.text import msg


def _legal(**skills: int) -> Character:
    base = {s.value: 0 for s in Skill}
    base.update({"brutality": 3, "tenacity": 3, "cunning": 3, "dexterity": 3})
    base.update(skills)
    return new_character("Ирма").model_copy(update={"skills": base})


def test_contract_constants() -> None:
    assert SYSTEM_ID == "matter"
    assert SCHEMA_VERSION == 1
    assert MatterOptions().dot_budget == 12
    assert MatterOptions().dot_cap == 3


def test_new_character_is_an_empty_draft() -> None:
    draft = new_character("Ирма")
    assert draft.name == "Ирма"
    assert draft.skills == {s.value: 0 for s in Skill}
    assert draft.states == ()
    # an empty draft has its 12 dots still to spend: a warning, not an error
    found = validate_character(draft, MatterOptions())
    assert [(v.field, v.msg.key, v.severity) for v in found] == [
        ("skills", "matter.sheet.under_budget", Severity.WARNING)
    ]


def test_legal_sheet_has_no_violations() -> None:
    assert validate_character(_legal(), MatterOptions()) == []


def test_all_violations_at_once() -> None:
    bad = _legal(brutality=5, intellect=-1, juggling=1).model_copy(
        update={"name": " ", "health": 7, "anger_max": -1, "defence": -2}
    )
    found = validate_character(bad, MatterOptions())
    assert sorted((v.field, v.msg.key) for v in errors_only(found)) == sorted(
        [
            ("name", "matter.sheet.name_empty"),
            ("skills.brutality", "matter.sheet.over_cap"),
            ("skills.intellect", "matter.sheet.negative"),
            ("skills.juggling", "matter.sheet.unknown_skill"),
            ("skills", "matter.sheet.over_budget"),
            ("health", "matter.sheet.current_over_max"),
            ("anger_max", "matter.sheet.max_too_low"),
            ("anger", "matter.sheet.current_over_max"),
            ("defence", "matter.sheet.negative"),
        ]
    )


@pytest.mark.parametrize(
    ("budget", "cap", "errors"),
    [
        (12, 3, []),
        (11, 3, ["matter.sheet.over_budget"]),
        (12, 2, ["matter.sheet.over_cap"] * 4),
        (20, 4, []),
    ],
)
def test_gm_budget_and_cap(budget: int, cap: int, errors: list[str]) -> None:
    found = errors_only(
        validate_character(_legal(), MatterOptions(dot_budget=budget, dot_cap=cap))
    )
    assert [v.msg.key for v in found] == errors


def test_custom_skill_allowed_by_options() -> None:
    sheet = _legal(tenacity=2, sailing=1)
    options = MatterOptions(custom_skills=("sailing",))
    assert validate_character(sheet, options) == []
    assert sheet.dots("sailing") == 1
    assert sheet.dots("missing") == 0


def test_character_round_trip() -> None:
    sheet = _legal().model_copy(
        update={
            "matter": (MatterAbility(name="Огненный шар", kind=MatterKind.MAGICAL, dots=2),),
            "immune_states": (StateId.POISON,),
            "immune_instant_death": True,
            "protections": (Element.FIRE,),
            "items": (Item(name="Противоядие", count=2),),
            "states": (
                ActiveState(state=StateId.SPEEDUP, age=2, turns_left=1),
                ActiveState(state=StateId.DECELERATION, origin="deluge", counter=1),
            ),
        }
    )
    data = sheet.model_dump(mode="json")
    back = Character.model_validate(data)
    assert back == sheet
    assert back.model_dump(mode="json") == data


def test_scene_and_options_round_trip() -> None:
    scene = Scene(
        round=3,
        conditions=(),
        out_of_water=("b",),
        footing=(Footing(condition="slippery", character_id="a"),),  # type: ignore[arg-type]
    )
    assert Scene.model_validate(scene.model_dump(mode="json")) == scene
    options = MatterOptions(dot_budget=15, dot_cap=4, custom_skills=("sailing",))
    assert MatterOptions.model_validate(options.model_dump(mode="json")) == options


def test_sheet_is_frozen_and_strict() -> None:
    sheet = new_character("x")
    with pytest.raises(ValueError):
        sheet.health = 3
    with pytest.raises(ValueError):
        Character.model_validate({"name": "x", "mana": 3})


def test_a_gauges_maximum_is_named_as_the_gauge() -> None:
    """«Макс. сила воли» beside «Макс. Здоровье» and «Макс. Гнев»: each maximum reads «Макс.»
    and the gauge's own name (the seed's «макс. Силе Воли», the glossary's «Сила воли»)."""
    for gauge in (Trait.HEALTH, Trait.WILLPOWER, Trait.ANGER):
        name = msg(trait_message_key(gauge)).render("ru")
        assert msg(trait_message_key(f"{gauge}_max")).render("ru") == f"Макс. {name}"
    assert msg(trait_message_key(Trait.WILLPOWER_MAX)).render("ru") == "Макс. Сила воли"
