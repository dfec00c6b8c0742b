"""A /r message with several rolls: Dice Maiden's roll sets (``6 4d6k3``), rolls separated by
``;`` (``1d20+5; 2d6+3``) and its flags (``s``: a short answer; ``ul``: unsorted, which every
answer here is), read before the expression as Dice Maiden documents them, and also where its
users put them: before any of the ``;`` rolls (its own example ``4d100 ; 10d6 e6 k8 +4; 3d10
k2; ul 3d100``) or after a roll (``4d6 s``). One request, one expression per roll, each logged
on its own.

``parse_request`` returns None for a text that is none of these, so the common single roll
keeps its path (``parse``) untouched.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from engine.dice.ast import Expression
from engine.dice.errors import DiceError, DiceLimitError, hint_error, too_long_error
from engine.dice.hints import DICE_TERM
from engine.dice.parser import MAX_DICE, MAX_LENGTH, parse
from engine.text import msg

MAX_SETS: Final = 20
MAX_ROLLS: Final = 4
# Worth a look: a ";", a number and a space, or a flag word first or last.
_MAYBE: Final = re.compile(r";|^\s*(?:\d{1,7}\s+\S|(?:s|p|ul|nr)\s)|\s(?:s|ul)\s*$", re.I)
_FLAG: Final = re.compile(r"^(s|p|ul|nr)\s+", re.I)
_TRAILING_FLAG: Final = re.compile(r"\s+(s|ul)\s*$", re.I)
_SET: Final = re.compile(r"^(\d{1,7})\s+(\S.*)$", re.S)


@dataclass(frozen=True)
class RollRequest:
    """``texts[i]`` is what roll i logs (``parse(texts[i])`` is ``expressions[i]``)."""

    texts: tuple[str, ...]
    expressions: tuple[Expression, ...]
    is_set: bool  # the same expression N times
    short: bool  # Dice Maiden's "s": totals only


def parse_request(text: str) -> RollRequest | None:
    """The rolls of a multi-roll text, None for an ordinary one; raises ``DiceError``."""
    if _MAYBE.search(text) is None:
        return None
    rest = text.strip()
    if len(rest) > MAX_LENGTH:
        raise too_long_error(len(rest), MAX_LENGTH)
    rest, short, flagged = _flags(rest)
    if ";" in rest:
        parts = [part.strip() for part in rest.split(";")]
        if len(parts) > MAX_ROLLS:
            raise hint_error(
                0, ";", f"через «;» можно не больше {MAX_ROLLS} бросков",
                f"at most {MAX_ROLLS} rolls separated by “;”",
            )  # fmt: skip
        if not all(parts):
            raise hint_error(0, ";", "между «;» нужен бросок", "a roll is needed between “;”")
        read = [_flags(part) for part in parts]
        if not all(text for text, _, _ in read):
            raise hint_error(0, ";", "между «;» нужен бросок", "a roll is needed between “;”")
        short = short or any(part_short for _, part_short, _ in read)
        return _checked(tuple(text for text, _, _ in read), is_set=False, short=short)
    found = _SET.match(rest)
    if found is not None and _is_set(rest, found[2]):
        count = int(found[1])
        if not 2 <= count <= MAX_SETS:
            raise hint_error(
                0, found[1], f"в наборе можно от 2 до {MAX_SETS} бросков",
                f"a roll set takes 2 to {MAX_SETS} rolls",
            )  # fmt: skip
        return _checked((found[2].strip(),) * count, is_set=True, short=short)
    if flagged:
        return _checked((rest,), is_set=False, short=short)
    return None


def _flags(text: str) -> tuple[str, bool, bool]:
    """The text without its flags, whether one was ``s``, whether there were any. Leading
    ``p`` and ``nr`` are refused with what to write instead."""
    rest = text.strip()
    short = flagged = False
    while (flag := _FLAG.match(rest)) is not None:
        word = flag[1].lower()
        if word == "p":
            raise hint_error(0, "p", "скрытый бросок — команда /sroll", "a hidden roll is /sroll")
        if word == "nr":
            raise hint_error(0, "nr", "флага nr здесь нет", "there is no nr flag here")
        short = short or word == "s"
        flagged = True
        rest = rest[flag.end() :]
    while (flag := _TRAILING_FLAG.search(rest)) is not None:
        short = short or flag[1].lower() == "s"
        flagged = True
        rest = rest[: flag.start()]
    return rest.strip(), short, flagged


def _is_set(text: str, tail: str) -> bool:
    """``6 4d6``: a number, then an expression with dice (``5 attack`` is a number and a
    label, as always)."""
    if DICE_TERM.search(tail) is None and not tail[:1].isdigit():
        return False
    try:
        parse(text)
    except DiceError:  # the whole text is not one roll: read it as a set
        return True
    return False


def _checked(texts: tuple[str, ...], *, is_set: bool, short: bool) -> RollRequest:
    expressions = tuple(parse(t) for t in texts)
    dice = sum(e.dice_count for e in expressions)
    if dice > MAX_DICE:
        raise DiceLimitError(msg("dice.limit.too_many_dice", count=dice, limit=MAX_DICE))
    return RollRequest(texts, expressions, is_set, short)
