"""One way to find a character by the name a command gives: the exact name (case aside, ё as
е), else the one name that starts with it; otherwise a typed answer carrying the names to
choose from. Every command that takes a name uses it (/sheet, /res, /history, /export, /join,
/leave), and one view renders what did not resolve."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from db.repositories.games import CharacterDTO
from engine.common import name_key

# The liveliest first: a returned or retired draft never stands beside the live character
# of the same name.
_STATUS_ORDER = {"active": 0, "pending": 1, "returned": 2, "retired": 3}


# A name as compared: case, ё/е and runs of spaces aside. The one fold the database's
# unique index of active names compares by (``characters.name_key``).
fold = name_key


def distinct(characters: Sequence[CharacterDTO]) -> list[CharacterDTO]:
    """One character per name in a game (the liveliest, then the newest), in the given order."""
    best: dict[tuple[int, str], CharacterDTO] = {}
    for c in characters:
        key = (c.game_id, fold(c.name))
        held = best.get(key)
        if held is None or _rank(c) < _rank(held):
            best[key] = c
    kept = {c.id for c in best.values()}
    return [c for c in characters if c.id in kept]


def _rank(c: CharacterDTO) -> tuple[int, int]:
    return _STATUS_ORDER.get(c.status, 9), -c.id


@dataclass(frozen=True)
class Found:
    character: CharacterDTO


@dataclass(frozen=True)
class NotFound:
    query: str
    names: tuple[str, ...]  # the names there are to choose from


@dataclass(frozen=True)
class Ambiguous:
    query: str
    matches: tuple[CharacterDTO, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.matches)


Resolved = Found | NotFound | Ambiguous


def resolve(characters: Sequence[CharacterDTO], name: str) -> Resolved:
    """``name`` among ``characters``: exact, then a unique prefix, else not found / ambiguous."""
    pool = distinct(characters)
    wanted = fold(name)
    query = " ".join(name.split())[:64]
    if not wanted:
        return NotFound(query, tuple(c.name for c in pool))
    for matches in (
        [c for c in pool if fold(c.name) == wanted],
        [c for c in pool if fold(c.name).startswith(wanted)],
    ):
        if len(matches) == 1:
            return Found(matches[0])
        if matches:
            return Ambiguous(query, tuple(matches))
    return NotFound(query, tuple(c.name for c in pool))
