"""FATE's creation presses: a level up or down judged by the engine, the refresh trade."""

from __future__ import annotations

from engine.systems.fate import Character, Equipment, FateOptions, Skill, Stunt, allocation

OPTIONS = FateOptions()


def _sheet(**changes: object) -> Character:
    return Character(name="Mira").model_copy(update=changes)


def test_a_raise_over_the_cap_or_the_points_is_refused_a_lowering_never() -> None:
    capped = allocation.step_level(_sheet(skills={Skill.FIGHT: 4}), OPTIONS, "skills", "fight", 1)
    assert isinstance(capped, list) and "at most +4" in capped[0].render("en")
    full = _sheet(skills={s: 1 for s in list(Skill)[:28]} | {Skill.FIGHT: 3})
    assert allocation.points_left(full, OPTIONS) == 0
    over = allocation.step_level(full, OPTIONS, "skills", "will", 1)
    assert isinstance(over, list) and "31 skill points spent out of 30" in over[0].render("en")
    lowered = allocation.step_level(full, OPTIONS, "skills", "fight", -1)
    assert isinstance(lowered, Character) and lowered.skill(Skill.FIGHT) == 2
    at_zero = _sheet()
    assert allocation.step_level(at_zero, OPTIONS, "skills", "will", -1) is at_zero


def test_the_column_is_not_judged_per_press() -> None:
    sheet = _sheet(skills={Skill.FIGHT: 4, Skill.WILL: 3})
    raised = allocation.step_level(sheet, OPTIONS, "skills", "notice", 1)
    assert isinstance(raised, Character)
    assert allocation.column(raised) == {4: 1, 3: 1, 1: 1}


def test_gear_is_paid_by_equipment_points_from_skills() -> None:
    sheet = _sheet(skills={Skill.WEALTH: 1})
    melee = allocation.step_level(sheet, OPTIONS, "equipment", "melee", 1)
    assert isinstance(melee, Character) and melee.equipment == Equipment(melee=1)
    armor = allocation.step_level(melee, OPTIONS, "equipment", "armor", 1)
    assert isinstance(armor, list) and "equipment points" in armor[0].render("en")


def test_refresh_traded_for_stunt_slots_and_back() -> None:
    sheet = _sheet()
    assert allocation.trade_refresh(sheet, OPTIONS, +1) is None  # nothing traded yet
    traded = allocation.trade_refresh(sheet, OPTIONS, -1)
    assert isinstance(traded, Character) and traded.refresh == 2
    assert allocation.stunts_allowed(traded, OPTIONS) == 4
    floor = _sheet(refresh=OPTIONS.min_refresh)
    refused = allocation.trade_refresh(floor, OPTIONS, -1)
    assert isinstance(refused, list) and refused[0].field == "refresh"
    stunts = tuple(Stunt(name=f"S{i}") for i in range(4))
    crowded = traded.model_copy(update={"stunts": stunts})
    back = allocation.trade_refresh(crowded, OPTIONS, +1)
    assert isinstance(back, list) and back[0].field == "stunts"


def test_a_typed_stunt_is_a_name_and_what_it_does() -> None:
    quick = allocation.parse_stunt("Quick  hands: +2 to Crime when picking locks ")
    assert quick == Stunt(name="Quick hands", description="+2 to Crime when picking locks")
    assert allocation.parse_stunt("Ember ward") == Stunt(name="Ember ward")
    assert allocation.parse_stunt("Ember ward:  ") == Stunt(name="Ember ward")
    for unfit in ("", ": no name", "x" * 65, "Long: " + "x" * 501, " /cancel", "Ward: /help"):
        assert allocation.parse_stunt(unfit) is None, unfit


def test_a_stunt_takes_a_free_slot() -> None:
    full = _sheet(stunts=tuple(Stunt(name=f"S{i}") for i in range(3)))
    assert allocation.add_stunt(full, OPTIONS, Stunt(name="One more")) is None
    traded = full.model_copy(update={"refresh": 2})
    added = allocation.add_stunt(traded, OPTIONS, Stunt(name="One more"))
    assert added is not None and added.stunts[-1] == Stunt(name="One more")


def test_no_more_than_twelve_stunts_whatever_the_options() -> None:
    lavish = OPTIONS.model_copy(update={"base_stunts": 40})
    twelve = _sheet(stunts=tuple(Stunt(name=f"S{i}") for i in range(allocation.MAX_STUNTS)))
    assert allocation.add_stunt(twelve, lavish, Stunt(name="One more")) is None
    eleven = twelve.model_copy(update={"stunts": twelve.stunts[:-1]})
    assert allocation.add_stunt(eleven, lavish, Stunt(name="One more")) is not None
