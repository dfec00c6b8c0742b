"""Health levels: seven boxes from Bruised to Incapacitated, each with its dice penalty.

The seed chapter does not cover damage, so this follows classic World of Darkness (Changeling:
The Dreaming 2nd edition / Revised), as players of the game expect (DECISION):

* seven levels — Bruised 0, Hurt −1, Injured −1, Wounded −2, Mauled −2, Crippled −5,
  Incapacitated (cannot act); the penalty of the worst filled box is subtracted from pools;
* three kinds of damage, bashing < lethal < aggravated; boxes fill worst kind first;
* on a full track a further point upgrades the least severe box that is milder than it
  (bashing → lethal, anything → aggravated); when nothing can be upgraded the character dies.
  Chimerical damage is not modelled separately (the Storyteller records it as notes).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from engine.common import SheetModel
from engine.errors import RuleViolation
from engine.text import Msg, msg, register_messages


class DamageKind(StrEnum):
    BASHING = "bashing"
    LETHAL = "lethal"
    AGGRAVATED = "aggravated"


_SEVERITY: Final = {DamageKind.BASHING: 0, DamageKind.LETHAL: 1, DamageKind.AGGRAVATED: 2}


@dataclass(frozen=True)
class HealthLevel:
    """One health level; ``penalty`` is ``None`` for Incapacitated (no action possible)."""

    key: str
    penalty: int | None

    @property
    def name(self) -> Msg:
        return msg(f"storyteller.health.{self.key}")


HEALTH_LEVELS: Final = (
    HealthLevel("bruised", 0),
    HealthLevel("hurt", -1),
    HealthLevel("injured", -1),
    HealthLevel("wounded", -2),
    HealthLevel("mauled", -2),
    HealthLevel("crippled", -5),
    HealthLevel("incapacitated", None),
)
TRACK_SIZE: Final = len(HEALTH_LEVELS)

register_messages(
    {
        "storyteller.health.healthy": {"ru": "Здоров", "en": "Healthy"},
        "storyteller.health.bruised": {"ru": "Ушиблен", "en": "Bruised"},
        "storyteller.health.hurt": {"ru": "Задет", "en": "Hurt"},
        "storyteller.health.injured": {"ru": "Поврежден", "en": "Injured"},
        "storyteller.health.wounded": {"ru": "Ранен", "en": "Wounded"},
        "storyteller.health.mauled": {"ru": "Тяжело ранен", "en": "Mauled"},
        "storyteller.health.crippled": {"ru": "Искалечен", "en": "Crippled"},
        "storyteller.health.incapacitated": {"ru": "Недееспособен", "en": "Incapacitated"},
        "storyteller.health.dead": {"ru": "Мёртв", "en": "Dead"},
        "storyteller.health.bad_amount": {
            "ru": "Количество урона или лечения должно быть положительным, а не {amount}.",
            "en": "Damage or healing must be a positive amount, not {amount}.",
        },
        "storyteller.health.incapacitated_cannot_act": {
            "ru": "Персонаж недееспособен и не может действовать.",
            "en": "The character is incapacitated and cannot act.",
        },
        "storyteller.health.dead_cannot_heal": {
            "ru": "Мёртвого персонажа нельзя вылечить.",
            "en": "A dead character cannot heal.",
        },
    }
)


class HealthTrack(SheetModel):
    """Filled boxes, worst kind first (aggravated, lethal, bashing); ``dead`` past the track."""

    boxes: tuple[DamageKind, ...] = ()
    dead: bool = False


@dataclass(frozen=True)
class DamageOutcome:
    """What one ``apply_damage`` or ``heal`` did, for the bot's notice."""

    kind: DamageKind
    amount: int
    level_before: HealthLevel | None
    level_after: HealthLevel | None
    upgraded: int
    died: bool


def _sorted(boxes: list[DamageKind]) -> tuple[DamageKind, ...]:
    return tuple(sorted(boxes, key=lambda kind: -_SEVERITY[kind]))


def current_level(track: HealthTrack) -> HealthLevel | None:
    """The worst filled health level, ``None`` when unhurt."""
    if not track.boxes:
        return None
    return HEALTH_LEVELS[len(track.boxes) - 1]


def is_incapacitated(track: HealthTrack) -> bool:
    return track.dead or len(track.boxes) >= TRACK_SIZE


def wound_penalty(track: HealthTrack) -> int:
    """Dice removed from every pool (0 … −5); raises when the character cannot act at all."""
    level = current_level(track)
    if is_incapacitated(track) or (level is not None and level.penalty is None):
        raise RuleViolation(msg("storyteller.health.incapacitated_cannot_act"))
    return 0 if level is None or level.penalty is None else level.penalty


def _check_amount(amount: int) -> None:
    if amount < 1:
        raise RuleViolation(msg("storyteller.health.bad_amount", amount=amount))


def _absorb_point(boxes: list[DamageKind], kind: DamageKind) -> tuple[bool, bool]:
    """Add one point; returns (upgraded, died)."""
    if len(boxes) < TRACK_SIZE:
        boxes.append(kind)
        return False, False
    # Full track: bashing can only turn bashing into lethal; harsher damage upgrades anything
    # milder than itself. Nothing left to upgrade means the character is beyond Incapacitated.
    target = DamageKind.LETHAL if kind is DamageKind.BASHING else kind
    milder = [i for i, box in enumerate(boxes) if _SEVERITY[box] < _SEVERITY[target]]
    if not milder:
        return False, True
    weakest = min(milder, key=lambda i: _SEVERITY[boxes[i]])
    boxes[weakest] = target
    return True, False


def apply_damage(
    track: HealthTrack, kind: DamageKind, amount: int
) -> tuple[HealthTrack, DamageOutcome]:
    """Mark ``amount`` health levels of ``kind`` damage."""
    _check_amount(amount)
    boxes = list(track.boxes)
    upgraded = 0
    died = track.dead
    for _ in range(amount):
        if died:
            break
        was_upgraded, died = _absorb_point(boxes, kind)
        upgraded += int(was_upgraded)
    new = HealthTrack(boxes=_sorted(boxes), dead=died)
    outcome = DamageOutcome(
        kind, amount, current_level(track), current_level(new), upgraded, died and not track.dead
    )
    return new, outcome


def heal(track: HealthTrack, kind: DamageKind, amount: int) -> tuple[HealthTrack, DamageOutcome]:
    """Remove up to ``amount`` boxes of ``kind`` (healing one kind never touches another)."""
    _check_amount(amount)
    if track.dead:
        raise RuleViolation(msg("storyteller.health.dead_cannot_heal"))
    boxes = list(track.boxes)
    removed = 0
    while removed < amount and kind in boxes:
        boxes.remove(kind)
        removed += 1
    new = HealthTrack(boxes=_sorted(boxes), dead=False)
    return new, DamageOutcome(kind, removed, current_level(track), current_level(new), 0, False)


def health_name(track: HealthTrack) -> Msg:
    """Translatable name of the current state (Healthy, a level, or Dead)."""
    if track.dead:
        return msg("storyteller.health.dead")
    level = current_level(track)
    return level.name if level else msg("storyteller.health.healthy")
