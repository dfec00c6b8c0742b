"""The FATE wizard's draft helpers and sheet view, without a bot: engine refusals, escaping."""

from __future__ import annotations

from typing import Any

from bot.i18n import I18n
from engine.common import Violation, errors_only
from engine.systems.fate import (
    Character,
    FateOptions,
    GearItem,
    Skill,
    Stunt,
    allocation,
    validate_character,
)
from handlers.views.sheets import LIMIT, render_sheet
from handlers.wizards import fate_draft as draft

OPTIONS = FateOptions()
Data = dict[str, Any]


def problems(data: Data, options: FateOptions, prefixes: tuple[str, ...]) -> list[Violation]:
    """The engine's blocking violations whose field starts with one of ``prefixes``."""
    found = errors_only(validate_character(draft.build(data), options))
    return [v for v in found if v.field.startswith(prefixes)]


def step(
    data: Data, options: FateOptions, rated: allocation.Rated, item: str, delta: int
) -> list[Violation]:
    """A press as the wizard makes it: the engine's refusal, or the draft changed."""
    after = allocation.step_level(draft.build(data), options, rated, item, delta)
    if isinstance(after, list):
        return after
    data.update(draft.levels(after, rated))
    return []


def step_skill(data: Data, options: FateOptions, skill: Skill, delta: int) -> list[Violation]:
    return step(data, options, "skills", skill.value, delta)


def step_gear(data: Data, options: FateOptions, item: GearItem, delta: int) -> list[Violation]:
    return step(data, options, "equipment", item.value, delta)


def points_left(data: Data, options: FateOptions) -> int:
    return allocation.points_left(draft.build(data), options)


def _data(**changes: Any) -> dict[str, Any]:
    data = draft.load(None, OPTIONS)
    data.update(
        name="Mira", concept="Alchemist", trouble="Debts", phase="Fire",
        crossings=[{"text": "Bob's debt", "with": 0}, {"text": "The ferry", "with": None}],
    )  # fmt: skip
    data.update(changes)
    return data


def test_fresh_draft_owes_only_its_stunts() -> None:
    data = _data()
    # the seed's three stunts are owed at the preview (issue 24, item 8); the rest only warns
    assert [v.field for v in problems(data, OPTIONS, ("",))] == ["required.stunts"]
    assert problems(data, OPTIONS, ("stunts", "refresh")) == []  # the step lets it pass
    built = draft.build(data)
    assert built.fate_points == built.refresh == 3 and len(built.aspects) == 5


def test_skill_cap_and_points_come_from_the_engine() -> None:
    data = _data(skills={"fight": 4})
    refused = step_skill(data, OPTIONS, Skill.FIGHT, +1)
    assert refused and "at most +4" in refused[0].render("en")
    assert data["skills"] == {"fight": 4}
    full = _data(skills={s.value: 1 for s in list(Skill)[:28]}, refresh=3)
    full["skills"].update({"fight": 3})  # 30 points spent
    assert points_left(full, OPTIONS) == 0
    refused = step_skill(full, OPTIONS, Skill.WILL, +1)
    assert refused and "31 skill points spent out of 30" in refused[0].render("en")
    assert step_skill(full, OPTIONS, Skill.FIGHT, -1) == []
    assert full["skills"]["fight"] == 2


def test_column_rule_is_only_checked_when_leaving_the_step() -> None:
    data = _data()
    for skill, times in ((Skill.FIGHT, 4), (Skill.WILL, 4), (Skill.NOTICE, 3)):
        for _ in range(times):
            assert step_skill(data, OPTIONS, skill, +1) == []
    found = problems(data, OPTIONS, ("skills",))
    assert [v.field for v in found] == ["skills.column", "skills.column"]


def test_gear_over_equipment_points_is_refused() -> None:
    data = _data(skills={"wealth": 1})
    assert step_gear(data, OPTIONS, GearItem.MELEE, +1) == []
    refused = step_gear(data, OPTIONS, GearItem.ARMOR, +1)
    assert refused and "equipment points" in refused[0].render("en")
    assert data["gear"] == {"melee": 1, "ranged": 0, "armor": 0}


def test_editing_keeps_fate_points_and_untouched_fields() -> None:
    stunt = Stunt(name="Firestorm", powerful=True)
    sheet = Character(name="Old", refresh=2, fate_points=5, notes="kept", stunts=(stunt,))
    data = {**draft.load(sheet.model_dump(mode="json"), OPTIONS), "editing": True}
    built = draft.build(data)
    assert built.fate_points == 5 and built.notes == "kept" and built.refresh == 2
    assert built.stunts == (stunt,)  # the GM's "powerful" mark survives the wizard
    data["editing"] = False  # a returned (never played) sheet starts with FP = refresh
    assert draft.build(data).fate_points == 2


def test_sheet_escapes_and_fits() -> None:
    t = I18n("ru").translator("ru")
    stunts = tuple(Stunt(name=f"<b>{i}</b>", description="x&y " * 120) for i in range(12))
    character = draft.build(_data(name="<i>Mira</i>", skills={"fight": 3, "physique": 5}))
    character = character.model_copy(update={"stunts": stunts})
    html = render_sheet("fate", character, t, "ru")
    assert len(html) <= LIMIT and "&lt;i&gt;Mira&lt;/i&gt;" in html and "<i>Mira" not in html
    assert "Бой" in html and "Конституция" in html and "Прекрасно" not in html
    assert "лёгкое физическое 2" in html  # Конституция +5 → the extra mild slot
