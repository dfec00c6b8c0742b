"""A finished, legal Changeling character built exactly to the default budgets."""

from __future__ import annotations

import pytest

from engine.systems.storyteller import (
    AbilityGroup,
    Attribute,
    AttributeGroup,
    Character,
    PoolTrait,
    StartingTraits,
    TraitKind,
    new_character,
    with_ability,
    with_attribute,
    with_trait,
)

ATTRS = {
    Attribute.STRENGTH: 3,
    Attribute.DEXTERITY: 4,
    Attribute.STAMINA: 3,  # physical 2+3+2 = 7
    Attribute.CHARISMA: 3,
    Attribute.MANIPULATION: 2,
    Attribute.APPEARANCE: 3,  # social 2+1+2 = 5
    Attribute.PERCEPTION: 2,
    Attribute.INTELLIGENCE: 2,
    Attribute.WITS: 2,  # mental 1+1+1 = 3
}
ABILITIES = {
    # talents 3+3+2+2+3 = 13, plus one freebie dot on athletics (4)
    "alertness": 3,
    "athletics": 4,
    "brawl": 2,
    "dodge": 2,
    "empathy": 3,
    # skills 3+2+3+1 = 9
    "crafts": 3,
    "drive": 2,
    "melee": 3,
    "stealth": 1,
    # knowledges 2+3 = 5
    "computer": 2,
    "enigmas": 3,
}
TRAITS = [
    (TraitKind.ART, "chicanery", 2),
    (TraitKind.ART, "wayfare", 2),  # 3 + 1 freebie dot
    (TraitKind.REALM, "actor", 2),
    (TraitKind.REALM, "fae", 1),
    (TraitKind.REALM, "prop", 2),
    (TraitKind.BACKGROUND, "chimera", 3),
    (TraitKind.BACKGROUND, "treasure", 3),  # 5 + 1 freebie dot
]


def build_techlana() -> Character:
    """Freebies: ability 1×2 + Art 1×5 + Background 1×1 + Glamour 1×3 + Willpower 2×2 = 15."""
    hero = new_character("Техлана")
    for attr, dots in ATTRS.items():
        hero = with_attribute(hero, attr, dots)
    for key, dots in ABILITIES.items():
        hero = with_ability(hero, key, dots)
    for kind, key, dots in TRAITS:
        hero = with_trait(hero, kind, key, dots)
    return hero.model_copy(
        update={
            "kith": "нокер",
            "seeming": "дикарь",
            "attribute_priority": (
                AttributeGroup.PHYSICAL,
                AttributeGroup.SOCIAL,
                AttributeGroup.MENTAL,
            ),
            "ability_priority": (
                AbilityGroup.TALENTS,
                AbilityGroup.SKILLS,
                AbilityGroup.KNOWLEDGES,
            ),
            "starting": StartingTraits(glamour=4, banality=3, willpower=4),
            "glamour": PoolTrait(rating=5, pool=5),
            "banality": PoolTrait(rating=3, pool=0),
            "willpower": PoolTrait(rating=6, pool=6),
        }
    )


@pytest.fixture
def techlana() -> Character:
    return build_techlana()
