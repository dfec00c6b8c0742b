"""Soak: a Stamina roll that takes levels off incoming damage before they are marked.

The seed chapter does not cover damage; this follows classic World of Darkness as Changeling:
The Dreaming 2nd edition uses it (DECISION):

* a changeling's body is mortal: Stamina soaks bashing damage only; lethal and aggravated
  damage cannot be soaked without armor (armor dice are added by the Storyteller);
* the soak roll is Stamina (+ armor) dice at difficulty 6; every success removes one level;
* a soak roll cannot botch and its 1s cancel nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from engine.dice.source import RandomSource, roll_dice
from engine.errors import RuleViolation
from engine.text import msg

from .health import DamageKind, DamageOutcome, HealthTrack, apply_damage
from .sheet import Character
from .traits import Attribute

SOAK_DIFFICULTY: Final = 6


def soak_dice(character: Character, kind: DamageKind, *, armor: int = 0) -> int:
    """Dice to soak ``kind``: Stamina (bashing only) plus armor (any kind)."""
    stamina = character.attributes.get(Attribute.STAMINA) if kind is DamageKind.BASHING else 0
    return max(0, stamina + armor)


def soak_notation(dice: int) -> str:
    """``3d10>=6`` for the roll log (no ``f1``: 1s cancel nothing); empty without dice."""
    return f"{dice}d10>={SOAK_DIFFICULTY}" if dice > 0 else ""


@dataclass(frozen=True)
class Soaked:
    """A soak roll and what got through: ``outcome`` is None when nothing did."""

    faces: tuple[int, ...]
    soaked: int
    track: HealthTrack
    outcome: DamageOutcome | None


def soak_faces(track: HealthTrack, kind: DamageKind, amount: int, faces: Sequence[int]) -> Soaked:
    """Apply ``amount`` levels of ``kind`` after a soak roll that showed ``faces``."""
    if amount < 1:
        raise RuleViolation(msg("storyteller.health.bad_amount", amount=amount))
    successes = sum(1 for face in faces if face >= SOAK_DIFFICULTY)
    soaked = min(amount, successes)
    if soaked == amount:
        return Soaked(tuple(faces), soaked, track, None)
    after, outcome = apply_damage(track, kind, amount - soaked)
    return Soaked(tuple(faces), soaked, after, outcome)


def soak(
    character: Character, kind: DamageKind, amount: int, source: RandomSource, *, armor: int = 0
) -> Soaked:
    """Roll the soak and mark what gets through on ``character``'s health track."""
    dice = soak_dice(character, kind, armor=armor)
    faces = roll_dice(source, dice, 10) if dice > 0 else ()
    return soak_faces(character.health, kind, amount, faces)
