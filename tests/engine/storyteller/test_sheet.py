"""Sheet storage and character-trait pools."""

from __future__ import annotations

import pytest

from engine.common import Change
from engine.errors import RuleViolation
from engine.systems.storyteller import (
    ABILITIES,
    CATALOGUE,
    SCHEMA_VERSION,
    SYSTEM_ID,
    AbilityGroup,
    Character,
    DamageKind,
    PoolTrait,
    TraitKind,
    apply_damage,
    gain_banality,
    new_character,
    regain,
    spend_glamour,
    spend_willpower,
    trait_name,
    with_trait,
)


def test_contract_constants() -> None:
    assert SYSTEM_ID == "storyteller"
    assert SCHEMA_VERSION == 1


def test_json_round_trip_is_exact(techlana: Character) -> None:
    track, _ = apply_damage(techlana.health, DamageKind.LETHAL, 2)
    hurt = techlana.model_copy(update={"health": track, "notes": "ноутбук залит молоком"})
    dumped = hurt.model_dump(mode="json")
    restored = Character.model_validate(dumped)
    assert restored == hurt
    assert restored.model_dump(mode="json") == dumped


def test_unknown_fields_are_refused() -> None:
    with pytest.raises(ValueError):
        Character.model_validate({"name": "X", "humanity": 7})


def test_new_character_draft() -> None:
    draft = new_character("Мими")
    assert draft.attributes.strength == 1 and draft.abilities == ()
    assert (draft.willpower, draft.banality) == (
        PoolTrait(rating=1, pool=1),
        PoolTrait(rating=1, pool=0),
    )


def test_spend_willpower(techlana: Character) -> None:
    spent, change = spend_willpower(techlana)
    assert spent.willpower == PoolTrait(rating=6, pool=5)
    assert change == Change("willpower.pool", trait_name("willpower.pool"), 6, 5)
    assert change.what.render("ru") == "Воля"
    empty = techlana.model_copy(update={"willpower": PoolTrait(rating=6, pool=0)})
    with pytest.raises(RuleViolation) as err:
        spend_willpower(empty)
    assert err.value.render("ru") == "В запасе Воли 0, а нужно потратить 1."
    with pytest.raises(RuleViolation):
        spend_glamour(techlana, 6)
    with pytest.raises(RuleViolation):
        spend_glamour(techlana, 0)
    assert spend_glamour(techlana, 2)[0].glamour.pool == 3


def test_regain_caps() -> None:
    hero = new_character("X").model_copy(
        update={"willpower": PoolTrait(rating=5, pool=2), "glamour": PoolTrait(rating=4, pool=9)}
    )
    assert regain(hero, "willpower", 9)[0].willpower.pool == 5
    # Glamour stops at its rating too (a granted gain read «Гламур: 5/4»); a pool already
    # above it is left alone, not cut
    assert regain(hero, "glamour", 5)[0].glamour.pool == 9
    low = hero.model_copy(update={"glamour": PoolTrait(rating=4, pool=3)})
    assert regain(low, "glamour", 5)[0].glamour.pool == 4


@pytest.mark.parametrize(
    ("rating", "pool", "gain", "after_rating", "after_pool", "changes"),
    [(3, 0, 2, 3, 2, 1), (3, 8, 2, 4, 0, 2), (3, 9, 13, 5, 2, 2), (10, 9, 5, 10, 10, 1)],
)
def test_banality_ten_temporary_points_become_permanent(
    rating: int, pool: int, gain: int, after_rating: int, after_pool: int, changes: int
) -> None:
    hero = new_character("X").model_copy(update={"banality": PoolTrait(rating=rating, pool=pool)})
    after, found = gain_banality(hero, gain)
    assert after.banality == PoolTrait(rating=after_rating, pool=after_pool)
    assert len(found) == changes


def test_trait_names_and_dots(techlana: Character) -> None:
    assert trait_name("chicanery").render("ru") == "Обман"
    assert trait_name("dragons_ire").render("en") == "Dragon's Ire"
    assert trait_name("homebrew").render("ru") == "homebrew"
    assert techlana.dots(TraitKind.ART, "wayfare") == 2
    assert with_trait(techlana, TraitKind.ART, "wayfare", 0).dots(TraitKind.ART, "wayfare") == 0


def test_catalogue_lists_the_seed_traits() -> None:
    # Seed glossary: «Примерами Искусств могут послужить Обман, Фокусы и Странствия.»
    assert {"chicanery", "legerdemain", "wayfare"} <= CATALOGUE[TraitKind.ART]
    # «Химера, Сокровища ... Контакты, Ментор, Свита»
    assert {"chimera", "treasure", "contacts", "mentor", "retinue"} <= CATALOGUE[
        TraitKind.BACKGROUND
    ]
    assert CATALOGUE[TraitKind.REALM] == {"actor", "fae", "nature", "prop", "scene", "time"}
    assert ABILITIES["athletics"].group is AbilityGroup.TALENTS
    assert ABILITIES["computer"].group is AbilityGroup.KNOWLEDGES
