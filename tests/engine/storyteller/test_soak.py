"""Soak: Stamina soaks bashing only; each success at 6 removes one level; 1s cancel nothing."""

from __future__ import annotations

import pytest

from engine.dice.source import ScriptedSource
from engine.errors import RuleViolation
from engine.systems import storyteller
from engine.systems.storyteller import Attribute, DamageKind
from engine.systems.storyteller.soak import soak, soak_dice, soak_faces, soak_notation


def _tough(stamina: int) -> storyteller.Character:
    return storyteller.with_attribute(storyteller.new_character("X"), Attribute.STAMINA, stamina)


@pytest.mark.parametrize(
    ("kind", "armor", "dice"),
    [(DamageKind.BASHING, 0, 3), (DamageKind.LETHAL, 0, 0), (DamageKind.AGGRAVATED, 2, 2),
     (DamageKind.BASHING, 1, 4)],
)  # fmt: skip
def test_soak_dice(kind: DamageKind, armor: int, dice: int) -> None:
    assert soak_dice(_tough(3), kind, armor=armor) == dice


@pytest.mark.parametrize(
    ("faces", "amount", "left"),
    [((6, 1, 1), 2, 1), ((6, 9, 2), 2, 0), ((6, 9, 10), 2, 0), ((1, 2, 5), 3, 3)],
)
def test_soak_faces(faces: tuple[int, ...], amount: int, left: int) -> None:
    result = soak_faces(storyteller.HealthTrack(), DamageKind.BASHING, amount, faces)
    assert len(result.track.boxes) == left and result.soaked == amount - left
    assert (result.outcome is None) == (left == 0)


def test_soak_rolls_stamina_and_marks_the_rest() -> None:
    result = soak(_tough(2), DamageKind.BASHING, 3, ScriptedSource([7, 3]))
    assert result.faces == (7, 3) and result.track.boxes == (DamageKind.BASHING,) * 2
    nothing = soak(_tough(2), DamageKind.LETHAL, 1, ScriptedSource([]))
    assert nothing.faces == () and nothing.track.boxes == (DamageKind.LETHAL,)
    assert soak_notation(3) == "3d10>=6" and soak_notation(0) == ""
    with pytest.raises(RuleViolation):
        soak_faces(storyteller.HealthTrack(), DamageKind.BASHING, 0, ())
