"""Milestones: the end of a scene, a chapter or a story, each returning a change list.

The seed defines the units of time (Оборот, Сцена, Глава, История, Хроника, Бездействие) but
no rewards; the rest is classic World of Darkness (DECISION):

* scene — nothing changes by itself; the Storyteller may award experience;
* chapter (≈ one session) — every character gets ``options.chapter_experience`` (1) plus any
  award;
* story — the temporary Willpower pool returns to the permanent rating (the bot offers it:
  ``refresh_willpower=False`` declines), plus any award. A story's last session is also a
  chapter: the bot applies both milestones.
"""

from __future__ import annotations

from enum import StrEnum

from engine.common import Change
from engine.errors import RuleViolation
from engine.text import Msg, msg, register_messages

from .options import StorytellerOptions
from .sheet import Character
from .traits import trait_name

register_messages(
    {
        "storyteller.milestone.scene": {"ru": "Конец сцены", "en": "End of scene"},
        "storyteller.milestone.chapter": {"ru": "Конец главы", "en": "End of chapter"},
        "storyteller.milestone.story": {"ru": "Конец истории", "en": "End of story"},
        "storyteller.milestone.bad_experience": {
            "ru": "Награда опытом не может быть отрицательной ({amount}).",
            "en": "An experience award cannot be negative ({amount}).",
        },
    }
)


class MilestoneKind(StrEnum):
    SCENE = "scene"
    CHAPTER = "chapter"
    STORY = "story"

    @property
    def name_msg(self) -> Msg:
        return msg(f"storyteller.milestone.{self.value}")


def _award(character: Character, amount: int) -> tuple[Character, list[Change]]:
    if amount == 0:
        return character, []
    after = character.experience + amount
    change = Change("experience", trait_name("experience"), character.experience, after)
    return character.model_copy(update={"experience": after}), [change]


def _refresh_willpower(character: Character) -> tuple[Character, list[Change]]:
    wp = character.willpower
    if wp.pool >= wp.rating:
        return character, []
    change = Change("willpower.pool", trait_name("willpower.pool"), wp.pool, wp.rating)
    refreshed = wp.model_copy(update={"pool": wp.rating})
    return character.model_copy(update={"willpower": refreshed}), [change]


def apply_milestone(
    character: Character,
    kind: MilestoneKind,
    *,
    options: StorytellerOptions | None = None,
    experience: int = 0,
    refresh_willpower: bool = True,
) -> tuple[Character, list[Change]]:
    """Apply a milestone; ``experience`` is the Storyteller's award on top of the automatic
    one. Returns the new sheet and what changed (empty when nothing did)."""
    if experience < 0:
        raise RuleViolation(msg("storyteller.milestone.bad_experience", amount=experience))
    opts = options or StorytellerOptions()
    changes: list[Change] = []
    if kind is MilestoneKind.STORY and refresh_willpower:
        character, changes = _refresh_willpower(character)
    automatic = opts.chapter_experience if kind is MilestoneKind.CHAPTER else 0
    character, award = _award(character, automatic + experience)
    return character, changes + award
