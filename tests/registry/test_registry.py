"""Each entry of the registry is whole: the pieces a system provides agree with each other."""

from __future__ import annotations

import importlib

import pytest

from bot.i18n import I18n
from bot.systems import SYSTEMS, SystemSpec
from engine.dice.source import ScriptedSource

SPECS = sorted(SYSTEMS.values(), key=lambda spec: spec.id)


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.id)
def test_the_entry_is_its_engine_package(spec: SystemSpec) -> None:
    package = importlib.import_module(f"engine.systems.{spec.id}")
    assert package.SYSTEM_ID == spec.id
    assert spec.character_type is package.Character


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.id)
def test_every_milestone_kind_has_a_title(spec: SystemSpec) -> None:
    kinds = spec.milestones.kinds
    assert kinds and set(spec.milestone_titles) == set(kinds)
    rolled = spec.milestones.rolled_kind
    assert rolled is None or rolled in kinds


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.id)
def test_only_a_rolled_milestone_plans_rolls(spec: SystemSpec) -> None:
    """The bot rolls what ``planned_rolls`` lists, for ``rolled_kind`` only."""
    sheet = spec.new_character("Ира")
    if spec.milestones.rolled_kind is None:
        assert spec.milestones.planned_rolls(sheet) == ()
        with pytest.raises(ValueError):
            spec.milestones.apply_rolled(sheet, (), ScriptedSource(()))
    else:  # nothing planned, nothing rolled, nothing changed
        planned = spec.milestones.planned_rolls(sheet)
        after, changes, rolled = spec.milestones.apply_rolled(sheet, planned, ScriptedSource(()))
        assert (planned, after, changes, rolled) == ((), sheet, [], [])


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.id)
@pytest.mark.parametrize("locale", ["ru", "en"])
def test_the_bot_words_of_a_system_are_translated(spec: SystemSpec, locale: str) -> None:
    t = I18n("ru").translator(locale)
    msgids = [spec.level_ask, spec.level_none, *spec.milestone_titles.values()]
    msgids += [option.label for option in spec.game_options]
    for msgid in msgids:
        assert t(msgid).strip()
        if locale == "ru":
            assert t(msgid) != msgid, msgid


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.id)
def test_a_sheet_of_another_system_is_refused_by_its_sheet_rolls(spec: SystemSpec) -> None:
    other = next(s for s in SPECS if s.id != spec.id)
    with pytest.raises(ValueError):
        spec.sheet_rolls.plan(other.new_character("Ира"), "x", "ru")
