"""Creation validation against the SPEC's defaults and per-game overrides."""

from __future__ import annotations

import pytest

from engine.common import Severity, errors_only, without_required
from engine.errors import RuleViolation
from engine.systems.storyteller import (
    AbilityGroup,
    Attribute,
    AttributeGroup,
    Character,
    FreebieCosts,
    PoolTrait,
    StorytellerOptions,
    TraitKind,
    freebie_report,
    new_character,
    validate_character,
    with_ability,
    with_attribute,
    with_trait,
)

DEFAULTS = StorytellerOptions()


def fields(character: Character, options: StorytellerOptions = DEFAULTS) -> list[str]:
    return [v.field for v in validate_character(character, options)]


def test_defaults_are_the_spec_values() -> None:
    assert DEFAULTS.attribute_dots == (7, 5, 3)
    assert DEFAULTS.ability_dots == (13, 9, 5)
    assert DEFAULTS.ability_creation_max == 3
    assert (DEFAULTS.arts_dots, DEFAULTS.realms_dots, DEFAULTS.backgrounds_dots) == (3, 5, 5)
    assert DEFAULTS.freebies == 15
    assert DEFAULTS.freebie_costs == FreebieCosts(
        attribute=5, ability=2, art=5, realm=3, background=1, glamour=3, willpower=2
    )


def test_legal_character_has_no_violations(techlana: Character) -> None:
    assert validate_character(techlana, DEFAULTS) == []


def test_freebie_report_itemises_every_category(techlana: Character) -> None:
    report = freebie_report(techlana, DEFAULTS)
    costs = {c.category: (c.budget, c.spent, c.excess, c.cost) for c in report.categories}
    assert costs == {
        "physical": (7, 7, 0, 0),
        "social": (5, 5, 0, 0),
        "mental": (3, 3, 0, 0),
        "talents": (13, 13, 1, 2),
        "skills": (9, 9, 0, 0),
        "knowledges": (5, 5, 0, 0),
        "art": (3, 3, 1, 5),
        "realm": (5, 5, 0, 0),
        "background": (5, 5, 1, 1),
        "glamour": (0, 0, 1, 3),
        "willpower": (0, 0, 2, 4),
    }
    assert (report.spent, report.available, report.remaining) == (15, 15, 0)


def test_ranking_is_inferred_when_not_stored(techlana: Character) -> None:
    # Mental primary: 3 dots in a 7 budget, 7 in a 3 budget → 4 excess × 5.
    shuffled = techlana.model_copy(update={"attribute_priority": (), "ability_priority": ()})
    report = freebie_report(shuffled, DEFAULTS)
    assert report.attribute_priority == (
        AttributeGroup.PHYSICAL,
        AttributeGroup.SOCIAL,
        AttributeGroup.MENTAL,
    )
    assert report.ability_priority[0] is AbilityGroup.TALENTS
    assert validate_character(shuffled, DEFAULTS) == []


def test_stored_ranking_is_charged(techlana: Character) -> None:
    wrong = techlana.model_copy(
        update={
            "attribute_priority": (
                AttributeGroup.MENTAL,
                AttributeGroup.SOCIAL,
                AttributeGroup.PHYSICAL,
            )
        }
    )
    report = freebie_report(wrong, DEFAULTS)
    assert report.spent == 15 + 4 * 5
    found = validate_character(wrong, DEFAULTS)
    assert ("freebies", Severity.ERROR) in [(v.field, v.severity) for v in found]
    assert ("required.mental", Severity.ERROR) in [(v.field, v.severity) for v in found]
    too_many = next(v for v in found if v.field == "freebies")
    assert too_many.render("ru") == "Свободных очков потрачено: 35, а доступно: 15."


def test_ability_above_three_costs_freebies_even_within_budget() -> None:
    hero = with_ability(new_character("X"), "athletics", 5)
    report = freebie_report(hero, DEFAULTS)
    talents = next(c for c in report.categories if c.category == "talents")
    assert (talents.spent, talents.excess, talents.cost) == (3, 2, 4)


def test_all_violations_at_once(techlana: Character) -> None:
    broken = with_attribute(techlana, Attribute.STRENGTH, 0)
    broken = with_attribute(broken, Attribute.WITS, 6)
    broken = with_ability(broken, "brawl", 6)
    broken = with_trait(broken, TraitKind.REALM, "scene", -1)
    broken = broken.model_copy(
        update={
            "name": " ",
            "abilities": (*broken.abilities, broken.abilities[0]),
            "ability_priority": (AbilityGroup.TALENTS, AbilityGroup.TALENTS, AbilityGroup.SKILLS),
            "banality": PoolTrait(rating=2, pool=0),
            "glamour": PoolTrait(rating=3, pool=11),
            "experience": -1,
        }
    )
    errors = [v.field for v in errors_only(validate_character(broken, DEFAULTS))]
    for expected in [
        "name",
        "experience",
        "ability_priority",
        "attributes.strength",
        "attributes.wits",
        "abilities.brawl",
        "realms.scene",
        "abilities.alertness",  # listed twice
        "glamour.pool",
        "glamour.rating",  # below the approved starting 4
        "banality.rating",
        "freebies",
    ]:
        assert expected in errors, expected


def test_violation_messages_name_the_trait_in_each_language(techlana: Character) -> None:
    broken = with_attribute(techlana, Attribute.WITS, 6)
    wits = next(v for v in validate_character(broken, DEFAULTS) if v.field == "attributes.wits")
    assert wits.render("ru") == "Сообразительность: 6, а должно быть от 1 до 5."
    assert wits.render("en") == "Wits: 6, must be between 1 and 5."


def test_new_draft_owes_every_category_and_may_leave_freebies() -> None:
    draft = new_character("Ренч")
    found = validate_character(draft, DEFAULTS)
    assert [v.field for v in found if v.severity is Severity.WARNING] == ["freebies"]
    physical = next(v for v in errors_only(found) if v.field == "required.physical")
    assert physical.render("ru") == "Физические: осталось распределить 7 из 7."
    owed = {"physical", "social", "mental", "talents", "skills", "knowledges", "art", "realm"}
    assert {v.field for v in found} == {f"required.{c}" for c in owed | {"background"}} | {
        "freebies"
    }
    # a GM's NPC may leave them (a mook needs no dots): only the freebies note stays
    assert [v.field for v in without_required(found)] == ["freebies"]
    assert errors_only(validate_character(new_character(""), DEFAULTS))[0].field == "name"


def test_options_override_budgets(techlana: Character) -> None:
    generous = StorytellerOptions(freebies=21, attribute_dots=(8, 5, 3))
    found = validate_character(techlana, generous)
    assert [(v.field, v.severity) for v in found] == [
        ("required.physical", Severity.ERROR),  # a dot of the larger budget is still owed
        ("freebies", Severity.WARNING),
    ]
    strict = StorytellerOptions(ability_creation_max=2, freebie_costs=FreebieCosts(ability=1))
    report = freebie_report(techlana, strict)
    # talents capped at 2 each: 2+2+2+2+2 = 10 of 13; over the cap 1+2+0+0+1 = 4 → 4 × 1
    talents = next(c for c in report.categories if c.category == "talents")
    assert (talents.spent, talents.excess, talents.cost) == (10, 4, 4)


def test_house_abilities_need_a_group() -> None:
    hero = with_ability(new_character("X"), "kenning_of_stars", 2, group=AbilityGroup.KNOWLEDGES)
    assert hero.ability("kenning_of_stars") == 2
    assert freebie_report(hero, DEFAULTS).categories[5].spent == 2
    with pytest.raises(RuleViolation):
        with_ability(hero, "unheard_of", 1)
    assert with_ability(hero, "kenning_of_stars", 0).abilities == ()


def test_options_round_trip() -> None:
    options = StorytellerOptions(freebies=21, freebie_costs=FreebieCosts(art=4))
    dumped = options.model_dump(mode="json")
    assert StorytellerOptions.model_validate(dumped) == options
