"""Creation one press at a time: skill dots within the cap and budget, Matter abilities."""

from __future__ import annotations

from engine.systems.matter import MatterAbility, MatterKind, MatterOptions, new_character
from engine.systems.matter.creation import (
    MAX_ABILITIES,
    ability_refusal,
    add_ability,
    derived,
    dots_left,
    press_dot,
    remove_ability,
    resistances,
    resisted_by,
    skill_ids,
    starting_sheet,
)


def test_skill_ids_list_standard_then_the_gms_then_strays() -> None:
    options = MatterOptions(custom_skills=("sailing", "brutality"))
    sheet = new_character("Vera").model_copy(update={"skills": {"zz": 1, "brutality": 2}})
    ids = skill_ids(sheet, options)
    assert ids[0] == "brutality" and ids.count("brutality") == 1
    assert ids[-2:] == ["sailing", "zz"]
    started = starting_sheet(sheet, options)
    assert started.skills["sailing"] == 0 and started.skills["brutality"] == 2
    assert starting_sheet(None, options).name == ""


def test_a_dot_within_the_cap_and_budget_is_taken() -> None:
    sheet = press_dot(new_character("Vera"), MatterOptions(), "brutality", +1)
    assert not isinstance(sheet, list) and sheet is not None
    assert sheet.dots("brutality") == 1
    back = press_dot(sheet, MatterOptions(), "brutality", -1)
    assert not isinstance(back, list) and back is not None and back.dots("brutality") == 0


def test_below_zero_changes_nothing() -> None:
    assert press_dot(new_character("Vera"), MatterOptions(), "brutality", -1) is None


def test_over_the_cap_and_over_the_budget_are_the_engines_refusals() -> None:
    options = MatterOptions(dot_budget=4, dot_cap=3)
    sheet = new_character("Vera").model_copy(update={"skills": {"brutality": 3}})
    refused = press_dot(sheet, options, "brutality", +1)
    assert isinstance(refused, list) and [v.field for v in refused] == ["skills.brutality"]
    full = sheet.model_copy(update={"skills": {"brutality": 3, "tenacity": 1}})
    refused = press_dot(full, options, "cunning", +1)
    assert isinstance(refused, list) and [v.field for v in refused] == ["skills"]
    lowered = press_dot(full, MatterOptions(dot_cap=2), "brutality", -1)  # − is always taken
    assert not isinstance(lowered, list) and lowered is not None


def test_resistance_skills_come_from_the_state_table() -> None:
    assert resisted_by("tenacity") and not resisted_by("no-such-skill")
    assert all(d.resist_trait == "tenacity" for d in resisted_by("tenacity"))


def test_abilities_up_to_the_most_and_removal_of_an_existing_one() -> None:
    sheet = new_character("Vera")
    fire = MatterAbility(name="Fire", kind=MatterKind.MAGICAL)
    for _ in range(MAX_ABILITIES):
        added = add_ability(sheet, fire)
        assert added is not None
        sheet = added
    assert add_ability(sheet, fire) is None
    (full,) = ability_refusal(sheet)
    assert full.render("ru").startswith("Больше способностей здесь не добавить (предел: 6)")
    assert not ability_refusal(new_character("Vera"))
    fewer = remove_ability(sheet, 0)
    assert fewer is not None and len(fewer.matter) == MAX_ABILITIES - 1
    assert remove_ability(sheet, MAX_ABILITIES) is None and remove_ability(sheet, -1) is None


def test_what_creation_shows_is_derived_from_the_sheet() -> None:
    options = MatterOptions(custom_skills=("sailing",))
    sheet = new_character("Vera").model_copy(
        update={"skills": {"tenacity": 3, "brutality": -1, "sailing": 2}}
    )
    assert dots_left(sheet, options) == options.dot_budget - 5  # a negative skill gives none back
    values = dict(derived(sheet))
    assert values["health"] == "5/5" and values["defence"] == "1"
    assert list(values)[:3] == ["health", "willpower", "anger"]
    found = {r.skill: r for r in resistances(sheet, options)}
    assert found["tenacity"].dice == 3 and found["tenacity"].states == tuple(
        resisted_by("tenacity")
    )
    assert "sailing" not in found  # a skill that resists nothing is not listed
    assert all(r.states for r in found.values())


def test_a_refused_press_is_said_as_the_press() -> None:
    options = MatterOptions(dot_budget=4, dot_cap=3)
    at_cap = new_character("Vera").model_copy(update={"skills": {"brutality": 3}})
    refused = press_dot(at_cap, options, "brutality", +1)
    assert isinstance(refused, list)
    assert [(v.msg.key, v.msg.params["cap"]) for v in refused] == [("matter.press.at_cap", 3)]
    full = at_cap.model_copy(update={"skills": {"brutality": 3, "tenacity": 1}})
    refused = press_dot(full, options, "brutality", +1)  # at the cap and out of dots: the cap
    assert isinstance(refused, list) and [v.msg.key for v in refused] == ["matter.press.at_cap"]
    refused = press_dot(full, options, "cunning", +1)  # out of dots: the sheet's own words
    assert isinstance(refused, list)
    assert [v.msg.key for v in refused] == ["matter.sheet.over_budget"]
