"""Initiative in a scene or fight: who acts first each turn.

The seed chapter does not cover combat, so this follows classic World of Darkness (Changeling:
The Dreaming 2nd edition), as players of the game expect (DECISION):

* initiative rating = Dexterity + Wits, minus the wound penalty;
* each participant rolls one d10 and adds the rating; the highest total acts first;
* ties go to the higher rating, then keep the order given (the Storyteller's listing);
* an incapacitated (or dead) character rolls no initiative and comes last: it cannot act.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Final, TypeVar

from engine.dice.source import RandomSource, roll_dice

from .health import is_incapacitated, wound_penalty
from .sheet import Character
from .traits import Attribute

INITIATIVE_DIE: Final = 10
K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class Initiative:
    """One participant's initiative: ``rating`` + ``die`` = ``total``; ``None`` die and total
    for a character who cannot act."""

    rating: int
    die: int | None
    total: int | None

    @property
    def can_act(self) -> bool:
        return self.total is not None


def initiative_rating(character: Character) -> int | None:
    """Dexterity + Wits − wound penalty; ``None`` when the character cannot act."""
    if is_incapacitated(character.health):
        return None
    base = character.attributes.get(Attribute.DEXTERITY) + character.attributes.get(Attribute.WITS)
    return base + wound_penalty(character.health)


def initiative_notation(rating: int) -> str:
    """The roll as dice notation for the roll log: ``1d10+5``."""
    return f"1d{INITIATIVE_DIE}+{rating}" if rating >= 0 else f"1d{INITIATIVE_DIE}{rating}"


def roll_initiative(character: Character, source: RandomSource) -> Initiative:
    """Roll one participant's initiative (draws nothing for one who cannot act)."""
    rating = initiative_rating(character)
    if rating is None:
        return Initiative(rating=0, die=None, total=None)
    (die,) = roll_dice(source, 1, INITIATIVE_DIE)
    return Initiative(rating=rating, die=die, total=rating + die)


def initiative_order(entries: Sequence[tuple[K, Initiative]]) -> list[K]:
    """Keys from first to act to last: total, then rating, both descending; the listing's
    order breaks remaining ties; those who cannot act come last."""
    ranked = sorted(
        enumerate(entries),
        key=lambda item: (
            not item[1][1].can_act,
            -(item[1][1].total or 0),
            -item[1][1].rating,
            item[0],
        ),
    )
    return [key for _index, (key, _init) in ranked]
