"""Shapes shared by every rule system.

* ``SheetModel`` — base for stored state (character sheets, fight states): a frozen pydantic
  model, so it validates the JSON read back from the database and serialises with
  ``model_dump(mode="json")``. Change it with ``model_copy(update=...)`` and return the copy.
* ``Violation`` — one broken creation rule, as a translatable message; validators return all.
* ``Change`` — one line of a change list ("fate points 1 → 3"), shown in milestone notices.
* ``Severity`` — a violation blocks creation (``ERROR``) or only warns (``WARNING``).
* ``name_key`` — a character's name as names are compared (a game holds one active per key).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from engine.formats import ValueKind
from engine.text import Msg, register_messages

JsonScalar = str | int | float | bool | None

register_messages(
    {
        "sheet.name_taken": {
            "ru": "В игре уже есть «{name}»: дайте персонажу другое имя.",
            "en": "The game already has «{name}»: give the character another name.",
        },
    }
)


def name_key(name: str) -> str:
    """A name as compared: case, ё/е and runs of spaces aside. The database keeps it beside
    each character's name (``characters.name_key``): a game holds one active character per key.
    """
    return " ".join(name.casefold().replace("ё", "е").split())


def name_taken(name: str) -> Violation:
    """Another active character of the game has this name (the wizard stays on its step)."""
    return Violation("name", Msg("sheet.name_taken", {"name": name}))


class SheetModel(BaseModel):
    """Frozen, strict-about-unknown-fields base for everything a system stores."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class Violation:
    """A creation or edit rule that the sheet breaks; ``field`` names where (for the wizard)."""

    field: str
    msg: Msg
    severity: Severity = Severity.ERROR

    def render(self, locale: str) -> str:
        return self.msg.render(locale)


def errors_only(violations: list[Violation]) -> list[Violation]:
    return [v for v in violations if v.severity is Severity.ERROR]


REQUIRED = "required."  # field prefix of points a new player character must spend
NOTE = (
    "note."  # field prefix of a warning that is not about points left unspent (the GM weighs it)
)


def without_required(violations: list[Violation]) -> list[Violation]:
    """An NPC may leave creation points unspent (a mook needs no stunts): ``required.*`` go."""
    return [v for v in violations if not v.field.startswith(REQUIRED)]


@dataclass(frozen=True)
class Change:
    """One changed value: ``what`` names it for people, ``before``/``after`` are JSON scalars;
    ``kind`` says how to show them (``engine.formats.changed_value``)."""

    field: str
    what: Msg
    before: JsonScalar
    after: JsonScalar
    kind: ValueKind = ValueKind.PLAIN
