"""What the state engine and the scene report: one flat event type, in the order things happen.

Every roll an operation makes is in some event's ``roll`` (with its ``notation`` and raw
``faces``), so a turn report is at once the roll log and the list of states applied.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.common import Change
from engine.systems.matter.rolls import PoolRoll
from engine.systems.matter.states import StateId


class EventKind(StrEnum):
    CHECK = "check"  # a scene condition's roll (standard check or chance roll)
    APPLIED = "applied"  # a state was gained (after a failed resistance, if any)
    RESISTED = "resisted"  # the resistance roll on gaining succeeded
    IMMUNE = "immune"  # the character is immune to the state / instant death
    PROTECTED = "protected"  # elemental protection or immunity: no roll for a condition
    ALREADY_ACTIVE = "already_active"
    REPLACED = "replaced"  # Нокаут on a Тяжело ранен character: unconscious at once
    EXPIRED = "expired"  # its duration ran out (or the scene ended)
    REMOVED = "removed"  # a remedy or another state removed it
    SHAKEN_OFF = "shaken_off"  # a per-turn resistance succeeded, the state ends
    HOLDS = "holds"  # a per-turn resistance failed, the state goes on
    ACTS = "acts"  # Нокаут: the turn's Упорство roll succeeded, one action
    UNCONSCIOUS = "unconscious"  # Нокаут: the roll failed (or Тяжело ранен)
    PETRIFICATION_STEP = "petrification_step"  # Defence −1
    REGENERATED = "regenerated"  # +1 Health
    NO_EFFECT = "no_effect"  # a roll or an effect that changed nothing
    HAZARD_HIT = "hazard_hit"  # a burn / frostbite of a body part
    FOOTING = "footing"  # Нетвёрдая почва / Скольжение: the chance roll succeeded
    HEALTH_CHANGED = "health_changed"
    WILLPOWER_SPENT = "willpower_spent"
    ANGER_CHANGED = "anger_changed"


class RollPurpose(StrEnum):
    RESISTANCE = "resistance"  # on gaining a state
    TURN_RESISTANCE = "turn_resistance"  # Берсерк/Замешательство/Сон each turn, Наводнение
    KO_ACTION = "ko_action"
    CRIPPLED = "crippled"
    REGENERATION = "regeneration"
    STANDARD_CHECK = "standard_check"  # «стандартный шанс» of a scene condition
    CHANCE_CHECK = "chance_check"  # «бросок шанса» of Нетвёрдая почва / Скольжение


class Hazard(StrEnum):
    BURN = "burn"  # Пекло: ожог части тела
    FROSTBITE = "frostbite"  # Мороз: обморожение части тела


@dataclass(frozen=True)
class Event:
    """One thing that happened to one character.

    ``state`` is the state concerned; ``roll``/``purpose`` the roll made, if any; ``changes``
    the sheet values that changed; ``character_id`` and ``origin`` (a condition id or the id of
    the state that caused it) are filled in by the scene.
    """

    kind: EventKind
    state: StateId | None = None
    roll: PoolRoll | None = None
    purpose: RollPurpose | None = None
    changes: tuple[Change, ...] = ()
    character_id: str = ""
    origin: str = ""
    hazard: Hazard | None = None
