"""Creation validation: every violation at once, the column rule, points, stunts, refresh."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.common import Severity, errors_only
from engine.systems.fate import (
    AspectRole,
    CharacterAspect,
    Equipment,
    Extra,
    FateOptions,
    Skill,
    Stunt,
    column_violations,
    new_character,
    starting_fate_points,
    validate_character,
)
from tests.engine.fate.factories import sample

LOCALES = ("ru", "en")


def _keys(char: object) -> list[str]:
    return [v.msg.key for v in validate_character(char)]  # type: ignore[arg-type]


def test_sample_is_valid_with_no_warnings() -> None:
    assert validate_character(sample()) == []


# seed: «если у вас три Навыка первого уровня, два второго и один - третьего, то все в порядке.
#  Если у вас три Навыка первого уровня, один навык второго уровня и два Навыка третьего уровня -
#  что-то пошло не так. Если у вас три Навыка первого уровня и три Навыка второго уровня -
#  что-то опять пошло не так.»
@pytest.mark.parametrize(
    ("levels", "broken"),
    [
        ({1: 3, 2: 2, 3: 1}, []),
        ({1: 3, 2: 1, 3: 2}, [(3, 2, 1)]),
        ({1: 3, 2: 3}, [(2, 3, 3)]),
    ],
)
def test_seed_column_examples(levels: dict[int, int], broken: list[tuple[int, int, int]]) -> None:
    assert column_violations(levels) == broken


def test_column_examples_through_validator() -> None:
    skills = list(Skill)
    # 3 at +1, 1 at +2, 2 at +3
    bad = {skills[0]: 1, skills[1]: 1, skills[2]: 1, skills[3]: 2, skills[4]: 3, skills[5]: 3}
    keys = _keys(sample(skills=bad))
    assert keys.count("fate.skills.column") == 1
    ok = {skills[0]: 1, skills[1]: 1, skills[2]: 1, skills[3]: 2, skills[4]: 2, skills[5]: 3}
    assert "fate.skills.column" not in _keys(sample(skills=ok))


def test_plus_zero_is_not_part_of_the_column() -> None:
    # DECISION (SPEC): 1 skill at +1 is fine even though 27 sit at +0.
    assert column_violations({1: 1}) == []


def test_gap_in_column_is_broken() -> None:
    # a skill at +3 with none at +2: 1 > 0 − 1
    assert column_violations({1: 2, 3: 1}) == [(3, 1, 0)]


def test_too_many_points_and_too_high_skill() -> None:
    char = sample(skills={**sample().skills, Skill.FIGHT: 5, Skill.RIDE: 1})
    keys = _keys(char)
    assert "fate.skills.too_high" in keys
    assert "fate.skills.too_many_points" in keys


def test_extras_spend_skill_points() -> None:
    char = sample(extras=(Extra(name="Пёс", cost=1),))
    assert "fate.skills.too_many_points" in _keys(char)


def test_unspent_points_are_a_warning() -> None:
    skills = dict(sample().skills)
    del skills[Skill.INVESTIGATE]
    found = validate_character(sample(skills=skills))
    assert [(v.msg.key, v.severity) for v in found] == [
        ("fate.skills.points_left", Severity.WARNING)
    ]
    assert found[0].msg.params["left"] == 1


def test_empty_draft_lists_everything_at_once() -> None:
    keys = _keys(new_character(""))
    for key in (
        "fate.create.no_name",
        "fate.create.role_count",
        "fate.create.too_few_crossings",
        "fate.create.too_few_aspects",
        "fate.skills.points_left",
        "fate.stunts.required",
    ):
        assert key in keys
    assert keys.count("fate.create.role_count") == 3  # concept, trouble, phase


def test_aspect_rules() -> None:
    aspects = (
        *sample().aspects[:4],
        CharacterAspect(text="Второй концепт", role=AspectRole.CONCEPT),
    )
    found = validate_character(sample(aspects=aspects))
    assert [v.field for v in found] == ["aspects.concept", "aspects.crossing"]


@pytest.mark.parametrize(
    ("refresh", "stunts", "keys"),
    [
        (3, 3, []),
        (2, 4, []),
        (0, 6, []),
        (0, 7, ["fate.stunts.too_many"]),
        (3, 4, ["fate.stunts.too_many"]),
        (1, 4, ["fate.stunts.required_traded"]),  # refresh traded: 5 stunts owed
        (4, 2, ["fate.refresh.range", "fate.stunts.required"]),
        (-1, 7, ["fate.refresh.range", "fate.stunts.too_many"]),
        (-1, 6, ["fate.refresh.range"]),
    ],
)
def test_refresh_and_stunts(refresh: int, stunts: int, keys: list[str]) -> None:
    # seed: three refresh, each may be traded for a stunt; this game allows 0 refresh.
    fp = max(refresh, 0)
    char = sample(
        refresh=refresh,
        fate_points=fp,
        stunts=tuple(Stunt(name=f"s{i}") for i in range(stunts)),
    )
    found = [k for k in _keys(char) if k != "fate.fp.start"]
    assert found == keys


def test_starting_fp_must_equal_refresh() -> None:
    assert _keys(sample(fate_points=2)) == ["fate.fp.start"]


def test_gear_within_points_and_caps() -> None:
    # sample has 6 equipment points (see test_derived); melee 4 breaks the cap, 4+0+2*2 = 8 > 6
    keys = _keys(sample(equipment=Equipment(melee=4, armor=2)))
    assert keys == ["fate.gear.melee_cap", "fate.gear.over_points"]


def test_messages_render_in_both_locales() -> None:
    for v in validate_character(new_character("")):
        for loc in LOCALES:
            text = v.render(loc)
            assert text != v.msg.key and "{" not in text


def test_custom_options() -> None:
    opts = FateOptions(skill_points=20, min_crossings=1)
    keys = [v.msg.key for v in validate_character(sample(), opts)]
    assert "fate.skills.too_many_points" in keys


_skill_maps = st.dictionaries(st.sampled_from(list(Skill)), st.integers(-1, 6), max_size=28)


@settings(max_examples=60, deadline=None)
@given(skills=_skill_maps, refresh=st.integers(-1, 4), stunts=st.integers(0, 8))
def test_validation_is_deterministic_and_complete(
    skills: dict[Skill, int], refresh: int, stunts: int
) -> None:
    char = sample(
        skills=skills,
        refresh=refresh,
        fate_points=max(refresh, 0),
        stunts=tuple(Stunt(name=str(i)) for i in range(stunts)),
    )
    first = validate_character(char)
    assert first == validate_character(char)
    keys = {v.msg.key for v in errors_only(first)}
    # completeness: each independently checked rule shows up exactly when it is broken
    assert ("fate.skills.too_high" in keys) == any(v > 4 for v in skills.values())
    assert ("fate.skills.negative" in keys) == any(v < 0 for v in skills.values())
    assert ("fate.refresh.range" in keys) == (not 0 <= refresh <= 3)
    assert ("fate.stunts.too_many" in keys) == (stunts > 3 + 3 - min(max(refresh, 0), 3))
    spent = sum(max(0, v) for v in skills.values())
    assert ("fate.skills.too_many_points" in keys) == (spent > 30)


def test_messages_name_things_in_each_language() -> None:
    char = sample(skills={**sample().skills, Skill.FIGHT: 5})
    (high,) = [v for v in validate_character(char) if v.msg.key == "fate.skills.too_high"]
    assert high.render("ru") == "Навык «Бой» на +5: при создании не выше +4."
    assert high.render("en") == "Skill “Fight” is at +5: at most +4 at creation."
    (role,) = [v for v in validate_character(sample(aspects=())) if v.field == "aspects.concept"]
    assert role.render("ru") == "Нужен ровно один аспект «Концепт», сейчас их 0."


def test_harm_and_fp_rules_apply_only_at_creation() -> None:
    from engine.systems.fate import Consequence, SlotId

    hurt = sample(fate_points=0, consequences=(Consequence(slot=SlotId.MILD, text="a"),))
    assert _keys(hurt) == ["fate.fp.start", "fate.create.has_harm"]
    assert validate_character(hurt, at_creation=False) == []


def test_stunts_owed_block_at_creation_only() -> None:
    """Issue 24, item 8: a new character owes the seed's three stunts; in play it is a note."""
    char = sample(stunts=(Stunt(name="s0"),))
    owed = next(v for v in validate_character(char) if v.field == "required.stunts")
    assert owed.severity is Severity.ERROR
    assert owed.render("ru") == "Трюки: 1 из 3 — допишите ещё 2."
    in_play = validate_character(char, at_creation=False)
    assert [(v.field, v.severity) for v in in_play if "stunts" in v.field] == [
        ("stunts", Severity.WARNING)
    ]


def test_a_written_sheet_starts_with_refresh_fate_points_unless_edited_in_play() -> None:
    assert starting_fate_points(2) == 2  # new, or returned before it was played
    assert starting_fate_points(2, in_play=5) == 5  # an approved sheet edited: kept
    assert starting_fate_points(2, in_play=0) == 0
    assert starting_fate_points(-1) == 0  # never below zero
