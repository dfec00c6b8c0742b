"""Values that follow from a sheet: stress boxes, consequence slots, initiative, points.

None of these are stored, so they can never drift from the skills they come from.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine import formats
from engine.systems.fate.models import (
    MAGIC_SCHOOLS,
    SEVERITY_VALUE,
    SLOT_SEVERITY,
    ArtifactKind,
    Character,
    Skill,
    SlotId,
    TrackKind,
)

BASE_BOXES: Final = 2


@dataclass(frozen=True)
class StressBox:
    value: int
    marked: bool


@dataclass(frozen=True)
class StressTrackView:
    """One track as shown: boxes valued 1..n, each marked or not."""

    kind: TrackKind
    boxes: tuple[StressBox, ...]

    def render(self) -> str:
        """The seed's notation: ``0x0`` = box 2 marked."""
        return "".join("x" if b.marked else "0" for b in self.boxes)

    def shown(self) -> str:
        """The track as every surface shows it: «☐☒☐» (``engine.formats.stress_track``)."""
        return formats.stress_track(b.marked for b in self.boxes)

    @property
    def free_values(self) -> tuple[int, ...]:
        return tuple(b.value for b in self.boxes if not b.marked)


def _steps(level: int, *thresholds: int) -> int:
    return sum(1 for t in thresholds if level >= t)


def stress_box_count(character: Character, track: TrackKind) -> int:
    """Boxes per track (SPEC "Stress").

    Physical: 2, +1 at Конституция +2 and +4. Mental: 2, +1 at Воля +2 and +4. Magical: 2, +1 at
    Воля +3, +1 at Конституция +3, +1 if any magic school is at +4 or more. The seed grants the
    box to "the first school raised to +4"; only one such box exists, and a sheet does not record
    which school came first, so any school at +4 counts once. Accumulator: the sum of the
    accumulator artifacts' boxes.
    """
    will = character.skill(Skill.WILL)
    physique = character.skill(Skill.PHYSIQUE)
    if character.stress_boxes is not None and track in (TrackKind.PHYSICAL, TrackKind.MENTAL):
        return character.stress_boxes  # a quick NPC's boxes, as the GM wrote them
    if track is TrackKind.PHYSICAL:
        return BASE_BOXES + _steps(physique, 2, 4)
    if track is TrackKind.MENTAL:
        return BASE_BOXES + _steps(will, 2, 4)
    if track is TrackKind.MAGICAL:
        school_box = 1 if any(character.skill(s) >= 4 for s in MAGIC_SCHOOLS) else 0
        return BASE_BOXES + _steps(will, 3) + _steps(physique, 3) + school_box
    return sum(a.boxes for a in character.artifacts if a.kind is ArtifactKind.ACCUMULATOR)


def stress_track(character: Character, track: TrackKind) -> StressTrackView:
    """One track with its boxes, marked or not."""
    marks = set(character.stress.of(track))
    count = stress_box_count(character, track)
    return StressTrackView(track, tuple(StressBox(v, v in marks) for v in range(1, count + 1)))


def stress_tracks(character: Character) -> tuple[StressTrackView, ...]:
    """All tracks; the accumulator only when the character has one."""
    kinds = [TrackKind.PHYSICAL, TrackKind.MENTAL, TrackKind.MAGICAL]
    if stress_box_count(character, TrackKind.ACCUMULATOR):
        kinds.append(TrackKind.ACCUMULATOR)
    return tuple(stress_track(character, k) for k in kinds)


def consequence_slots(character: Character) -> tuple[SlotId, ...]:
    """Slots the character has: mild, moderate, severe, plus a typed extra mild slot at
    Конституция +5 (physical) and Воля +5 (mental). Extreme is not a slot (it replaces an
    aspect) and is not listed here."""
    slots = [SlotId.MILD, SlotId.MODERATE, SlotId.SEVERE]
    if character.skill(Skill.PHYSIQUE) >= 5:
        slots.append(SlotId.MILD_PHYSICAL)
    if character.skill(Skill.WILL) >= 5:
        slots.append(SlotId.MILD_MENTAL)
    return tuple(slots)


def free_consequence_slots(character: Character) -> tuple[SlotId, ...]:
    """The character's slots that hold no consequence."""
    taken = {c.slot for c in character.consequences}
    return tuple(s for s in consequence_slots(character) if s not in taken)


def slot_value(slot: SlotId) -> int:
    """Shifts a consequence in this slot absorbs: 2 / 4 / 6 / 8."""
    return SEVERITY_VALUE[SLOT_SEVERITY[slot]]


def initiative(character: Character) -> int:
    """Initiative in physical conflicts = Внимательность."""
    return character.skill(Skill.NOTICE)


# Where equipment points come from: (levels per point, skills). +1 per level of Богатство;
# +1 per 2 levels of Технология, Образование, Артефакторика, Алхимия; +1 per 4 levels of
# Криминал, Искусство. (The wizard's gear step says so, from this table.)
EQUIPMENT_SOURCES: tuple[tuple[int, tuple[Skill, ...]], ...] = (
    (1, (Skill.WEALTH,)),
    (2, (Skill.TECHNOLOGY, Skill.EDUCATION, Skill.ARTIFICE, Skill.ALCHEMY)),
    (4, (Skill.CRIME, Skill.ART)),
)


def equipment_points(character: Character) -> int:
    """Equipment points the skills give (``EQUIPMENT_SOURCES``)."""
    return sum(
        max(0, character.skill(skill)) // per
        for per, skills in EQUIPMENT_SOURCES
        for skill in skills
    )


def artifact_points(character: Character) -> int:
    """Artifact points = Артефакторика level."""
    return max(0, character.skill(Skill.ARTIFICE))


def alchemy_points(character: Character) -> int:
    """Alchemy points = Алхимия level."""
    return max(0, character.skill(Skill.ALCHEMY))


def skill_points_spent(character: Character) -> int:
    """Skill points on skills plus those spent on extras."""
    return sum(max(0, v) for v in character.skills.values()) + sum(
        e.cost for e in character.extras
    )
