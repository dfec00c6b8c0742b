"""Creation validation: the dot budgets of C:tD 2nd edition and the freebie account.

How dots are counted (DECISION, classic World of Darkness, the seed chapter has no creation):

* attributes: every attribute starts at 1; dots above 1 in a category are paid from that
  category's budget (7 / 5 / 3 by rank), anything beyond it with freebies;
* abilities: within a category, dots up to ``ability_creation_max`` (3) on each ability are paid
  from the category's budget (13 / 9 / 5); dots above the cap and beyond the budget are freebies
  (so "no ability above 3" holds for the starting dots, and freebies may go up to 5 as in C:tD);
* Arts, Realms, Backgrounds: a flat budget each (3 / 5 / 5), excess with freebies;
* Glamour and Willpower: the approved starting rating is free, dots above it cost freebies;
  Banality can never be bought, so its rating must equal the approved starting rating;
* when the sheet stores no ranking, the ranking that costs the fewest freebies is used — a
  player is never charged for forgetting to say which category is primary.

Unspent dots of a category's budget are errors (issue 24, item 8: a sheet left at «Physical:
0/7» is not a character yet; the message names the category and the dots left). Unspent
freebies are warnings (C:tD: they are simply lost), listed for the GM on the approval card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import TypeVar

from engine.common import Severity, Violation
from engine.text import ParamValue, msg, register_messages

from .options import StorytellerOptions
from .sheet import SCHEMA_VERSION, Character, TraitDots
from .traits import (
    ATTRIBUTE_GROUPS,
    AbilityGroup,
    AttributeGroup,
    TraitKind,
    trait_name,
)

register_messages(
    {
        "storyteller.creation.name_empty": {
            "ru": "У персонажа должно быть имя.",
            "en": "The character needs a name.",
        },
        "storyteller.creation.schema": {
            "ru": "Неизвестная версия листа {version}.",
            "en": "Unknown sheet version {version}.",
        },
        "storyteller.creation.out_of_range": {
            "ru": "{name_ru}: {value}, а должно быть от {low} до {high}.",
            "en": "{name_en}: {value}, must be between {low} and {high}.",
        },
        "storyteller.creation.duplicate": {
            "ru": "{name_ru} указано дважды.",
            "en": "{name_en} is listed twice.",
        },
        "storyteller.creation.empty_key": {
            "ru": "У черты нет названия.",
            "en": "A trait has no name.",
        },
        "storyteller.creation.bad_priority": {
            "ru": "Порядок категорий должен назвать каждую из трех категорий ровно один раз.",
            "en": "The category ranking must name each of the three categories exactly once.",
        },
        "storyteller.creation.unspent_dots": {
            "ru": "{name_ru}: осталось распределить {left} из {budget}.",
            "en": "{name_en}: {left} of {budget} dots are not spent.",
        },
        "storyteller.creation.below_starting": {
            "ru": "{name_ru}: {value} ниже одобренного начального значения {starting}.",
            "en": "{name_en}: {value} is below the approved starting rating {starting}.",
        },
        "storyteller.creation.banality_bought": {
            "ru": "Банальность нельзя менять за свободные очки: должно быть {starting}.",
            "en": "Banality cannot be changed with freebies: it must stay {starting}.",
        },
        "storyteller.creation.too_many_freebies": {
            "ru": "Свободных очков потрачено: {spent}, а доступно: {available}.",
            "en": "{spent} freebie points are spent, but only {available} are available.",
        },
        "storyteller.creation.unspent_freebies": {
            "ru": "Не потрачено свободных очков: {left}.",
            "en": "{left} freebie points are not spent.",
        },
        "storyteller.creation.negative_experience": {
            "ru": "Опыт не может быть отрицательным ({value}).",
            "en": "Experience cannot be negative ({value}).",
        },
    }
)

G = TypeVar("G", AttributeGroup, AbilityGroup)


@dataclass(frozen=True)
class CategorySpend:
    """Dots of one category: ``spent`` counts against ``budget``; ``excess`` costs freebies."""

    category: str
    budget: int
    spent: int
    excess: int
    cost: int

    @property
    def unspent(self) -> int:
        return max(0, self.budget - self.spent)


@dataclass(frozen=True)
class FreebieReport:
    """The freebie account of a sheet, for the wizard's "points left" display."""

    attribute_priority: tuple[AttributeGroup, ...]
    ability_priority: tuple[AbilityGroup, ...]
    categories: tuple[CategorySpend, ...]
    available: int

    @property
    def spent(self) -> int:
        return sum(c.cost for c in self.categories)

    @property
    def remaining(self) -> int:
        return self.available - self.spent


def _names(key: str) -> dict[str, ParamValue]:
    name = trait_name(key)
    return {"name_ru": name.render("ru"), "name_en": name.render("en")}


def _attribute_spend(
    character: Character, group: AttributeGroup, budget: int, cost: int
) -> CategorySpend:
    spent = sum(max(0, character.attributes.get(a) - 1) for a in ATTRIBUTE_GROUPS[group])
    excess = max(0, spent - budget)
    return CategorySpend(group.value, budget, min(spent, budget), excess, excess * cost)


def _ability_spend(
    character: Character, group: AbilityGroup, budget: int, options: StorytellerOptions
) -> CategorySpend:
    cap = options.ability_creation_max
    dots = [max(0, a.dots) for a in character.abilities if a.group is group]
    capped = sum(min(d, cap) for d in dots)
    over_cap = sum(max(0, d - cap) for d in dots)
    excess = max(0, capped - budget) + over_cap
    cost = excess * options.freebie_costs.ability
    return CategorySpend(group.value, budget, min(capped, budget), excess, cost)


def _best_ranking(
    stored: tuple[G, ...],
    groups: Sequence[G],
    spend: Callable[[G, int], CategorySpend],
    budgets: tuple[int, int, int],
) -> tuple[tuple[G, ...], list[CategorySpend]]:
    """The stored ranking if valid, else the cheapest one (ties: canonical order first)."""
    candidates = [stored] if sorted(stored) == sorted(groups) else list(permutations(groups))
    best: tuple[tuple[G, ...], list[CategorySpend]] | None = None
    for ranking in candidates:
        spends = [spend(group, budget) for group, budget in zip(ranking, budgets, strict=True)]
        if best is None or sum(s.cost for s in spends) < sum(s.cost for s in best[1]):
            best = (tuple(ranking), spends)
    assert best is not None
    return best


def _flat_spend(
    traits: tuple[TraitDots, ...], kind: TraitKind, budget: int, cost: int
) -> CategorySpend:
    spent = sum(max(0, t.dots) for t in traits)
    excess = max(0, spent - budget)
    return CategorySpend(kind.value, budget, min(spent, budget), excess, excess * cost)


def _rating_spend(key: str, rating: int, starting: int, cost: int) -> CategorySpend:
    excess = max(0, rating - starting)
    return CategorySpend(key, 0, 0, excess, excess * cost)


def freebie_report(character: Character, options: StorytellerOptions) -> FreebieReport:
    """Count every category's dots against its budget and price the excess in freebies."""
    costs = options.freebie_costs
    attr_rank, attr_spends = _best_ranking(
        character.attribute_priority,
        list(AttributeGroup),
        lambda g, b: _attribute_spend(character, g, b, costs.attribute),
        options.attribute_dots,
    )
    abil_rank, abil_spends = _best_ranking(
        character.ability_priority,
        list(AbilityGroup),
        lambda g, b: _ability_spend(character, g, b, options),
        options.ability_dots,
    )
    flat = [
        _flat_spend(character.arts, TraitKind.ART, options.arts_dots, costs.art),
        _flat_spend(character.realms, TraitKind.REALM, options.realms_dots, costs.realm),
        _flat_spend(
            character.backgrounds, TraitKind.BACKGROUND, options.backgrounds_dots, costs.background
        ),
        _rating_spend(
            "glamour", character.glamour.rating, character.starting.glamour, costs.glamour
        ),
        _rating_spend(
            "willpower", character.willpower.rating, character.starting.willpower, costs.willpower
        ),
    ]
    return FreebieReport(
        attr_rank, abil_rank, (*attr_spends, *abil_spends, *flat), options.freebies
    )


def _range(field: str, key: str, value: int, low: int, high: int) -> list[Violation]:
    if low <= value <= high:
        return []
    return [
        Violation(
            field,
            msg(
                "storyteller.creation.out_of_range", value=value, low=low, high=high, **_names(key)
            ),
        )
    ]


def _check_identity(character: Character) -> list[Violation]:
    found: list[Violation] = []
    if not character.name.strip():
        found.append(Violation("name", msg("storyteller.creation.name_empty")))
    if character.schema_version != SCHEMA_VERSION:
        found.append(
            Violation(
                "schema_version",
                msg("storyteller.creation.schema", version=character.schema_version),
            )
        )
    if character.experience < 0:
        found.append(
            Violation(
                "experience",
                msg("storyteller.creation.negative_experience", value=character.experience),
            )
        )
    return found


def _check_priorities(character: Character) -> list[Violation]:
    found: list[Violation] = []
    for field, stored, groups in (
        ("attribute_priority", character.attribute_priority, list(AttributeGroup)),
        ("ability_priority", character.ability_priority, list(AbilityGroup)),
    ):
        if stored and sorted(stored) != sorted(groups):
            found.append(Violation(field, msg("storyteller.creation.bad_priority")))
    return found


def _check_dots(character: Character, options: StorytellerOptions) -> list[Violation]:
    top = options.trait_max
    found: list[Violation] = []
    for group_attrs in ATTRIBUTE_GROUPS.values():
        for attr in group_attrs:
            value = character.attributes.get(attr)
            found += _range(f"attributes.{attr.value}", attr.value, value, 1, top)
    entries: list[tuple[str, str, int]] = [
        ("abilities", a.key, a.dots) for a in character.abilities
    ]
    for kind in TraitKind:
        entries += [(f"{kind.value}s", t.key, t.dots) for t in character.traits_of(kind)]
    for prefix, key, dots in entries:
        if not key.strip():
            found.append(Violation(prefix, msg("storyteller.creation.empty_key")))
            continue
        found += _range(f"{prefix}.{key}", key, dots, 0, top)
    found += _check_duplicates(entries)
    return found


def _check_duplicates(entries: list[tuple[str, str, int]]) -> list[Violation]:
    counts = Counter((prefix, key) for prefix, key, _ in entries)
    return [
        Violation(f"{prefix}.{key}", msg("storyteller.creation.duplicate", **_names(key)))
        for (prefix, key), n in counts.items()
        if n > 1
    ]


def _check_character_traits(character: Character, options: StorytellerOptions) -> list[Violation]:
    top = options.character_trait_max
    found: list[Violation] = []
    for key in ("glamour", "banality", "willpower"):
        starting: int = getattr(character.starting, key)
        trait = getattr(character, key)
        found += _range(f"starting.{key}", key, starting, 1, top)
        found += _range(f"{key}.rating", key, trait.rating, 1, top)
        found += _range(f"{key}.pool", f"{key}.pool", trait.pool, 0, top)
        if key != "banality" and trait.rating < starting:
            found.append(
                Violation(
                    f"{key}.rating",
                    msg(
                        "storyteller.creation.below_starting",
                        value=trait.rating,
                        starting=starting,
                        **_names(key),
                    ),
                )
            )
    if character.banality.rating != character.starting.banality:
        found.append(
            Violation(
                "banality.rating",
                msg("storyteller.creation.banality_bought", starting=character.starting.banality),
            )
        )
    return found


def _check_budget(report: FreebieReport) -> list[Violation]:
    found: list[Violation] = []
    for cat in report.categories:
        if cat.unspent:
            found.append(
                Violation(
                    f"required.{cat.category}",
                    msg(
                        "storyteller.creation.unspent_dots",
                        left=cat.unspent,
                        budget=cat.budget,
                        **_names(cat.category),
                    ),
                )
            )
    if report.remaining < 0:
        found.append(
            Violation(
                "freebies",
                msg(
                    "storyteller.creation.too_many_freebies",
                    spent=report.spent,
                    available=report.available,
                ),
            )
        )
    elif report.remaining > 0:
        found.append(
            Violation(
                "freebies",
                msg("storyteller.creation.unspent_freebies", left=report.remaining),
                Severity.WARNING,
            )
        )
    return found


def validate_character(
    character: Character, options: StorytellerOptions, *, at_creation: bool = True
) -> list[Violation]:
    """Every creation rule the sheet breaks (errors block, warnings only inform); never raises.

    ``at_creation=False`` (a sheet in play: an edit, an import): the priorities and the dot and
    freebie budgets are rules of creation only (the chapter milestone awards experience, which the
    Storyteller's edits turn into dots past them); the ranges of every trait still hold.
    """
    if not at_creation:
        return [
            *_check_identity(character),
            *_check_dots(character, options),
            *_check_character_traits(character, options),
        ]
    return [
        *_check_identity(character),
        *_check_priorities(character),
        *_check_dots(character, options),
        *_check_character_traits(character, options),
        *_check_budget(freebie_report(character, options)),
    ]
