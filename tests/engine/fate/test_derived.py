"""Derived values: stress boxes, extra mild slots, initiative, gear and magic-item points."""

from __future__ import annotations

import pytest

from engine.systems.fate import (
    Artifact,
    ArtifactKind,
    SlotId,
    StressMarks,
    TrackKind,
    alchemy_points,
    artifact_points,
    consequence_slots,
    equipment_points,
    initiative,
    stress_box_count,
    stress_track,
    stress_tracks,
)
from tests.engine.fate.factories import sample, with_skills


@pytest.mark.parametrize(
    ("skills", "physical", "mental", "magical"),
    [
        ({}, 2, 2, 2),
        ({"physique": 1, "will": 1}, 2, 2, 2),
        ({"physique": 2}, 3, 2, 2),
        ({"will": 2}, 2, 3, 2),
        ({"physique": 3}, 3, 2, 3),
        ({"will": 3}, 2, 3, 3),
        ({"physique": 4, "will": 4}, 4, 4, 4),
        ({"physique": 5, "will": 5}, 4, 4, 4),
        ({"fire": 4}, 2, 2, 3),
        # only the first school at +4 gives a box
        ({"fire": 4, "water": 4}, 2, 2, 3),
        ({"will": 3, "physique": 3, "light": 4}, 3, 3, 5),
        ({"fire": 3}, 2, 2, 2),
    ],
)
def test_stress_boxes(skills: dict[str, int], physical: int, mental: int, magical: int) -> None:
    char = with_skills(**skills)
    counts = tuple(
        stress_box_count(char, t)
        for t in (TrackKind.PHYSICAL, TrackKind.MENTAL, TrackKind.MAGICAL)
    )
    assert counts == (physical, mental, magical)


@pytest.mark.parametrize(
    ("skills", "extra"),
    [
        ({"physique": 4, "will": 4}, ()),
        ({"physique": 5}, (SlotId.MILD_PHYSICAL,)),
        ({"will": 5}, (SlotId.MILD_MENTAL,)),
        ({"will": 6, "physique": 5}, (SlotId.MILD_PHYSICAL, SlotId.MILD_MENTAL)),
    ],
)
def test_extra_mild_slots_at_plus_five(skills: dict[str, int], extra: tuple[SlotId, ...]) -> None:
    base = (SlotId.MILD, SlotId.MODERATE, SlotId.SEVERE)
    assert consequence_slots(with_skills(**skills)) == base + extra


def test_initiative_is_notice() -> None:
    assert initiative(with_skills(notice=3, athletics=4)) == 3


@pytest.mark.parametrize(
    ("skills", "points"),
    [
        ({}, 0),
        ({"wealth": 3}, 3),
        ({"technology": 1}, 0),
        ({"technology": 2}, 1),
        ({"education": 3}, 1),
        ({"artifice": 4, "alchemy": 4}, 4),
        ({"crime": 3}, 0),
        ({"crime": 4, "art": 4}, 2),
        ({"wealth": 2, "technology": 4, "education": 2, "art": 4}, 6),
    ],
)
def test_equipment_points(skills: dict[str, int], points: int) -> None:
    assert equipment_points(with_skills(**skills)) == points


def test_equipment_points_of_sample_character() -> None:
    # Богатство +3 → 3; Технология +2 → 1; Алхимия +2 → 1; Артефакторика +2 → 1;
    # Образование +1 → 0; Криминал +1 → 0. Total 6.
    char = sample()
    assert equipment_points(char) == 6
    assert artifact_points(char) == 2
    assert alchemy_points(char) == 2


def test_sample_tracks_render() -> None:
    char = sample(stress=StressMarks(physical=(2,)))
    views = {v.kind: v.render() for v in stress_tracks(char)}
    # Конституция +3 and Воля +3: 3 physical, 3 mental, 2 + 1 + 1 magical
    assert views == {
        TrackKind.PHYSICAL: "0x0",
        TrackKind.MENTAL: "000",
        TrackKind.MAGICAL: "0000",
    }


def test_accumulator_track_comes_from_artifacts() -> None:
    char = sample(
        artifacts=(
            Artifact(kind=ArtifactKind.ACCUMULATOR, boxes=2),
            Artifact(kind=ArtifactKind.ACCUMULATOR, boxes=1),
        )
    )
    assert stress_track(char, TrackKind.ACCUMULATOR).render() == "000"
    assert len(stress_tracks(char)) == 4
