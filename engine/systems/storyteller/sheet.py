"""The stored character sheet and small pure edits of it.

Dots are plain ints on the model (the wizard may hold out-of-range drafts); ``validate_character``
reports every problem at once instead of the model refusing to load.
"""

from __future__ import annotations

from typing import Final

from pydantic import Field

from engine.common import Change, SheetModel
from engine.errors import RuleViolation
from engine.text import msg, register_messages

from .health import HealthTrack
from .traits import (
    AbilityGroup,
    Attribute,
    AttributeGroup,
    TraitKind,
    ability_group,
    trait_name,
)

SCHEMA_VERSION: Final = 1
CHARACTER_TRAIT_MAX: Final = 10
"""DECISION (SPEC): Glamour, Banality and Willpower run 1–10, not capped at 5."""

register_messages(
    {
        "storyteller.sheet.pool_too_low.willpower": {
            "ru": "В запасе Воли {have}, а нужно потратить {need}.",
            "en": "The Willpower pool has {have}, but {need} must be spent.",
        },
        "storyteller.sheet.pool_too_low.glamour": {
            "ru": "В запасе Гламура {have}, а нужно потратить {need}.",
            "en": "The Glamour pool has {have}, but {need} must be spent.",
        },
        "storyteller.sheet.unknown_ability_group": {
            "ru": "Для новой способности «{name}» нужно указать группу.",
            "en": "The new ability «{name}» needs a group (talents, skills, knowledges).",
        },
        "storyteller.sheet.bad_amount": {
            "ru": "Количество должно быть положительным, а не {amount}.",
            "en": "The amount must be positive, not {amount}.",
        },
    }
)


class Attributes(SheetModel):
    """The nine attributes, 1 dot each on a new sheet (every attribute starts at 1)."""

    strength: int = 1
    dexterity: int = 1
    stamina: int = 1
    charisma: int = 1
    manipulation: int = 1
    appearance: int = 1
    perception: int = 1
    intelligence: int = 1
    wits: int = 1

    def get(self, attribute: Attribute) -> int:
        value: int = getattr(self, attribute.value)
        return value


class AbilityDots(SheetModel):
    """An ability with its category (stored so house abilities have one too)."""

    key: str
    group: AbilityGroup
    dots: int


class TraitDots(SheetModel):
    """An Art, Realm or Background rating."""

    key: str
    dots: int


class PoolTrait(SheetModel):
    """A character trait (Glamour, Banality, Willpower): permanent rating + temporary pool."""

    rating: int = 1
    pool: int = 1


class StartingTraits(SheetModel):
    """Permanent ratings the player entered and the GM approved (from Kith and Seeming in
    C:tD); freebies bought on top of these are what creation validation charges for."""

    glamour: int = 1
    banality: int = 1
    willpower: int = 1


class Character(SheetModel):
    """A Changeling / World of Darkness character sheet (``SCHEMA_VERSION`` 1)."""

    schema_version: int = SCHEMA_VERSION
    name: str
    concept: str = ""
    kith: str = ""
    seeming: str = ""
    attributes: Attributes = Field(default_factory=Attributes)
    attribute_priority: tuple[AttributeGroup, ...] = ()
    """Primary, secondary, tertiary; empty = pick the ranking that costs the fewest freebies."""
    ability_priority: tuple[AbilityGroup, ...] = ()
    abilities: tuple[AbilityDots, ...] = ()
    arts: tuple[TraitDots, ...] = ()
    realms: tuple[TraitDots, ...] = ()
    backgrounds: tuple[TraitDots, ...] = ()
    glamour: PoolTrait = Field(default_factory=PoolTrait)
    banality: PoolTrait = Field(default_factory=lambda: PoolTrait(pool=0))
    """Banality's pool is temporary Banality gained, not a reserve to spend."""
    willpower: PoolTrait = Field(default_factory=PoolTrait)
    starting: StartingTraits = Field(default_factory=StartingTraits)
    health: HealthTrack = Field(default_factory=HealthTrack)
    experience: int = 0
    notes: str = ""

    def ability(self, key: str) -> int:
        """Dots in an ability, 0 when the character lacks it."""
        return next((a.dots for a in self.abilities if a.key == key), 0)

    def dots(self, kind: TraitKind, key: str) -> int:
        """Dots in an Art, Realm or Background, 0 when absent."""
        return next((t.dots for t in self.traits_of(kind) if t.key == key), 0)

    def traits_of(self, kind: TraitKind) -> tuple[TraitDots, ...]:
        return {
            TraitKind.ART: self.arts,
            TraitKind.REALM: self.realms,
            TraitKind.BACKGROUND: self.backgrounds,
        }[kind]


def new_character(name: str) -> Character:
    """An empty draft: every attribute at 1, no abilities, character traits at 1."""
    return Character(name=name)


def with_attribute(character: Character, attribute: Attribute, dots: int) -> Character:
    """Set one attribute (no range check: the validator reports drafts out of range)."""
    attrs = character.attributes.model_copy(update={attribute.value: dots})
    return character.model_copy(update={"attributes": attrs})


def with_ability(
    character: Character, key: str, dots: int, *, group: AbilityGroup | None = None
) -> Character:
    """Set an ability; 0 dots removes it. ``group`` is needed only for a new house ability."""
    known = next((a for a in character.abilities if a.key == key), None)
    resolved = group or (known.group if known else None) or ability_group(key)
    if resolved is None:
        raise RuleViolation(msg("storyteller.sheet.unknown_ability_group", name=key))
    rest = tuple(a for a in character.abilities if a.key != key)
    new = rest if dots == 0 else (*rest, AbilityDots(key=key, group=resolved, dots=dots))
    return character.model_copy(update={"abilities": new})


def with_trait(character: Character, kind: TraitKind, key: str, dots: int) -> Character:
    """Set an Art, Realm or Background; 0 dots removes it."""
    rest = tuple(t for t in character.traits_of(kind) if t.key != key)
    new = rest if dots == 0 else (*rest, TraitDots(key=key, dots=dots))
    field = {TraitKind.ART: "arts", TraitKind.REALM: "realms", TraitKind.BACKGROUND: "backgrounds"}
    return character.model_copy(update={field[kind]: new})


def _pool_change(
    character: Character, trait: str, before: int, after: int
) -> tuple[Character, Change]:
    current: PoolTrait = getattr(character, trait)
    updated = character.model_copy(update={trait: current.model_copy(update={"pool": after})})
    return updated, Change(f"{trait}.pool", trait_name(f"{trait}.pool"), before, after)


def _spend(character: Character, trait: str, amount: int) -> tuple[Character, Change]:
    if amount < 1:
        raise RuleViolation(msg("storyteller.sheet.bad_amount", amount=amount))
    pool: int = getattr(character, trait).pool
    if pool < amount:
        raise RuleViolation(msg(f"storyteller.sheet.pool_too_low.{trait}", have=pool, need=amount))
    return _pool_change(character, trait, pool, pool - amount)


def spend_willpower(character: Character, amount: int = 1) -> tuple[Character, Change]:
    """Spend temporary Willpower (one point buys one automatic success on a roll)."""
    return _spend(character, "willpower", amount)


def spend_glamour(character: Character, amount: int = 1) -> tuple[Character, Change]:
    """Spend temporary Glamour."""
    return _spend(character, "glamour", amount)


def regain(character: Character, trait: str, amount: int) -> tuple[Character, Change]:
    """Regain Glamour or Willpower points, never above the permanent rating.

    DECISION (classic WoD; the seed is silent): temporary points never exceed the permanent
    rating, Glamour's as Willpower's. Every view shows a pool as «3/4» of its rating and the
    mini app stops «+1» there; letting a gain pass it (C:tD's Epiphany excess) read
    «Гламур: 5/4». A pool already above its rating is not lowered by a gain.
    """
    if amount < 1:
        raise RuleViolation(msg("storyteller.sheet.bad_amount", amount=amount))
    current: PoolTrait = getattr(character, trait)
    after = max(current.pool, min(current.rating, current.pool + amount))
    return _pool_change(character, trait, current.pool, after)


def gain_banality(character: Character, amount: int = 1) -> tuple[Character, list[Change]]:
    """Add temporary Banality; ten temporary points become one permanent point.

    DECISION (C:tD 2nd edition, not in the seed): when temporary Banality reaches 10 it is
    erased and permanent Banality rises by one (never above 10).
    """
    if amount < 1:
        raise RuleViolation(msg("storyteller.sheet.bad_amount", amount=amount))
    before = character.banality
    pool = before.pool + amount
    rating = before.rating
    while pool >= CHARACTER_TRAIT_MAX and rating < CHARACTER_TRAIT_MAX:
        pool -= CHARACTER_TRAIT_MAX
        rating += 1
    pool = min(pool, CHARACTER_TRAIT_MAX)
    after = PoolTrait(rating=rating, pool=pool)
    changes = [Change("banality.pool", trait_name("banality.pool"), before.pool, pool)]
    if rating != before.rating:
        changes.append(Change("banality", trait_name("banality"), before.rating, rating))
    return character.model_copy(update={"banality": after}), changes
