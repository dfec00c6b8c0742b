"""One dot at a time during creation, by category: a creation wizard's +/− on a sheet.

The engine prices a whole sheet (``freebie_report``); a dot pressed on during creation adds one
rule around it: while the categories are being filled, a dot must come from its category's
creation budget (and no ability may pass ``ability_creation_max``); in freebie mode any dot may
be bought while freebies remain. Glamour, Banality and Willpower: creation sets the starting
rating (from Kith and Seeming, approved by the GM), freebies buy rating above it, and Banality
is never bought (SPEC). A press is the new sheet or a ``Refusal`` (a reason code and its
parameters, worded by the caller).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from .creation import FreebieReport, freebie_report
from .options import StorytellerOptions
from .sheet import Character, PoolTrait, with_ability, with_attribute, with_trait
from .traits import ABILITIES, ATTRIBUTE_GROUPS, CATALOGUE, AbilityGroup, Attribute, TraitKind

ATTR: Final = "attr"  # the attributes, whatever their group
CTR: Final = "ctr"  # Glamour, Banality, Willpower
CHARACTER_TRAITS: Final = ("glamour", "banality", "willpower")
ABILITY_PAGES: Final = tuple(g.value for g in AbilityGroup)
TRAIT_PAGES: Final = tuple(k.value for k in TraitKind)
Params = dict[str, str | int]


@dataclass(frozen=True)
class Refusal:
    """Why a press changes nothing: ``below``, ``above`` (``key``, ``low``/``high``),
    ``ability_cap`` (``key``, ``cap``, ``dots``), ``budget_spent`` (``group_key``, ``budget``),
    ``no_freebies`` (``cost``, ``left``), ``banality``."""

    reason: str
    params: Params = field(default_factory=dict)


def page_keys(page: str) -> tuple[str, ...]:
    """The trait keys of one page (``ATTR``, an ability group, a trait kind, ``CTR``)."""
    if page == ATTR:
        return tuple(a.value for group in ATTRIBUTE_GROUPS.values() for a in group)
    if page in ABILITY_PAGES:
        return tuple(k for k, info in ABILITIES.items() if info.group.value == page)
    if page in TRAIT_PAGES:
        return tuple(sorted(CATALOGUE[TraitKind(page)]))
    if page == CTR:
        return CHARACTER_TRAITS
    raise ValueError(page)


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


def page_categories(page: str) -> set[str]:
    """The ``CategorySpend.category`` names a page's dots are counted in."""
    if page == ATTR:
        return {g.value for g in ATTRIBUTE_GROUPS}
    return {"glamour", "willpower"} if page == CTR else {page}


def _spend(report: FreebieReport, name: str) -> int:
    return next(c.excess for c in report.categories if c.category == name)


def press(
    character: Character, options: StorytellerOptions, page: str, key: str, delta: int,
    *, freebies: bool,
) -> Character | Refusal:  # fmt: skip
    """+1 or −1 on one trait; the new sheet or why not."""
    if page == CTR:
        return _press_character_trait(character, options, key, delta, freebies=freebies)
    low = 1 if page == ATTR else 0
    new = dots(character, page, key) + delta
    if new < low:
        return Refusal("below", {"key": key, "low": low})
    if new > options.trait_max:
        return Refusal("above", {"key": key, "high": options.trait_max})
    changed = _set(character, page, key, new)
    if delta < 0:
        return changed
    if freebies:
        return _afford(character, changed, options)
    if page in ABILITY_PAGES and new > options.ability_creation_max:
        cap = options.ability_creation_max
        return Refusal("ability_cap", {"key": key, "cap": cap, "dots": new})
    return _within_budget(character, changed, options, category(page, key))


def _within_budget(
    before: Character, after: Character, options: StorytellerOptions, name: str
) -> Character | Refusal:
    old = next(c for c in freebie_report(before, options).categories if c.category == name)
    if _spend(freebie_report(after, options), name) > old.excess:
        return Refusal("budget_spent", {"group_key": name, "budget": old.budget})
    return after


def _afford(
    before: Character, after: Character, options: StorytellerOptions
) -> Character | Refusal:
    old = freebie_report(before, options)
    new = freebie_report(after, options)
    if new.remaining < 0:
        cost = new.spent - old.spent
        return Refusal("no_freebies", {"cost": cost, "left": max(0, old.remaining)})
    return after


def _press_character_trait(
    character: Character, options: StorytellerOptions, key: str, delta: int, *, freebies: bool
) -> Character | Refusal:
    top = options.character_trait_max
    trait: PoolTrait = getattr(character, key)
    start: int = getattr(character.starting, key)
    if freebies and key == "banality":
        return Refusal("banality")
    low = start if freebies else 1
    new_start = start if freebies else start + delta
    new_rating = trait.rating + delta
    if new_rating < low or new_start < 1:
        return Refusal("below", {"key": key, "low": low})
    if new_rating > top or new_start > top:
        return Refusal("above", {"key": key, "high": top})
    pool = 0 if key == "banality" else new_rating
    starting = character.starting.model_copy(update={key: new_start})
    changed = character.model_copy(
        update={key: PoolTrait(rating=new_rating, pool=pool), "starting": starting}
    )
    if freebies and delta > 0:
        return _afford(character, changed, options)
    return changed


def with_cheapest_rankings(character: Character, options: StorytellerOptions) -> Character:
    """The sheet with an explicit ranking: one without gets the ranking the engine would charge
    it by (the cheapest), so nothing changes in its freebie account."""
    report = freebie_report(character, options)
    return character.model_copy(
        update={
            "attribute_priority": report.attribute_priority,
            "ability_priority": report.ability_priority,
        }
    )


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
