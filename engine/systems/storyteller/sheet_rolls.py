"""``/r`` shorthands against a Storyteller sheet: ``Ловкость+Атлетизм 7`` →
``<dots>d10>=<difficulty>f1`` (one attribute, at most one ability, wounds applied), and
``Воля 8`` → a pool of the permanent Willpower (Glamour, Banality alike).

DECISION (classic WoD; the seed only says Character Traits are «чаще затрачиваются, чем
пробрасываются», so they are rolled at times): a Character Trait is rolled alone, a pool of
its permanent rating ± modifiers, at the difficulty given (6 by default); wound penalties,
which burden actions, do not touch it. ``/r Воля`` answered «На листе нет «Воля»»."""

from __future__ import annotations

import re
from typing import Final

from engine import formats
from engine.common import SheetModel
from engine.errors import RuleViolation
from engine.systems import storyteller
from engine.systems.sheet_rolls import (
    INTEGER,
    Names,
    SheetRoll,
    SheetRollError,
    clean,
    number,
    render,
    require,
    split_target,
)
from engine.systems.storyteller.rolls import (
    DEFAULT_DIFFICULTY,
    MAX_POOL,
    build_pool,
    check_difficulty,
)
from engine.systems.storyteller.rolls import pool_notation as storyteller_notation
from engine.systems.storyteller.traits import ABILITIES, Attribute, trait_name
from engine.text import msg, register_messages

register_messages(
    {
        "sheetroll.storyteller.need_attribute": {
            "ru": "Пул — это один атрибут и не больше одной способности: /r Ловкость+Атлетизм 7",
            "en": "A pool is one attribute and at most one ability: /r Dexterity+Athletics 7",
        },
        "sheetroll.storyteller.no_dice": {
            "ru": "Кубиков в пуле: {dice} — бросать нечего, это автоматическая неудача.",
            "en": "The pool has {dice} dice: nothing to roll, an automatic failure.",
        },
        "sheetroll.storyteller.wounds": {"ru": "раны {value}", "en": "wounds {value}"},
        "sheetroll.storyteller.trait_alone": {
            "ru": "Черту «{trait}» бросают отдельно, без атрибута и способности: /r {trait} 7",
            "en": "“{trait}” is rolled alone, with no attribute or ability: /r {trait} 7",
        },
    }
)

_CHARACTER_TRAITS: Final = ("willpower", "glamour", "banality")
_TRAIT_NAMES: Final = Names(
    (key, (render(trait_name(key), "ru"), render(trait_name(key), "en")))
    for key in _CHARACTER_TRAITS
)
_ATTRIBUTE_PREFIX: Final = "attr:"
_ABILITY_PREFIX: Final = "ability:"
_TERMS: Final = re.compile(r"\s*(\+|-(?=\s*\d))\s*")


def _storyteller_names(character: storyteller.Character) -> Names:
    entries: list[tuple[str, tuple[str, ...]]] = [
        (
            _ATTRIBUTE_PREFIX + attribute.value,
            (
                render(trait_name(attribute.value), "ru"),
                render(trait_name(attribute.value), "en"),
            ),
        )
        for attribute in Attribute
    ]
    keys = list(ABILITIES) + [a.key for a in character.abilities if a.key not in ABILITIES]
    for key in keys:
        ru, en = render(trait_name(key), "ru"), render(trait_name(key), "en")
        entries.append((_ABILITY_PREFIX + key, (ru, en, key, key.replace("_", " "))))
    return Names(entries)


def _plan_storyteller(character: storyteller.Character, text: str, locale: str) -> SheetRoll:
    rest, difficulty = split_target(text, example=DEFAULT_DIFFICULTY)
    example = "Ловкость+Атлетизм 7" if locale == "ru" else "Dexterity+Athletics 7"
    require(rest, example)
    pieces = _TERMS.split(rest)
    names = _storyteller_names(character)
    listed = (
        [render(trait_name(a.value), locale) for a in Attribute]
        + [render(trait_name(a.key), locale) for a in character.abilities]
        + [render(trait_name(key), locale) for key in _CHARACTER_TRAITS]
    )
    if any(_TRAIT_NAMES.find(piece) for piece in pieces[::2]):
        return _plan_trait(character, pieces, difficulty, locale)
    attributes: list[Attribute] = []
    abilities: list[str] = []
    modifier = 0
    sign = "+"
    for index, piece in enumerate(pieces):
        if index % 2:
            sign = piece
            continue
        if INTEGER.fullmatch(piece):
            modifier += number(piece) * (-1 if sign == "-" else 1)
            continue
        require(piece, example)
        key = names.get(piece, listed)
        if key.startswith(_ATTRIBUTE_PREFIX):
            attributes.append(Attribute(key.removeprefix(_ATTRIBUTE_PREFIX)))
        else:
            abilities.append(key.removeprefix(_ABILITY_PREFIX))
    if len(attributes) != 1 or len(abilities) > 1:
        raise SheetRollError(msg("sheetroll.storyteller.need_attribute"))
    if difficulty is not None:
        check_difficulty(difficulty)
    ability = abilities[0] if abilities else None
    spec = build_pool(character, attributes[0], ability, modifier=modifier)
    if spec.total <= 0:
        raise SheetRollError(msg("sheetroll.storyteller.no_dice", dice=spec.total))
    if spec.total > MAX_POOL:
        raise RuleViolation(msg("storyteller.roll.too_many_dice", dice=spec.total, limit=MAX_POOL))
    title = render(trait_name(attributes[0].value), locale)
    if ability is not None:
        title += "+" + render(trait_name(ability), locale)
    if modifier:
        title += formats.signed(modifier)
    if spec.wound_penalty:
        wounds = msg("sheetroll.storyteller.wounds", value=formats.signed(spec.wound_penalty))
        title += f" ({render(wounds, locale)})"
    notation = storyteller_notation(spec.total, difficulty or DEFAULT_DIFFICULTY)
    return SheetRoll(notation, title, difficulty, "storyteller")


def _plan_trait(
    character: storyteller.Character, pieces: list[str], difficulty: int | None, locale: str
) -> SheetRoll:
    """``Воля``, ``Воля +1 8``: a pool of the trait's permanent rating (``pieces`` alternate
    terms and signs, as ``_TERMS`` splits them)."""
    key = next(k for k in map(_TRAIT_NAMES.find, pieces[::2]) if k)
    name = render(trait_name(key), locale)
    modifier = 0
    for index in range(2, len(pieces), 2):
        if not INTEGER.fullmatch(pieces[index]):
            raise SheetRollError(msg("sheetroll.storyteller.trait_alone", trait=name))
        modifier += number(pieces[index]) * (-1 if pieces[index - 1] == "-" else 1)
    if _TRAIT_NAMES.find(pieces[0]) is None:
        raise SheetRollError(msg("sheetroll.storyteller.trait_alone", trait=name))
    if difficulty is not None:
        check_difficulty(difficulty)
    rating: int = getattr(character, key).rating
    total = rating + modifier
    if total <= 0:
        raise SheetRollError(msg("sheetroll.storyteller.no_dice", dice=total))
    if total > MAX_POOL:
        raise RuleViolation(msg("storyteller.roll.too_many_dice", dice=total, limit=MAX_POOL))
    title = f"{name} ({rating})" + (f" {formats.signed(modifier)}" if modifier else "")
    notation = storyteller_notation(total, difficulty or DEFAULT_DIFFICULTY)
    return SheetRoll(notation, title, difficulty, "storyteller")


class StorytellerSheetRolls:
    """``base.SheetRolls`` for this system."""

    def plan(self, character: SheetModel, text: str, locale: str) -> SheetRoll:
        if not isinstance(character, storyteller.Character):
            raise ValueError(f"not a sheet of this system: {type(character).__name__}")
        return _plan_storyteller(character, clean(text), locale)

    def prefers_sheet_roll(self, text: str) -> bool:
        return False


SHEET_ROLLS: Final = StorytellerSheetRolls()
