"""NPC reaction (реакция НПС): 1 friendly … 6 hatred, changed by influence checks."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from engine.dice.source import RandomSource, roll_die
from engine.errors import RuleViolation
from engine.text import Msg, msg


class Reaction(IntEnum):
    """The seed's reaction scale; lower is better."""

    FRIENDLY = 1
    KINDLY = 2
    INDIFFERENT = 3
    UNFRIENDLY = 4
    HOSTILE = 5
    HATRED = 6

    @property
    def label(self) -> Msg:
        """«дружелюбие» … «ненависть»."""
        return msg(f"cliche.reaction.{int(self)}")

    @property
    def target(self) -> int:
        """The influence target number: 5 × reaction (5, 10, … 30)."""
        return 5 * int(self)


def _reaction(value: int) -> Reaction:
    try:
        return Reaction(value)
    except ValueError:
        raise RuleViolation(msg("cliche.reaction.range", value=value)) from None


@dataclass(frozen=True)
class InitialReaction:
    """A significant NPC's random starting reaction."""

    reaction: Reaction
    notation: str
    faces: tuple[int, ...]


def roll_initial_reaction(source: RandomSource) -> InitialReaction:
    """«задается броском пятигранного кубика»: 1d5, so hatred (6) is reachable only through
    failed influence."""
    face = roll_die(source, 5)
    return InitialReaction(Reaction(face), "1d5", (face,))


@dataclass(frozen=True)
class InfluenceOutcome:
    """An influence check against 5 × reaction; success improves the reaction by one step,
    failure worsens it, bounded 1..6."""

    before: Reaction
    after: Reaction
    target: int
    total: int
    success: bool


def apply_influence(reaction: int, total: int) -> InfluenceOutcome:
    """Apply an influence roll's ``total`` (rolled with a charisma or brute-force cliché, e.g.
    via ``roll_check``) to the NPC's reaction."""
    before = _reaction(reaction)
    success = total >= before.target
    step = -1 if success else 1
    after = Reaction(min(Reaction.HATRED, max(Reaction.FRIENDLY, before + step)))
    return InfluenceOutcome(before, after, before.target, total, success)
