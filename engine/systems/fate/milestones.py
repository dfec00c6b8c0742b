"""Rests and milestones ("Время в игре") as pure functions returning change lists.

A larger milestone includes everything the smaller ones do (SPEC DECISION):

* rest stop (привал, between scenes): stress clears; mild consequences clear (no roll).
* minor (малая веха, between sessions): FP = max(FP, refresh); treated moderate consequences
  clear; gear may be changed.
* significant (значительная веха, between scenarios): artifacts recharge (converters, and the
  accumulator's stress) and alchemy is replenished (if ingredients are within reach — the GM
  confirms); treated severe consequences clear.
* major (большая веха, between arcs): treated extreme consequences clear; the aspect an extreme
  consequence replaced is free to be rewritten (``rewrite_aspect``).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from engine.common import Change, errors_only
from engine.errors import RuleViolation
from engine.formats import ValueKind
from engine.systems.fate.derived import stress_track
from engine.systems.fate.equipment import GearItem, gear_names, gear_violations
from engine.systems.fate.models import (
    SLOT_SEVERITY,
    AspectRole,
    Character,
    CharacterAspect,
    Consequence,
    Equipment,
    Severity,
    StressMarks,
    TrackKind,
    name_params,
)
from engine.text import msg, register_messages

register_messages(
    {
        "fate.change.stress": {"ru": "Стресс ({track_ru})", "en": "Stress ({track_en})"},
        "fate.change.consequence": {
            "ru": "Последствие снято: {text}",
            "en": "Consequence cleared: {text}",
        },
        "fate.change.fate_points": {"ru": "Очки судьбы", "en": "Fate points"},
        "fate.change.gear": {"ru": "Снаряжение: {item_ru}", "en": "Gear: {item_en}"},
        "fate.change.artifact": {
            "ru": "Артефакт перезаряжен: {name}",
            "en": "Artifact recharged: {name}",
        },
        "fate.change.alchemy": {
            "ru": "Препарат пополнен: {name}",
            "en": "Alchemy replenished: {name}",
        },
        "fate.change.aspect": {"ru": "Аспект", "en": "Aspect"},
        "fate.milestone.gear_invalid": {
            "ru": "Новое снаряжение не по правилам.",
            "en": "The new gear breaks the rules.",
        },
        "fate.milestone.gear_needs_milestone": {
            "ru": "Снаряжение меняют только на вехе, не на привале.",
            "en": "Gear changes only at a milestone, not at a rest stop.",
        },
        "fate.aspect.no_such": {"ru": "Нет такого аспекта.", "en": "No such aspect."},
        "fate.aspect.locked": {
            "ru": "Этот аспект занят критическим последствием.",
            "en": "An extreme consequence occupies this aspect.",
        },
    }
)


class MilestoneKind(StrEnum):
    """Rest stop < minor < significant < major; a larger one includes the smaller."""

    REST_STOP = "rest_stop"
    MINOR = "minor"
    SIGNIFICANT = "significant"
    MAJOR = "major"


_RANK: Final[dict[MilestoneKind, int]] = {k: i for i, k in enumerate(MilestoneKind)}

# The milestone at which a treated consequence of each severity clears.
_CLEARS_AT: Final[dict[Severity, MilestoneKind]] = {
    Severity.MODERATE: MilestoneKind.MINOR,
    Severity.SEVERE: MilestoneKind.SIGNIFICANT,
    Severity.EXTREME: MilestoneKind.MAJOR,
}


def includes(kind: MilestoneKind, smaller: MilestoneKind) -> bool:
    """Whether ``kind`` does everything ``smaller`` does."""
    return _RANK[kind] >= _RANK[smaller]


def clear_stress(
    character: Character, *, keep: StressMarks | None = None
) -> tuple[Character, list[Change]]:
    """Clear stress on the physical, mental and magical tracks; ``keep`` lists boxes the GM
    leaves marked (conflicts that follow each other clear only partly). Only boxes already
    marked can be kept. The accumulator is an artifact, so it stays drained until artifacts
    recharge (DECISION, from the seed's recharge rule for artifacts)."""
    changes: list[Change] = []
    stress = StressMarks(accumulator=character.stress.accumulator)
    for track in (TrackKind.PHYSICAL, TrackKind.MENTAL, TrackKind.MAGICAL):
        before = stress_track(character, track)
        kept = tuple(
            v for v in (keep.of(track) if keep else ()) if v in character.stress.of(track)
        )
        stress = stress.with_marks(track, kept)
        after = stress_track(character.model_copy(update={"stress": stress}), track)
        if before.render() != after.render():
            what = msg("fate.change.stress", **name_params("track", track))
            changes.append(
                Change(
                    f"stress.{track.value}",
                    what,
                    before.render(),
                    after.render(),
                    ValueKind.STRESS,
                )
            )
    return character.model_copy(update={"stress": stress}), changes


def _clears(cons: Consequence, kind: MilestoneKind) -> bool:
    severity = SLOT_SEVERITY[cons.slot]
    if severity is Severity.MILD:
        return True  # any rest stop or larger; mild ones need no treatment
    return cons.treated and includes(kind, _CLEARS_AT[severity])


def _recover(character: Character, kind: MilestoneKind) -> tuple[Character, list[Change]]:
    kept, changes = [], []
    for cons in character.consequences:
        if _clears(cons, kind):
            what = msg("fate.change.consequence", text=cons.text)
            changes.append(Change(f"consequences.{cons.slot.value}", what, cons.text, None))
        else:
            kept.append(cons)
    return character.model_copy(update={"consequences": tuple(kept)}), changes


def _refresh(character: Character) -> tuple[Character, list[Change]]:
    after = max(character.fate_points, character.refresh)
    if after == character.fate_points:
        return character, []
    what = msg("fate.change.fate_points")
    change = Change("fate_points", what, character.fate_points, after)
    return character.model_copy(update={"fate_points": after}), [change]


def _change_gear(character: Character, equipment: Equipment) -> tuple[Character, list[Change]]:
    updated = character.model_copy(update={"equipment": equipment})
    if errors_only(gear_violations(updated)):
        raise RuleViolation(msg("fate.milestone.gear_invalid"))
    changes = []
    for item in GearItem:
        before, after = getattr(character.equipment, item.value), getattr(equipment, item.value)
        if before != after:
            what = msg("fate.change.gear", **gear_names(item))
            changes.append(Change(f"equipment.{item.value}", what, before, after))
    return updated, changes


def _replenish(character: Character) -> tuple[Character, list[Change]]:
    changes = []
    acc = stress_track(character, TrackKind.ACCUMULATOR)
    if character.stress.accumulator:
        what = msg("fate.change.stress", **name_params("track", TrackKind.ACCUMULATOR))
        free = "0" * len(acc.boxes)
        changes.append(Change("stress.accumulator", what, acc.render(), free, ValueKind.STRESS))
        stress = character.stress.with_marks(TrackKind.ACCUMULATOR, ())
        character = character.model_copy(update={"stress": stress})
    for i, art in enumerate(character.artifacts):
        if art.used:
            what = msg("fate.change.artifact", name=art.name or art.kind.value)
            changes.append(Change(f"artifacts.{i}.used", what, True, False))
    for i, item in enumerate(character.alchemy):
        if item.used:
            what = msg("fate.change.alchemy", name=item.name or item.kind.value)
            changes.append(Change(f"alchemy.{i}.used", what, True, False))
    artifacts = tuple(a.model_copy(update={"used": False}) for a in character.artifacts)
    alchemy = tuple(a.model_copy(update={"used": False}) for a in character.alchemy)
    return character.model_copy(update={"artifacts": artifacts, "alchemy": alchemy}), changes


def apply_milestone(
    character: Character,
    kind: MilestoneKind,
    *,
    ingredients: bool = True,
    equipment: Equipment | None = None,
    keep_stress: StressMarks | None = None,
) -> tuple[Character, list[Change]]:
    """Apply a rest or milestone; return the new sheet and what changed (from → to).

    ``ingredients=False`` (the GM says nothing is within reach) skips recharging artifacts and
    alchemy at a significant milestone or larger. ``equipment`` re-buys gear (any веха, not a
    rest stop); it must fit the equipment points and caps. ``keep_stress`` leaves some boxes
    marked. Fate points never go down.
    """
    changes: list[Change] = []
    character, c = clear_stress(character, keep=keep_stress)
    changes += c
    character, c = _recover(character, kind)
    changes += c
    if equipment is not None and not includes(kind, MilestoneKind.MINOR):
        raise RuleViolation(msg("fate.milestone.gear_needs_milestone"))
    if includes(kind, MilestoneKind.MINOR):
        character, c = _refresh(character)
        changes += c
        if equipment is not None:
            character, c = _change_gear(character, equipment)
            changes += c
    if includes(kind, MilestoneKind.SIGNIFICANT) and ingredients:
        character, c = _replenish(character)
        changes += c
    return character, changes


def rewrite_aspect(
    character: Character, index: int, text: str, *, role: AspectRole | None = None
) -> tuple[Character, list[Change]]:
    """Rewrite an aspect (e.g. after its extreme consequence cleared at a major milestone);
    refused while an extreme consequence still occupies it."""
    if not 0 <= index < len(character.aspects):
        raise RuleViolation(msg("fate.aspect.no_such"))
    if any(c.replaces_aspect == index for c in character.consequences):
        raise RuleViolation(msg("fate.aspect.locked"))
    old = character.aspects[index]
    new = CharacterAspect(text=text, role=role or old.role)
    aspects = (*character.aspects[:index], new, *character.aspects[index + 1 :])
    change = Change(f"aspects.{index}", msg("fate.change.aspect"), old.text, new.text)
    return character.model_copy(update={"aspects": aspects}), [change]
