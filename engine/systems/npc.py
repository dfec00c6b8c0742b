"""The GM's quick NPC form, shared by the systems: one line such as
``Громила: Драка 3, Атлетика 2`` (a name, a colon, items separated by commas or semicolons).

Each system reads the items in its own terms (``engine.systems.<system>.npc``): a trait and a
number, or a bare text (an aspect, a concept, a note). A line with no colon and a trait with a
number is a nameless mook (the caller supplies its name); with no colon and no number it is a
name alone. Everything is pure: the text in, a sheet out, or an ``NpcFormError`` that says
what to fix.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, Protocol

from engine.common import SheetModel
from engine.errors import EngineError
from engine.systems.sheet_rolls import Names, normalize
from engine.text import Msg, msg, register_messages

NAME_MAX: Final = 64
ITEMS_MAX: Final = 24
LABEL_MAX: Final = 64
SUGGESTIONS: Final = 3

register_messages(
    {
        "npc.form.empty": {
            "ru": "Напишите НПС одной строкой, например: /npc {example}",
            "en": "Write the NPC in one line, e.g. /npc {example}",
        },
        "npc.form.long_name": {
            "ru": "Имя длиннее {limit} символов.",
            "en": "The name is longer than {limit} characters.",
        },
        "npc.form.too_many": {
            "ru": "Слишком много черт: не больше {limit}.",
            "en": "Too many traits: {limit} at most.",
        },
        "npc.form.unknown": {
            "ru": "Не знаю черту «{label}». Может быть: {matches}?",
            "en": "Unknown trait «{label}». Perhaps: {matches}?",
        },
        "npc.form.unknown_none": {
            "ru": "Не знаю черту «{label}». Пример: /npc {example}",
            "en": "Unknown trait «{label}». Example: /npc {example}",
        },
        "npc.form.range": {
            "ru": "«{label}»: нужно число от {low} до {high}, а не {value}.",
            "en": "«{label}»: a number from {low} to {high} is needed, not {value}.",
        },
        "npc.form.number_needed": {
            "ru": "«{label}»: после названия нужно число, например «{label} 2».",
            "en": "«{label}»: a number must follow, e.g. «{label} 2».",
        },
        "npc.form.twice": {
            "ru": "«{label}» указано дважды.",
            "en": "«{label}» is given twice.",
        },
        "npc.form.required": {
            "ru": "Не хватает: {what}. Пример: /npc {example}",
            "en": "Missing: {what}. Example: /npc {example}",
        },
    }
)


class NpcFormError(EngineError):
    """The quick NPC line cannot be read; the message says what to fix."""


@dataclass(frozen=True, slots=True)
class NpcItem:
    """One item of the line: ``label`` as typed (spaces collapsed), ``value`` its number or
    None for a bare text."""

    label: str
    value: int | None


@dataclass(frozen=True, slots=True)
class NpcLine:
    """The line split: ``name`` None for a nameless mook."""

    name: str | None
    items: tuple[NpcItem, ...]


class NpcForm(Protocol):
    """A system's quick NPC form."""

    def example(self, locale: str) -> str:
        """One example line (without ``/npc``) in the locale's words."""
        ...

    def build(self, text: str, default_name: str) -> SheetModel:
        """The NPC's sheet from the line; ``default_name`` names a nameless one. Raises
        ``NpcFormError``."""
        ...


_ITEM: Final = re.compile(r"^(?P<label>.*?)\s*[:=]?\s*(?P<value>[+\-−–]?\d{1,4})$")
_SEPARATORS: Final = re.compile(r"[,;\n]")


def _item(raw: str) -> NpcItem:
    text = " ".join(raw.split())
    found = _ITEM.match(text)
    if found is None or not found["label"]:
        return NpcItem(text[:LABEL_MAX], None)
    value = int(found["value"].replace("−", "-").replace("–", "-"))
    return NpcItem(found["label"][:LABEL_MAX], value)


def split_line(text: str, example: str) -> NpcLine:
    """``Имя: a 1, b 2`` → the name and the items; ``a 1, b 2`` → a nameless line; ``Имя``
    alone → a name with no items."""
    text = text.strip()
    if not text:
        raise NpcFormError(msg("npc.form.empty", example=example))
    head, colon, rest = text.partition(":")
    if colon:
        name: str | None = " ".join(head.split()) or None
        items = [_item(p) for p in _SEPARATORS.split(rest) if p.strip()]
    else:
        items = [_item(p) for p in _SEPARATORS.split(text) if p.strip()]
        if all(i.value is None for i in items):
            # No trait with a number: the whole text is a name.
            name, items = " ".join(text.split()), []
        else:
            name = None
    if name is not None and len(name) > NAME_MAX:
        raise NpcFormError(msg("npc.form.long_name", limit=NAME_MAX))
    if len(items) > ITEMS_MAX:
        raise NpcFormError(msg("npc.form.too_many", limit=ITEMS_MAX))
    return NpcLine(name, tuple(items))


class Vocabulary(Names):
    """A system's trait names in both languages → its keys (``Names`` with the NPC form's
    refusal)."""

    def __init__(self, entries: Iterable[tuple[str, Iterable[str]]], example: str) -> None:
        super().__init__(entries)
        self.example = example

    def get(self, label: str) -> str:  # type: ignore[override]
        """The key of ``label``; an ``NpcFormError`` with the closest names otherwise."""
        key = self.find(label)
        if key is not None:
            return key
        close = difflib.get_close_matches(
            normalize(label), list(self._keys), n=SUGGESTIONS, cutoff=0.6
        )
        if close:
            matches = ", ".join(dict.fromkeys(self._shown[c] for c in close))
            raise NpcFormError(msg("npc.form.unknown", label=label, matches=matches))
        raise NpcFormError(msg("npc.form.unknown_none", label=label, example=self.example))


def number(item: NpcItem, low: int, high: int) -> int:
    """The item's number, checked to lie in ``low..high``."""
    if item.value is None:
        raise NpcFormError(msg("npc.form.number_needed", label=item.label))
    if not low <= item.value <= high:
        raise NpcFormError(
            msg("npc.form.range", label=item.label, low=low, high=high, value=item.value)
        )
    return item.value


def once(seen: set[str], key: str, item: NpcItem) -> None:
    """Refuse a trait given twice in one line."""
    if key in seen:
        raise NpcFormError(msg("npc.form.twice", label=item.label))
    seen.add(key)


def required(what: Msg, example: str) -> NpcFormError:
    return NpcFormError(msg("npc.form.required", what=what, example=example))
