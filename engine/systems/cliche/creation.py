"""Creation validation: every broken rule at once, as ``Violation`` values."""

from __future__ import annotations

from collections import Counter
from typing import Final

from engine.common import NOTE, Severity, Violation
from engine.systems.cliche.sheet import Character, Cliche, ClicheOptions
from engine.text import msg

_NO_CAP: Final = 10**6  # in play a cliché grows without the creation cap

_ATTRIBUTES = (
    ("physical", "Физический"),
    ("mental", "Ментальный"),
    ("social", "Социальный"),
)


def validate_character(
    character: Character, options: ClicheOptions, *, at_creation: bool = True
) -> list[Violation]:
    """Every creation rule the sheet breaks (errors block, warnings only inform).

    Errors: empty name; attribute outside ``attribute_min..attribute_max``; attribute points not
    exactly ``attribute_points``; no clichés; unnamed or duplicate clichés; a cliché below 1 or
    above the creation cap (4); more than two at the cap; no cliché at 3+ («новичком (все по
    один-два) быть не должен»).
    Warnings: dice above 10 + GM bonus (SPEC DECISION: the seed's own sample has 14 dice); more
    than ten clichés («более десятка клише будут казаться странными»).
    Armor clichés are gear, not bought with creation dice, so they are left out of the dice
    rules (DECISION).
    ``at_creation=False`` (a sheet in play: an edit, an import) keeps the rules play cannot
    break and drops the creation caps, spread and budget («Персонажи не могут начать карьеру
    более чем с четырьмя костями»: a start rule; advancement takes a cliché past it).
    """
    violations = _name_rules(character)
    violations += _attribute_rules(character, options)
    violations += _cliche_rules(character, options, at_creation=at_creation)
    return violations


def _name_rules(character: Character) -> list[Violation]:
    if character.name.strip():
        return []
    return [Violation("name", msg("cliche.creation.name_empty"))]


def _attribute_rules(character: Character, options: ClicheOptions) -> list[Violation]:
    found: list[Violation] = []
    total = 0
    for field, label in _ATTRIBUTES:
        value: int = getattr(character.attributes, field)
        total += value
        if not options.attribute_min <= value <= options.attribute_max:
            text = msg(
                "cliche.creation.attribute_range",
                attribute=label,
                low=options.attribute_min,
                high=options.attribute_max,
                value=value,
            )
            found.append(Violation(f"attributes.{field}", text))
    if total != options.attribute_points:
        text = msg(
            "cliche.creation.attribute_points", expected=options.attribute_points, actual=total
        )
        found.append(Violation("attributes", text))
    return found


def _cliche_rules(
    character: Character, options: ClicheOptions, *, at_creation: bool
) -> list[Violation]:
    bought = [c for c in character.cliches if not c.armor]
    if not bought:
        return [Violation("cliches", msg("cliche.creation.no_cliches"))]
    found = _naming_rules(character.cliches)
    if not at_creation:
        return found + _per_cliche_rules(
            bought, options.model_copy(update={"creation_cap": _NO_CAP})
        )
    found += _per_cliche_rules(bought, options)
    found += _spread_rules(bought, options)
    found += _budget_rules(character, bought, options)
    return found


def _naming_rules(cliches: tuple[Cliche, ...]) -> list[Violation]:
    found: list[Violation] = []
    for index, item in enumerate(cliches, start=1):
        if not item.name.strip():
            text = msg("cliche.creation.cliche_name_empty", index=index)
            found.append(Violation(f"cliches.{index - 1}.name", text))
    counts = Counter(c.name.strip().casefold() for c in cliches if c.name.strip())
    for item in cliches:
        key = item.name.strip().casefold()
        if counts.get(key, 0) > 1:
            found.append(
                Violation("cliches", msg("cliche.creation.duplicate_name", name=item.name))
            )
            counts[key] = 0  # report each duplicated name once
    return found


def _per_cliche_rules(bought: list[Cliche], options: ClicheOptions) -> list[Violation]:
    found: list[Violation] = []
    for item in bought:
        if item.dice < 1:
            text = msg("cliche.creation.cliche_too_low", name=item.name)
            found.append(Violation(f"cliches.{item.name}", text))
        elif item.dice > options.creation_cap:
            text = msg(
                "cliche.creation.cliche_too_high",
                name=item.name,
                dice=item.dice,
                cap=options.creation_cap,
            )
            found.append(Violation(f"cliches.{item.name}", text))
    return found


def _spread_rules(bought: list[Cliche], options: ClicheOptions) -> list[Violation]:
    found: list[Violation] = []
    at_cap = sum(1 for c in bought if c.dice == options.creation_cap)
    if at_cap > options.max_at_cap:
        text = msg(
            "cliche.creation.too_many_at_cap",
            cap=options.creation_cap,
            allowed=options.max_at_cap,
            count=at_cap,
        )
        found.append(Violation("cliches", text))
    if all(c.dice < options.novice_threshold for c in bought):
        text = msg("cliche.creation.novice", minimum=options.novice_threshold)
        found.append(Violation("cliches", text))
    return found


def _budget_rules(
    character: Character, bought: list[Cliche], options: ClicheOptions
) -> list[Violation]:
    found: list[Violation] = []
    total = sum(c.dice for c in bought)
    budget = options.base_dice + character.gm_bonus_dice
    if total > budget:
        text = msg(
            "cliche.creation.over_budget",
            total=total,
            budget=budget,
            base=options.base_dice,
            bonus=character.gm_bonus_dice,
        )
        found.append(Violation(f"{NOTE}cliches", text, Severity.WARNING))
    if len(bought) > options.cliche_count_warning:
        text = msg(
            "cliche.creation.many_cliches", limit=options.cliche_count_warning, count=len(bought)
        )
        found.append(Violation(f"{NOTE}cliches", text, Severity.WARNING))
    return found
