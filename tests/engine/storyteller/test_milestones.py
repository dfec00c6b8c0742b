"""Milestones return exact change lists."""

from __future__ import annotations

import pytest

from engine.common import Change
from engine.errors import RuleViolation
from engine.systems.storyteller import (
    Character,
    MilestoneKind,
    PoolTrait,
    StorytellerOptions,
    apply_milestone,
    trait_name,
)


@pytest.fixture
def tired(techlana: Character) -> Character:
    return techlana.model_copy(update={"willpower": PoolTrait(rating=6, pool=2), "experience": 3})


def test_scene_changes_nothing(tired: Character) -> None:
    assert apply_milestone(tired, MilestoneKind.SCENE) == (tired, [])


def test_scene_with_award(tired: Character) -> None:
    after, changes = apply_milestone(tired, MilestoneKind.SCENE, experience=1)
    assert changes == [Change("experience", trait_name("experience"), 3, 4)]
    assert after.experience == 4


def test_chapter_gives_the_automatic_point(tired: Character) -> None:
    after, changes = apply_milestone(tired, MilestoneKind.CHAPTER, experience=2)
    assert changes == [Change("experience", trait_name("experience"), 3, 6)]
    assert after.willpower.pool == 2
    none = StorytellerOptions(chapter_experience=0)
    assert apply_milestone(tired, MilestoneKind.CHAPTER, options=none) == (tired, [])


def test_story_refreshes_willpower(tired: Character) -> None:
    after, changes = apply_milestone(tired, MilestoneKind.STORY, experience=1)
    assert changes == [
        Change("willpower.pool", trait_name("willpower.pool"), 2, 6),
        Change("experience", trait_name("experience"), 3, 4),
    ]
    assert after.willpower == PoolTrait(rating=6, pool=6)
    declined, changes = apply_milestone(tired, MilestoneKind.STORY, refresh_willpower=False)
    assert (declined, changes) == (tired, [])


def test_story_with_full_willpower_lists_nothing(techlana: Character) -> None:
    assert apply_milestone(techlana, MilestoneKind.STORY) == (techlana, [])


def test_negative_award_is_refused(tired: Character) -> None:
    with pytest.raises(RuleViolation):
        apply_milestone(tired, MilestoneKind.CHAPTER, experience=-1)
    assert MilestoneKind.STORY.name_msg.render("ru") == "Конец истории"
