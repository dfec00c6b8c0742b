"""Per-game creation options: the SPEC defaults (C:tD 2nd edition), each overridable by the GM."""

from __future__ import annotations

from pydantic import Field

from engine.common import SheetModel


class FreebieCosts(SheetModel):
    """Freebie points per dot. Banality cannot be bought at all (SPEC)."""

    attribute: int = Field(default=5, ge=0)
    ability: int = Field(default=2, ge=0)
    art: int = Field(default=5, ge=0)
    realm: int = Field(default=3, ge=0)
    background: int = Field(default=1, ge=0)
    glamour: int = Field(default=3, ge=0)
    willpower: int = Field(default=2, ge=0)


class StorytellerOptions(SheetModel):
    """Creation budgets and limits of one game.

    ``attribute_dots`` / ``ability_dots`` are given primary, secondary, tertiary. Attribute
    dots are spent on top of the free first dot of every attribute.
    """

    attribute_dots: tuple[int, int, int] = (7, 5, 3)
    ability_dots: tuple[int, int, int] = (13, 9, 5)
    ability_creation_max: int = Field(default=3, ge=0, le=5)
    """Cap on an ability from its category dots; freebies may raise it up to ``trait_max``."""
    trait_max: int = Field(default=5, ge=1, le=10)
    arts_dots: int = Field(default=3, ge=0)
    realms_dots: int = Field(default=5, ge=0)
    backgrounds_dots: int = Field(default=5, ge=0)
    freebies: int = Field(default=15, ge=0)
    freebie_costs: FreebieCosts = Field(default_factory=FreebieCosts)
    character_trait_max: int = Field(default=10, ge=1, le=10)
    chapter_experience: int = Field(default=1, ge=0)
    """Experience every character gets at the end of a chapter (classic WoD: 1 for being
    there); the Storyteller adds awards per milestone."""
