"""Pure steps of the ``storyteller`` wizard: one +/− on a page of the draft sheet.

The engine prices a whole sheet (``freebie_report``); the wizard adds one rule of its own
around it: on the creation steps a dot must come from the category's creation budget (and no
ability may pass ``ability_creation_max``), while on the freebie steps any dot may be bought as
long as freebies remain. So a press is either a new sheet or a ``Refusal`` with the reason.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Final

from pydantic import ValidationError

from bot.i18n import N_
from engine.systems.storyteller import (
    ABILITIES,
    ATTRIBUTE_GROUPS,
    CATALOGUE,
    AbilityGroup,
    Attribute,
    AttributeGroup,
    Character,
    FreebieReport,
    PoolTrait,
    StorytellerOptions,
    TraitKind,
    freebie_report,
    new_character,
    with_ability,
    with_attribute,
    with_trait,
)

logger = logging.getLogger(__name__)

ATTR: Final = "attr"
CTR: Final = "ctr"  # Glamour, Banality, Willpower
CHARACTER_TRAITS: Final = ("glamour", "banality", "willpower")
ABILITY_PAGES: Final = tuple(g.value for g in AbilityGroup)
TRAIT_PAGES: Final = tuple(k.value for k in TraitKind)


def page_keys(page: str) -> tuple[str, ...]:
    """The trait keys one wizard page shows, in catalogue order."""
    if page == ATTR:
        return tuple(a.value for group in ATTRIBUTE_GROUPS.values() for a in group)
    if page in ABILITY_PAGES:
        return tuple(k for k, info in ABILITIES.items() if info.group.value == page)
    if page in TRAIT_PAGES:
        return tuple(sorted(CATALOGUE[TraitKind(page)]))
    if page == CTR:
        return CHARACTER_TRAITS
    raise ValueError(page)


@dataclass(frozen=True)
class Refusal:
    """Why a press changed nothing: an untranslated msgid and its parameters."""

    msgid: str
    params: dict[str, Any] = field(default_factory=dict)


# --- the draft in dialog_data ----------------------------------------------------------------


def initial_sheet(draft: dict[str, Any] | None, options: StorytellerOptions) -> Character:
    """A returned (or edited) sheet to continue from, else an empty one.

    The wizard always shows an explicit ranking; a sheet without one gets the ranking the
    engine would charge it by (the cheapest), so nothing changes in its freebie account.
    """
    character = new_character("")
    if draft:
        try:
            character = Character.model_validate(draft)
        except ValidationError:
            logger.warning("returned storyteller draft does not load; starting afresh")
    report = freebie_report(character, options)
    return character.model_copy(
        update={
            "attribute_priority": report.attribute_priority,
            "ability_priority": report.ability_priority,
        }
    )


def load(data: dict[str, Any]) -> Character:
    return Character.model_validate(data["sheet"])


def dump(character: Character) -> dict[str, Any]:
    return character.model_dump(mode="json")


# --- reading and writing one trait ----------------------------------------------------------


def dots(character: Character, page: str, key: str) -> int:
    if page == ATTR:
        return character.attributes.get(Attribute(key))
    if page in ABILITY_PAGES:
        return character.ability(key)
    if page == CTR:
        trait: PoolTrait = getattr(character, key)
        return trait.rating
    return character.dots(TraitKind(page), key)


def _set(character: Character, page: str, key: str, value: int) -> Character:
    if page == ATTR:
        return with_attribute(character, Attribute(key), value)
    if page in ABILITY_PAGES:
        return with_ability(character, key, value, group=AbilityGroup(page))
    return with_trait(character, TraitKind(page), key, value)


def category(page: str, key: str) -> str:
    """The ``CategorySpend.category`` a trait's dots are counted in."""
    if page == ATTR:
        return next(g.value for g, attrs in ATTRIBUTE_GROUPS.items() if Attribute(key) in attrs)
    return page


def _spend(report: FreebieReport, name: str) -> int:
    return next(c.excess for c in report.categories if c.category == name)


# --- one press --------------------------------------------------------------------------------


def press(
    character: Character, options: StorytellerOptions, page: str, key: str, delta: int,
    *, freebies: bool,
) -> Character | Refusal:  # fmt: skip
    """+1 or −1 on one trait; the new sheet or why not."""
    if page == CTR:
        return _press_character_trait(character, options, key, delta, freebies=freebies)
    current = dots(character, page, key)
    low = 1 if page == ATTR else 0
    new = current + delta
    if new < low:
        return Refusal(N_("{name} cannot go below {low}."), {"key": key, "low": low})
    if new > options.trait_max:
        return Refusal(
            N_("{name} is at the maximum, {high}."), {"key": key, "high": options.trait_max}
        )
    changed = _set(character, page, key, new)
    if delta < 0:
        return changed
    if freebies:
        return _afford(character, changed, options)
    if page in ABILITY_PAGES and new > options.ability_creation_max:
        return Refusal(
            N_(
                "No ability above {cap} from the creation dots: {name} can reach {dots} only "
                "with freebies (the «Freebies» step)."
            ),
            {"key": key, "cap": options.ability_creation_max, "dots": new},
        )
    return _within_budget(character, changed, options, category(page, key))


def _within_budget(
    before: Character, after: Character, options: StorytellerOptions, name: str
) -> Character | Refusal:
    old = next(c for c in freebie_report(before, options).categories if c.category == name)
    if _spend(freebie_report(after, options), name) > old.excess:
        return Refusal(
            N_(
                "{group}: all {budget} creation dots are spent. More dots cost freebies "
                "(the «Freebies» step)."
            ),
            {"group_key": name, "budget": old.budget},
        )
    return after


def _afford(
    before: Character, after: Character, options: StorytellerOptions
) -> Character | Refusal:
    old = freebie_report(before, options)
    new = freebie_report(after, options)
    if new.remaining < 0:
        return Refusal(
            N_("Not enough freebies: this dot costs {cost}, {left} left."),
            {"cost": new.spent - old.spent, "left": max(0, old.remaining)},
        )
    return after


def _press_character_trait(
    character: Character, options: StorytellerOptions, key: str, delta: int, *, freebies: bool
) -> Character | Refusal:
    """Creation steps set the starting rating (from Kith and Seeming, the GM approves it);
    the freebie step buys rating above it. Banality can never be bought (SPEC)."""
    top = options.character_trait_max
    trait: PoolTrait = getattr(character, key)
    start: int = getattr(character.starting, key)
    if freebies and key == "banality":
        return Refusal(N_("Banality cannot be bought with freebies."))
    low = start if freebies else 1
    new_start = start if freebies else start + delta
    new_rating = trait.rating + delta
    if new_rating < low or new_start < 1:
        return Refusal(N_("{name} cannot go below {low}."), {"key": key, "low": low})
    if new_rating > top or new_start > top:
        return Refusal(N_("{name} is at the maximum, {high}."), {"key": key, "high": top})
    pool = 0 if key == "banality" else new_rating
    starting = character.starting.model_copy(update={key: new_start})
    changed = character.model_copy(
        update={key: PoolTrait(rating=new_rating, pool=pool), "starting": starting}
    )
    if freebies and delta > 0:
        return _afford(character, changed, options)
    return changed


def promote(ranking: list[str], item: str) -> list[str]:
    """Move one category a place up the ranking (the first stays first)."""
    if item not in ranking:
        return ranking
    i = ranking.index(item)
    if i == 0:
        return ranking
    moved = list(ranking)
    moved[i - 1], moved[i] = moved[i], moved[i - 1]
    return moved


def with_rankings(character: Character, attrs: list[str], abilities: list[str]) -> Character:
    return character.model_copy(
        update={
            "attribute_priority": tuple(AttributeGroup(g) for g in attrs),
            "ability_priority": tuple(AbilityGroup(g) for g in abilities),
        }
    )


__all__ = [
    "ATTR",
    "CTR",
    "Refusal",
    "category",
    "dots",
    "dump",
    "initial_sheet",
    "load",
    "page_keys",
    "press",
    "promote",
    "with_rankings",
]
