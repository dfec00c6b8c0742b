"""Milestones of ``matter``: the end of a scene and a rest.

The seed has no advancement; its only clock is the scene («Большинство Состояний заканчивают
своё действие в конце сцены») and rest (which removes Ярость and Печаль).
"""

from __future__ import annotations

from enum import StrEnum

from engine.common import Change
from engine.systems.matter.events import Event
from engine.systems.matter.sheet import Character
from engine.systems.matter.state_engine import cure, expire_scene
from engine.systems.matter.states import Remedy


class MilestoneKind(StrEnum):
    SCENE_END = "scene_end"
    REST = "rest"


def apply_milestone(character: Character, kind: MilestoneKind) -> tuple[Character, list[Change]]:
    """Apply a milestone and list what changed.

    ``SCENE_END``: every state except the until-cured ones ends (Нокаут wakes; leaving Берсерк
    costs a dot of current Гнев). ``REST``: removes the states rest cures (Ярость, Печаль);
    DECISION: a rest is taken between scenes, so call ``SCENE_END`` first.
    """
    events: tuple[Event, ...]
    if kind is MilestoneKind.SCENE_END:
        character, events = expire_scene(character)
    else:
        character, events = cure(character, Remedy.REST)
    return character, [change for event in events for change in event.changes]
