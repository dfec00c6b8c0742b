"""Sheet-aware ``/r`` shorthands: the player's text plus their active sheet → a roll plan.

Pure translation, no I/O: ``plan_sheet_roll`` reads a trait name (and modifiers, a difficulty
or a target number) per rule system and returns the dice notation the dice core rolls and logs;
``outcome_words`` reads the rolled result back in the system's own words.

* ``fate`` — ``Атлетика``, ``Атлетика +1 vs 2``, ``Athletics 3`` → ``4dF+<skill>``;
* ``storyteller`` — ``Ловкость+Атлетизм 7`` → ``<dots>d10>=<difficulty>f1`` (wounds applied);
* ``matter`` — ``5``, ``шанс``/``chance``, ``Жестокость +1`` → ``<pool>d10>=7!`` or ``chance``;
* ``cliche`` — ``Солдат vs 10`` → ``<effective dice>d6``;
* ``lifegear`` — ``Стрельба vs 10`` → the stat's dice expression (``1d8+1d6+3``).

A name is found case-insensitively, «ё» read as «е», in either language; an unknown name is
answered with the closest matches (``difflib``) among the system's names in both languages.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from html import escape
from typing import Final

from bot.systems import rules_for
from engine.common import SheetModel
from engine.dice.results import RollResult
from engine.errors import EngineError, RuleViolation
from engine.systems import cliche, fate, lifegear, matter, storyteller
from engine.systems.base import Ask
from engine.systems.fate.models import SKILL_NAMES_RU
from engine.systems.matter.rolls import CHANCE_NOTATION
from engine.systems.matter.rolls import pool_notation as matter_notation
from engine.systems.matter.states import state_message_key
from engine.systems.matter.traits import Skill as MatterSkill
from engine.systems.storyteller.rolls import (
    DEFAULT_DIFFICULTY,
    MAX_POOL,
    build_pool,
    check_difficulty,
)
from engine.systems.storyteller.rolls import pool_notation as storyteller_notation
from engine.systems.storyteller.traits import ABILITIES, Attribute, trait_name
from engine.text import Msg, msg, register_messages

MAX_NUMBER: Final = 100
"""Largest modifier, difficulty, target or pool a shorthand takes (keeps notation sane)."""
MAX_MATTER_POOL: Final = 50
MAX_SUGGESTIONS: Final = 5
MAX_LISTED: Final = 40

register_messages(
    {
        "sheetroll.empty": {
            "ru": "Что бросить? Напишите черту с листа, например: /r {example}",
            "en": "What to roll? Name a trait from the sheet, e.g. /r {example}",
        },
        "sheetroll.unknown": {
            "ru": "На листе нет «{name}». Может быть: {matches}?",
            "en": "The sheet has no “{name}”. Did you mean: {matches}?",
        },
        "sheetroll.unknown_none": {
            "ru": "На листе нет «{name}». Есть: {known}.",
            "en": "The sheet has no “{name}”. It has: {known}.",
        },
        "sheetroll.unknown_empty": {
            "ru": "На листе нет «{name}», и бросать с него пока нечего.",
            "en": "The sheet has no “{name}”, and nothing on it to roll yet.",
        },
        "sheetroll.number_too_big": {
            "ru": "Слишком большое число: {value} (не больше {limit}).",
            "en": "Number too large: {value} (at most {limit}).",
        },
        "sheetroll.no_target_here": {
            "ru": "В этой системе у броска нет сложности: мастер добавляет или убирает кубики.",
            "en": "This system's rolls have no difficulty: the GM adds or removes dice.",
        },
        "sheetroll.storyteller.need_attribute": {
            "ru": "Пул — это один атрибут и не больше одной способности: /r Ловкость+Атлетизм 7",
            "en": "A pool is one attribute and at most one ability: /r Dexterity+Athletics 7",
        },
        "sheetroll.storyteller.no_dice": {
            "ru": "Кубиков в пуле: {dice} — бросать нечего, это автоматическая неудача.",
            "en": "The pool has {dice} dice: nothing to roll, an automatic failure.",
        },
        "sheetroll.storyteller.wounds": {"ru": "раны {value}", "en": "wounds {value}"},
        "sheetroll.matter.pool": {"ru": "Пул {dice}", "en": "Pool of {dice}"},
        "sheetroll.matter.chance": {"ru": "Шанс-бросок", "en": "Chance roll"},
        "sheetroll.matter.one_die": {
            "ru": "{title} → 1 кубик (состояние «{state}»)",
            "en": "{title} → one die (state “{state}”)",
        },
    }
)


@dataclass(frozen=True)
class SheetRoll:
    """A roll planned from a sheet: what the dice core rolls and logs, and what it means."""

    notation: str  # dice notation for the dice core and the log: "4dF+3", "7d10>=6f1", …
    title: str  # what was rolled, for people: "Атлетика (+3)", "Ловкость+Атлетизм"
    target: int | None  # difficulty / target number / defence, when the player gave one
    system: str


class SheetRollError(EngineError):
    """The shorthand cannot be read against this sheet (unknown name, bad number …)."""


# --- reading the text ------------------------------------------------------------------------

_DASHES: Final = str.maketrans({"−": "-", "–": "-", "—": "-"})
_VERSUS: Final = re.compile(r"(?:^|\s)(?:vs\.?|против|пр\.)\s*([+-]?\d+)\s*$", re.IGNORECASE)
_TRAILING: Final = re.compile(r"(?<=[^\s+-])\s+(\d+)\s*$")
_MODIFIERS: Final = re.compile(r"^(.*?)((?:\s*[+-]\s*\d+)+)\s*$", re.DOTALL)
_MODIFIER: Final = re.compile(r"([+-])\s*(\d+)")
_INTEGER: Final = re.compile(r"[+-]?\d+")


def normalize(name: str) -> str:
    """The form names are compared in: case-folded, «ё» as «е», single spaces."""
    return " ".join(name.casefold().replace("ё", "е").split())


def _clean(text: str) -> str:
    return " ".join(text.translate(_DASHES).split())


def _number(raw: str) -> int:
    value = int(raw)
    if abs(value) > MAX_NUMBER:
        raise SheetRollError(msg("sheetroll.number_too_big", value=value, limit=MAX_NUMBER))
    return value


def _split_target(text: str, *, trailing: bool = True) -> tuple[str, int | None]:
    """``name vs N`` / ``name против N`` / (if ``trailing``) ``name N`` → (name, N)."""
    found = _VERSUS.search(text)
    if found is not None:
        return text[: found.start()].strip(), _number(found.group(1))
    if trailing:
        found = _TRAILING.search(text)
        if found is not None:
            return text[: found.start()].strip(), _number(found.group(1))
    return text, None


def _split_modifiers(text: str) -> tuple[str, int]:
    """``name +1 -2`` → (name, −1); no modifiers → (text, 0)."""
    found = _MODIFIERS.match(text)
    if found is None or not found.group(1).strip():
        return text, 0
    total = sum(
        _number(digits) * (-1 if sign == "-" else 1)
        for sign, digits in _MODIFIER.findall(found.group(2))
    )
    return found.group(1).strip(), total


def _signed_ascii(value: int) -> str:
    return f"{value:+d}"


class _Names:
    """Trait names in both languages → a key; finds one or answers with the closest names."""

    def __init__(self, entries: Iterable[tuple[str, Iterable[str]]]) -> None:
        self._keys: dict[str, str] = {}
        self._shown: dict[str, str] = {}
        for key, names in entries:
            for name in names:
                folded = normalize(name)
                if folded and folded not in self._keys:
                    self._keys[folded] = key
                    self._shown[folded] = name

    def find(self, name: str) -> str | None:
        return self._keys.get(normalize(name))

    def get(self, name: str, listed: Iterable[str]) -> str:
        """The key of ``name``; ``SheetRollError`` naming the closest matches otherwise."""
        key = self.find(name)
        if key is not None:
            return key
        shown = escape(name.strip()[:64] or "?", quote=False)
        close = difflib.get_close_matches(
            normalize(name), list(self._keys), n=MAX_SUGGESTIONS, cutoff=0.6
        )
        if close:
            matches = escape(", ".join(dict.fromkeys(self._shown[c] for c in close)), quote=False)
            raise SheetRollError(msg("sheetroll.unknown", name=shown, matches=matches))
        known = [escape(k, quote=False) for k in dict.fromkeys(listed)]
        if not known:
            raise SheetRollError(msg("sheetroll.unknown_empty", name=shown))
        more = ", …" if len(known) > MAX_LISTED else ""
        raise SheetRollError(
            msg("sheetroll.unknown_none", name=shown, known=", ".join(known[:MAX_LISTED]) + more)
        )


def _html(text: str) -> str:
    """User-typed text inside an error message: the bot replies errors as Telegram HTML."""
    return escape(text, quote=False)


def _render(message: Msg, locale: str) -> str:
    return message.render(locale)


def _require(text: str, example: str) -> None:
    if not text:
        raise SheetRollError(msg("sheetroll.empty", example=example))


# --- fate ------------------------------------------------------------------------------------


def _fate_names() -> _Names:
    return _Names(
        (skill.value, (SKILL_NAMES_RU[skill], _render(msg(f"fate.skill.{skill.value}"), "en")))
        for skill in fate.Skill
    )


_LADDER_NAMES: Final = _Names((str(value), (ru, en)) for value, (ru, en) in fate.LADDER.items())


def _fate_target(text: str) -> tuple[str, int | None]:
    """As ``_split_target``, also reading a ladder name: ``Атлетика vs Хорошо``."""
    words = re.match(r"^(.*?)\s+(?:vs\.?|против)\s+(\S.*?)\s*$", text, re.IGNORECASE)
    if words is not None:
        value = _LADDER_NAMES.find(words.group(2).rstrip("!"))
        if value is None:
            value = _LADDER_NAMES.find(words.group(2))
        if value is not None:
            return words.group(1), int(value)
    return _split_target(text)


def _plan_fate(character: fate.Character, text: str, locale: str) -> SheetRoll:
    rest, target = _fate_target(text)
    name, modifier = _split_modifiers(rest)
    _require(name, "Атлетика vs 2" if locale == "ru" else "Athletics vs 2")
    names = _fate_names()
    skill = fate.Skill(names.get(name, (_skill_label(s, locale) for s in fate.Skill)))
    value = character.skill(skill)
    title = f"{_skill_label(skill, locale)} ({fate.signed(value)})"
    if modifier:
        title += f" {_signed_ascii(modifier)}"
    return SheetRoll(fate.fate_notation(value + modifier), title, target, "fate")


def _skill_label(skill: fate.Skill, locale: str) -> str:
    return _render(msg(f"fate.skill.{skill.value}"), locale)


# --- storyteller -----------------------------------------------------------------------------

_ATTRIBUTE_PREFIX: Final = "attr:"
_ABILITY_PREFIX: Final = "ability:"
_TERMS: Final = re.compile(r"\s*(\+|-(?=\s*\d))\s*")


def _storyteller_names(character: storyteller.Character) -> _Names:
    entries: list[tuple[str, tuple[str, ...]]] = [
        (
            _ATTRIBUTE_PREFIX + attribute.value,
            (
                _render(trait_name(attribute.value), "ru"),
                _render(trait_name(attribute.value), "en"),
            ),
        )
        for attribute in Attribute
    ]
    keys = list(ABILITIES) + [a.key for a in character.abilities if a.key not in ABILITIES]
    for key in keys:
        ru, en = _render(trait_name(key), "ru"), _render(trait_name(key), "en")
        entries.append((_ABILITY_PREFIX + key, (ru, en, key.replace("_", " "))))
    return _Names(entries)


def _plan_storyteller(character: storyteller.Character, text: str, locale: str) -> SheetRoll:
    rest, difficulty = _split_target(text)
    example = "Ловкость+Атлетизм 7" if locale == "ru" else "Dexterity+Athletics 7"
    _require(rest, example)
    pieces = _TERMS.split(rest)
    names = _storyteller_names(character)
    listed = [_render(trait_name(a.value), locale) for a in Attribute] + [
        _render(trait_name(a.key), locale) for a in character.abilities
    ]
    attributes: list[Attribute] = []
    abilities: list[str] = []
    modifier = 0
    sign = "+"
    for index, piece in enumerate(pieces):
        if index % 2:
            sign = piece
            continue
        if _INTEGER.fullmatch(piece):
            modifier += _number(piece) * (-1 if sign == "-" else 1)
            continue
        _require(piece, example)
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
    title = _render(trait_name(attributes[0].value), locale)
    if ability is not None:
        title += "+" + _render(trait_name(ability), locale)
    if modifier:
        title += _signed_ascii(modifier)
    if spec.wound_penalty:
        wounds = msg("sheetroll.storyteller.wounds", value=_signed_ascii(spec.wound_penalty))
        title += f" ({_render(wounds, locale)})"
    notation = storyteller_notation(spec.total, difficulty or DEFAULT_DIFFICULTY)
    return SheetRoll(notation, title, difficulty, "storyteller")


# --- matter ----------------------------------------------------------------------------------

_CHANCE_WORDS: Final = frozenset({"шанс", "chance", "шанс-бросок"})
_MATTER_NAMES: Final[Mapping[str, tuple[str, str]]] = {
    skill.value: (
        _render(msg(f"matter.trait.{skill.value}"), "ru"),
        _render(msg(f"matter.trait.{skill.value}"), "en"),
    )
    for skill in MatterSkill
}


def _matter_label(key: str, locale: str) -> str:
    names = _MATTER_NAMES.get(key)
    if names is None:
        return key
    return names[0] if locale == "ru" else names[1]


def _plan_matter(character: matter.Character, text: str, locale: str) -> SheetRoll:
    if _VERSUS.search(text):
        raise SheetRollError(msg("sheetroll.no_target_here"))
    if normalize(text) in _CHANCE_WORDS:
        return SheetRoll(CHANCE_NOTATION, _render(msg("sheetroll.matter.chance"), locale), None,
                         "matter")  # fmt: skip
    rest, modifier = _split_modifiers(text)
    _require(rest, "Жестокость" if locale == "ru" else "Brutality")
    if _INTEGER.fullmatch(rest):
        dots = _number(rest)
        base = _render(msg("sheetroll.matter.pool", dice=dots), locale)
        pool = dots + modifier
        title = base + (f" {_signed_ascii(modifier)}" if modifier else "")
    else:
        keys = list(dict.fromkeys([*_MATTER_NAMES, *character.skills]))
        names = _Names((key, (*_MATTER_NAMES.get(key, ()), key.replace("_", " "))) for key in keys)
        key = names.get(rest, (_matter_label(k, locale) for k in keys))
        # The engine's pool for this skill now: effective dots, Мини/Жаба's single die.
        dice = matter.action_dice(character, key, modifier=modifier)
        pool = dice.dice
        title = f"{_matter_label(key, locale)} ({dice.dots})"
        title += f" {_signed_ascii(modifier)}" if modifier else ""
        if dice.one_die_by is not None:
            state = _render(msg(state_message_key(dice.one_die_by)), locale)
            return SheetRoll(
                matter_notation(pool),
                _render(msg("sheetroll.matter.one_die", title=title, state=state), locale),
                None,
                "matter",
            )
    if pool <= 0:
        chance = _render(msg("sheetroll.matter.chance"), locale)
        return SheetRoll(CHANCE_NOTATION, f"{title} → {chance}", None, "matter")
    if pool > MAX_MATTER_POOL:
        raise SheetRollError(msg("sheetroll.number_too_big", value=pool, limit=MAX_MATTER_POOL))
    return SheetRoll(matter_notation(pool), title, None, "matter")


# --- cliche and lifegear: user-typed names ---------------------------------------------------


def _split_user_named(text: str, known: Iterable[str]) -> tuple[str, int | None]:
    """A whole text that is a known name stays whole (names may end in digits)."""
    if normalize(text) in {normalize(k) for k in known}:
        return text, None
    return _split_target(text)


def _plan_cliche(character: cliche.Character, text: str, locale: str) -> SheetRoll:
    names = [c.name for c in character.cliches]
    rest, target = _split_user_named(text, names)
    _require(rest, _html(names[0]) if names else "Солдат vs 10")
    index = _Names((str(i), (c.name,)) for i, c in enumerate(character.cliches))
    found = character.cliches[int(index.get(rest, names))]
    if found.armor:
        raise RuleViolation(msg("cliche.roll.armor_cannot_roll", name=_html(found.name)))
    dice = cliche.effective_dice(found)
    if dice < 1:
        raise RuleViolation(msg("cliche.roll.cliche_unusable", name=_html(found.name)))
    if target is not None and target < 0:
        raise SheetRollError(msg("sheetroll.number_too_big", value=target, limit=MAX_NUMBER))
    return SheetRoll(f"{dice}d6", f"{found.name} ({dice})", target, "cliche")


def _plan_lifegear(character: lifegear.Character, text: str, locale: str) -> SheetRoll:
    names = [s.name for s in character.stats]
    rest, target = _split_user_named(text, names)
    _require(rest, _html(names[0]) if names else "Стрельба vs 10")
    index = _Names((str(i), (s.name,)) for i, s in enumerate(character.stats))
    stat = character.stats[int(index.get(rest, names))]
    if target is not None and target < 0:
        raise SheetRollError(msg("sheetroll.number_too_big", value=target, limit=MAX_NUMBER))
    notation = lifegear.parse_dice(stat.dice).render()
    return SheetRoll(notation, f"{stat.name} ({notation})", target, "lifegear")


# --- the API ---------------------------------------------------------------------------------


def plan_sheet_roll(system: str, character: SheetModel, text: str, locale: str) -> SheetRoll:
    """What ``/r <text>`` rolls for this character in ``system``.

    Raises ``EngineError`` (a ``SheetRollError`` or the engine's own ``RuleViolation``) with a
    message fit for the player; an unknown name lists the closest names.
    """
    cleaned = _clean(text)
    if isinstance(character, fate.Character) and system == "fate":
        return _plan_fate(character, cleaned, locale)
    if isinstance(character, storyteller.Character) and system == "storyteller":
        return _plan_storyteller(character, cleaned, locale)
    if isinstance(character, matter.Character) and system == "matter":
        return _plan_matter(character, cleaned, locale)
    if isinstance(character, cliche.Character) and system == "cliche":
        return _plan_cliche(character, cleaned, locale)
    if isinstance(character, lifegear.Character) and system == "lifegear":
        return _plan_lifegear(character, cleaned, locale)
    raise ValueError(f"no sheet rolls for system {system!r} with {type(character).__name__}")


def prefers_sheet_roll(system: str, text: str) -> bool:
    """Text that is valid dice notation yet means a sheet roll in ``system``.

    In ``matter`` a bare number is a pool (``/r 5`` → ``5d10>=7!``, not the constant 5) and
    ``шанс``/``chance`` is the chance roll read with its outcome words; ``/r`` should offer such
    text to ``plan_sheet_roll`` first when the sender has an active character.
    """
    if system != "matter":
        return False
    cleaned = normalize(_clean(text))
    return cleaned in _CHANCE_WORDS or _INTEGER.fullmatch(cleaned.replace(" ", "")) is not None


def outcome_words(roll: SheetRoll, result: RollResult, locale: str) -> str:
    """The system's outcome words for a rolled plan (ladder and shifts, degree, grade …)."""
    reading = rules_for(roll.system).read(Ask(roll.notation, roll.target), result)
    return reading.words.render(locale) if reading is not None else ""
