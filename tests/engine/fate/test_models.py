"""Stored shapes: JSON round-trips exactly, the skill list, the package contract."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from engine.systems import fate
from engine.systems.fate import (
    AlchemyItem,
    AlchemyKind,
    Artifact,
    ArtifactKind,
    Character,
    ConflictState,
    Consequence,
    ContestState,
    Extra,
    FateOptions,
    Nature,
    Participant,
    SceneAspect,
    Skill,
    SlotId,
    StressMarks,
    Zone,
    start_conflict,
)
from tests.engine.fate.factories import sample


def _full_character() -> Character:
    return sample(
        stress=StressMarks(physical=(2,), magical=(1, 3)),
        consequences=(
            Consequence(slot=SlotId.MILD, text="Синяк", conflict_id="c1", inflicted_by="orc"),
            Consequence(slot=SlotId.EXTREME, text="Шрам", replaces_aspect=2, treated=True),
        ),
        artifacts=(
            Artifact(kind=ArtifactKind.ACCUMULATOR, boxes=2),
            Artifact(kind=ArtifactKind.TOOL, school=Skill.FIRE, level=1, used=True),
        ),
        alchemy=(AlchemyItem(kind=AlchemyKind.MEDICINE, points=1, nature=Nature.MENTAL),),
        extras=(Extra(name="Пёс", cost=1),),
        loot=("гоблинский ятаган",),
        notes="заметки",
    )


def test_character_round_trips_exactly() -> None:
    char = _full_character()
    dumped = char.model_dump(mode="json")
    again = Character.model_validate(json.loads(json.dumps(dumped)))
    assert again == char
    assert again.model_dump(mode="json") == dumped


def test_conflict_state_round_trips() -> None:
    state = start_conflict(
        "c1",
        [Zone(name="Гостиная", aspects=(SceneAspect(name="В огне!", free_invokes={"a": 1}),))],
        [Participant(id="a", name="A", side="pc"), Participant(id="b", name="B", side="npc")],
    )
    again = ConflictState.model_validate(json.loads(json.dumps(state.model_dump(mode="json"))))
    assert again == state


def test_contest_state_round_trips() -> None:
    state = ContestState(participants=("a", "b"), target=3, points={"a": 1, "b": 0})
    assert ContestState.model_validate(state.model_dump(mode="json")) == state


def test_options_defaults_are_the_seed_numbers() -> None:
    opts = FateOptions()
    assert (opts.skill_points, opts.max_skill_at_creation, opts.base_refresh) == (30, 4, 3)


def test_twenty_eight_skills_six_schools() -> None:
    assert len(Skill) == 28
    assert len(fate.MAGIC_SCHOOLS) == 6


def test_unknown_fields_and_negative_fp_are_refused() -> None:
    with pytest.raises(ValidationError):
        Character.model_validate({"name": "x", "hp": 3})
    with pytest.raises(ValidationError):
        Character(name="x", fate_points=-1)


def test_models_are_frozen() -> None:
    with pytest.raises(ValidationError):
        sample().fate_points = 9


def test_contract() -> None:
    assert fate.SYSTEM_ID == "fate"
    assert fate.SCHEMA_VERSION == 1
    draft = fate.new_character("Ива")
    assert draft.name == "Ива"
    assert (draft.refresh, draft.fate_points, draft.aspects) == (3, 3, ())
    assert isinstance(fate.validate_character(draft, FateOptions()), list)
    assert {k.value for k in fate.MilestoneKind} == {"rest_stop", "minor", "significant", "major"}


def test_skill_labels_registered() -> None:
    from engine.text import msg

    assert msg("fate.skill.notice").render("ru") == "Внимательность"
    assert msg("fate.skill.physique").render("en") == "Physique"
