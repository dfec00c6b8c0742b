"""A role as the GM types it (``/roles``): its max lives as a number, its stats one per line
(``Shooting: 1d8+3``), its gear one item per message (``Bow``, ``Bow: 1d6``, ``Chainmail:
absorbs one hit``).

Pure reading rules: a refused line comes back typed (``RefusedLine``), and the editor says
why in its own words; a dice expression's reason is the dice parser's own message.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from .creation import MAX_LIVES_LIMIT
from .dice import parse_dice
from .errors import DiceExpressionError
from .models import Item, ItemKind, Role, Stat

NAME_MAX: Final = 64  # a stat's or an item's name: one line, as a character's name
DESCRIPTION_MAX: Final = 200
MAX_STATS: Final = 12
MAX_GEAR: Final = MAX_LIVES_LIMIT  # usable gear never exceeds the max lives


class Problem(StrEnum):
    """Why a typed stat line is refused (besides its dice, ``DiceExpressionError``)."""

    FORM = "form"  # not ``Name: dice`` (an item: not ``Name`` or ``Name: dice or words``)
    DUPLICATE = "duplicate"  # a stat of that name is listed already
    TOO_MANY = "too_many"  # ``MAX_STATS`` are listed already (items: ``MAX_GEAR``)


@dataclass(frozen=True)
class RefusedLine:
    """A stat line not taken: the line as typed, its cleaned name (if any), and why."""

    line: str
    name: str
    problem: Problem | DiceExpressionError


def one_line(raw: str, limit: int) -> str | None:
    """A name: one line of 1..``limit`` characters, not a chat command (``/…``)."""
    name = " ".join(raw.split())
    return name if 0 < len(name) <= limit and not name.startswith("/") else None


def split_pair(line: str) -> tuple[str, str]:
    """``Name: rest`` or ``Name = rest``; without a separator the last word is the rest."""
    for sep in (":", "="):
        if sep in line:
            head, _, tail = line.partition(sep)
            return head.strip(), tail.strip()
    head, _, tail = line.strip().rpartition(" ")
    return head.strip(), tail.strip()


def read_stat(line: str) -> Stat | RefusedLine:
    """A stat from ``Shooting: 1d8+3`` (its dice in canonical form), or why not."""
    raw, dice = split_pair(line)
    name = one_line(raw, NAME_MAX)
    if name is None or not dice:
        return RefusedLine(line, name or "", Problem.FORM)
    try:
        return Stat(name=name, dice=parse_dice(dice).render())
    except DiceExpressionError as error:
        return RefusedLine(line, name, error)


def add_stats(stats: Sequence[Stat], text: str) -> tuple[tuple[Stat, ...], list[RefusedLine]]:
    """``stats`` with every good line of ``text`` added (one stat a line), and the lines
    refused; a good line is kept even when another is refused, and none past ``MAX_STATS``."""
    kept, refused = list(stats), []
    for line in filter(None, (raw.strip() for raw in text.splitlines())):
        read = read_stat(line)
        if isinstance(read, RefusedLine):
            refused.append(read)
        elif any(s.name.casefold() == read.name.casefold() for s in kept):
            refused.append(RefusedLine(line, read.name, Problem.DUPLICATE))
        elif len(kept) >= MAX_STATS:
            refused.append(RefusedLine(line, read.name, Problem.TOO_MANY))
            break
        else:
            kept.append(read)
    return tuple(kept), refused


_STAT_OR: Final = re.compile(r"\s*(?:/|,|\bили\b|\bor\b)\s*", re.IGNORECASE)


def _weapon_stats(rest: str, stats: Sequence[str]) -> tuple[tuple[str, ...], str] | None:
    """``Ловкость + 1d6``, ``Ловкость или Стрельба + 1d6`` (the seed's bow) or ``Ловкость``:
    the role's stats the weapon is used with and its own dice; None if ``rest`` is not that."""
    known = {s.casefold(): s for s in stats}
    names, plus, dice = rest.partition("+")
    chosen = tuple(known.get(n.strip().casefold(), "") for n in _STAT_OR.split(names))
    if not chosen or not all(chosen):
        return None
    if not plus:
        return tuple(dict.fromkeys(chosen)), ""
    try:
        return tuple(dict.fromkeys(chosen)), parse_dice(dice).render()
    except DiceExpressionError:
        return None


def read_item(text: str, kind: ItemKind, item_id: str, stats: Sequence[str] = ()) -> Item | None:
    """``Bow``, ``Bow: 1d6`` (dice) or ``Chainmail: absorbs one hit`` (a description); a
    weapon may name the role's ``stats`` it is used with: ``Bow: Agility or Shooting + 1d6``."""
    raw, _, rest = text.partition(":")
    name = one_line(raw, NAME_MAX)
    if name is None:
        return None
    rest = rest.strip()
    dice, description = "", ""
    if rest and kind is ItemKind.WEAPON and (read := _weapon_stats(rest, stats)) is not None:
        return Item(id=item_id, name=name, kind=kind, stats=read[0], dice=read[1])
    if rest:
        try:
            dice = parse_dice(rest).render()
        except DiceExpressionError:
            description = rest if len(rest) <= DESCRIPTION_MAX and rest[0] != "/" else ""
            if not description:
                return None
    return Item(id=item_id, name=name, kind=kind, dice=dice, description=description)


def next_item_id(used: Sequence[str]) -> str:
    """Short ASCII ids (``i1``, ``i2``…): never a name, so callback data stays small."""
    taken = set(used)
    n = len(used) + 1
    while f"i{n}" in taken:
        n += 1
    return f"i{n}"


def add_item(role: Role, text: str, kind: ItemKind) -> Role | Problem:
    """``role`` with one more item as typed (``read_item``: the next free id, a weapon's stats
    among the role's); ``Problem.TOO_MANY`` past ``MAX_GEAR`` items, ``Problem.FORM`` when the
    text is not an item."""
    if len(role.gear) >= MAX_GEAR:
        return Problem.TOO_MANY
    item_id = next_item_id([item.id for item in role.gear])
    item = read_item(text, kind, item_id, [stat.name for stat in role.stats])
    if item is None:
        return Problem.FORM
    return role.model_copy(update={"gear": (*role.gear, item)})


def read_lives(text: str) -> int | None:
    """Max lives typed as a whole number from 1 to ``MAX_LIVES_LIMIT``, or None."""
    raw = text.strip()
    # isdecimal, not isdigit: "²" is a digit that int() refuses
    value = int(raw) if raw.isdecimal() and len(raw) <= 3 else 0
    return value if 1 <= value <= MAX_LIVES_LIMIT else None
