"""Health levels, penalties, damage kinds and overflow."""

from __future__ import annotations

import pytest

from engine.errors import RuleViolation
from engine.systems.storyteller import (
    HEALTH_LEVELS,
    DamageKind,
    HealthTrack,
    apply_damage,
    current_level,
    heal,
    health_name,
    is_incapacitated,
    wound_penalty,
)

B, L, A = DamageKind.BASHING, DamageKind.LETHAL, DamageKind.AGGRAVATED


def test_levels_table() -> None:
    assert [(lvl.key, lvl.penalty) for lvl in HEALTH_LEVELS] == [
        ("bruised", 0),
        ("hurt", -1),
        ("injured", -1),
        ("wounded", -2),
        ("mauled", -2),
        ("crippled", -5),
        ("incapacitated", None),
    ]
    assert HEALTH_LEVELS[5].name.render("ru") == "Искалечен"


@pytest.mark.parametrize(
    ("damage", "level", "penalty"),
    [
        (0, None, 0),
        (1, "bruised", 0),
        (2, "hurt", -1),
        (3, "injured", -1),
        (4, "wounded", -2),
        (5, "mauled", -2),
        (6, "crippled", -5),
    ],
)
def test_penalty_by_damage(damage: int, level: str | None, penalty: int) -> None:
    track = HealthTrack()
    if damage:
        track, _ = apply_damage(track, B, damage)
    found = current_level(track)
    assert (found.key if found else None) == level
    assert wound_penalty(track) == penalty
    assert not is_incapacitated(track)


def test_incapacitated_cannot_act() -> None:
    track, outcome = apply_damage(HealthTrack(), L, 7)
    assert outcome.level_after is HEALTH_LEVELS[6]
    assert is_incapacitated(track)
    assert health_name(track).render("en") == "Incapacitated"
    with pytest.raises(RuleViolation):
        wound_penalty(track)


def test_boxes_sort_worst_first() -> None:
    track, _ = apply_damage(HealthTrack(), B, 2)
    track, _ = apply_damage(track, A, 1)
    track, _ = apply_damage(track, L, 1)
    assert track.boxes == (A, L, B, B)


@pytest.mark.parametrize(
    ("start", "kind", "amount", "boxes", "upgraded", "died"),
    [
        ((B,) * 7, B, 2, (L, L, B, B, B, B, B), 2, False),
        ((L,) * 7, B, 1, (L,) * 7, 0, True),
        ((L,) * 6 + (B,), L, 1, (L,) * 7, 1, False),
        ((L,) * 7, A, 2, (A, A, L, L, L, L, L), 2, False),
        ((A,) * 7, A, 1, (A,) * 7, 0, True),
    ],
)
def test_full_track_upgrades_then_kills(
    start: tuple[DamageKind, ...],
    kind: DamageKind,
    amount: int,
    boxes: tuple[DamageKind, ...],
    upgraded: int,
    died: bool,
) -> None:
    track, outcome = apply_damage(HealthTrack(boxes=start), kind, amount)
    assert track.boxes == boxes
    assert (outcome.upgraded, outcome.died, track.dead) == (upgraded, died, died)


def test_heal_removes_only_that_kind() -> None:
    track = HealthTrack(boxes=(A, L, B, B))
    healed, outcome = heal(track, B, 3)
    assert (healed.boxes, outcome.amount) == ((A, L), 2)
    assert health_name(healed).render("ru") == "Задет"
    assert health_name(HealthTrack()).render("ru") == "Здоров"
    with pytest.raises(RuleViolation):
        heal(HealthTrack(dead=True), L, 1)
    with pytest.raises(RuleViolation):
        apply_damage(track, L, 0)
    assert health_name(HealthTrack(dead=True)).render("en") == "Dead"
