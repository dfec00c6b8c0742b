"""Sheet-aware ``/r`` shorthands, the part every system shares: the plan a system returns
(``SheetRoll``), its one error (``SheetRollError``) and the reading of names, numbers, targets
and modifiers. Each system reads its own shorthand in ``engine.systems.<system>.sheet_rolls``
(``SHEET_ROLLS``, a ``base.SheetRolls``):

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
from collections.abc import Iterable
from dataclasses import dataclass
from html import escape, unescape
from typing import TYPE_CHECKING, Final

from engine.errors import EngineError
from engine.text import Msg, msg, register_messages

if TYPE_CHECKING:  # base imports this module
    from engine.common import SheetModel
    from engine.systems.base import SheetRolls

MAX_NUMBER: Final = 100
"""Largest modifier, difficulty, target or pool a shorthand takes (keeps notation sane)."""
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
        "sheetroll.versus_empty": {
            "ru": "После «{word}» нужно число: /r {name} {word} {example}",
            "en": "“{word}” needs a number after it: /r {name} {word} {example}",
        },
        "sheetroll.no_target_here": {
            "ru": "В этой системе у броска нет сложности: мастер добавляет или убирает кубики.",
            "en": "This system's rolls have no difficulty: the GM adds or removes dice.",
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
VERSUS: Final = re.compile(r"(?:^|\s)(?:vs\.?|против|пр\.)\s*([+-]?\d+)\s*$", re.IGNORECASE)
VERSUS_EMPTY: Final = re.compile(r"(?:^|\s)(vs\.?|против|пр\.)\s*$", re.IGNORECASE)
_TRAILING: Final = re.compile(r"(?<=[^\s+-])\s+(\d+)\s*$")
_MODIFIERS: Final = re.compile(r"^(.*?)((?:\s*[+-]\s*\d+)+)\s*$", re.DOTALL)
_MODIFIER: Final = re.compile(r"([+-])\s*(\d+)")
INTEGER: Final = re.compile(r"[+-]?\d+")


def normalize(name: str) -> str:
    """The form names are compared in: case-folded, «ё» as «е», single spaces."""
    return " ".join(name.casefold().replace("ё", "е").split())


def clean(text: str) -> str:
    return " ".join(text.translate(_DASHES).split())


def number(raw: str) -> int:
    value = int(raw)
    if abs(value) > MAX_NUMBER:
        raise SheetRollError(msg("sheetroll.number_too_big", value=value, limit=MAX_NUMBER))
    return value


def split_target(text: str, *, trailing: bool = True, example: int = 10) -> tuple[str, int | None]:
    """``name vs N`` / ``name против N`` / (if ``trailing``) ``name N`` → (name, N); a ``vs``
    with no number after it is refused with ``example`` as the number to write."""
    found = VERSUS.search(text)
    if found is not None:
        return text[: found.start()].strip(), number(found.group(1))
    empty = VERSUS_EMPTY.search(text)
    if empty is not None:
        name = html(text[: empty.start()].strip() or "…")
        raise SheetRollError(
            msg("sheetroll.versus_empty", word=html(empty.group(1)), name=name, example=example)
        )
    if trailing:
        found = _TRAILING.search(text)
        if found is not None:
            return text[: found.start()].strip(), number(found.group(1))
    return text, None


def split_modifiers(text: str) -> tuple[str, int]:
    """``name +1 -2`` → (name, −1); no modifiers → (text, 0)."""
    found = _MODIFIERS.match(text)
    if found is None or not found.group(1).strip():
        return text, 0
    total = sum(
        number(digits) * (-1 if sign == "-" else 1)
        for sign, digits in _MODIFIER.findall(found.group(2))
    )
    return found.group(1).strip(), total


class Names:
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
        close = self._close(normalize(name))
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

    def _close(self, folded: str) -> list[str]:
        """The names ``folded`` begins (``алх`` → Алхимия), then those spelled nearly like it
        (``атлетка``). At 0.6 a different word of a like ending passed too («воровство» →
        Руководство, «магия» → Эмпатия)."""
        begun = [k for k in self._keys if folded and k.startswith(folded)]
        near = sorted(((_likeness(folded, k), k) for k in self._keys), key=lambda pair: -pair[0])
        alike = [k for score, k in near if score >= 0.7]
        return list(dict.fromkeys([*begun, *alike]))[:MAX_SUGGESTIONS]


def _likeness(a: str, b: str) -> float:
    """How alike two names are, the same both ways (``difflib``'s ratio is not: «воровство»
    is 0.6 like «руководство» one way and 0.7 the other)."""
    return min(
        difflib.SequenceMatcher(None, a, b).ratio(), difflib.SequenceMatcher(None, b, a).ratio()
    )


def html(text: str) -> str:
    """User-typed text inside an error message: the bot replies errors as Telegram HTML."""
    return escape(text, quote=False)


def render(message: Msg, locale: str) -> str:
    return message.render(locale)


def shorthand_example(rolls: SheetRolls, character: SheetModel, locale: str) -> str | None:
    """The system's own example of its shorthand (what an empty ``/r`` suggests), for usage
    lines that should read in the game's own terms (``Атлетика vs 2`` in Fate, not 3d6)."""
    try:
        rolls.plan(character, "", locale)
    except SheetRollError as error:
        example = error.msg.params.get("example")  # HTML there (a name from the sheet)
        return unescape(str(example)) if example else None
    return None


def require(text: str, example: str) -> None:
    if not text:
        raise SheetRollError(msg("sheetroll.empty", example=example))


def split_user_named(text: str, known: Iterable[str]) -> tuple[str, int | None]:
    """A whole text that is a known name stays whole (names may end in digits)."""
    if normalize(text) in {normalize(k) for k in known}:
        return text, None
    return split_target(text)


def check_target(target: int | None) -> None:
    """A target number or defence below zero cannot be met or missed: refused."""
    if target is not None and target < 0:
        raise SheetRollError(msg("sheetroll.number_too_big", value=target, limit=MAX_NUMBER))
