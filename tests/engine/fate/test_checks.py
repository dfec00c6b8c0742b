"""Checks, outcomes, the four actions, harm arithmetic, teamwork, split and zone attacks."""

from __future__ import annotations

import pytest

from engine.dice.source import ScriptedSource
from engine.errors import RuleViolation
from engine.systems.fate import (
    Action,
    Beneficiary,
    Gain,
    Outcome,
    attack_harm,
    check,
    fate_notation,
    gain_of,
    opposed,
    outcome_of,
    outcome_text,
    resolve,
    roll,
    split_attack,
    teamwork,
    zone_attack,
)

ZERO = (3, 3, 3, 3)  # 4dF = 0


@pytest.mark.parametrize(
    ("shifts", "outcome"),
    [
        (-3, Outcome.FAIL),
        (-1, Outcome.FAIL),
        (0, Outcome.TIE),
        (1, Outcome.SUCCESS),
        (2, Outcome.SUCCESS),
        (3, Outcome.STYLE),
        (7, Outcome.STYLE),
    ],
)
def test_outcome_table(shifts: int, outcome: Outcome) -> None:
    assert outcome_of(shifts) == outcome


@pytest.mark.parametrize(
    ("faces", "skill", "modifier", "opposition", "total", "shifts", "outcome"),
    [
        ((2, 3, 5, 6), 3, 0, 2, 4, 2, Outcome.SUCCESS),
        ((1, 1, 1, 1), 2, 0, 0, -2, -2, Outcome.FAIL),
        ((6, 6, 6, 6), 0, 0, 1, 4, 3, Outcome.STYLE),
        ((3, 4, 3, 4), 2, 1, 3, 3, 0, Outcome.TIE),
    ],
)
def test_check_arithmetic(
    faces: tuple[int, ...],
    skill: int,
    modifier: int,
    opposition: int,
    total: int,
    shifts: int,
    outcome: Outcome,
) -> None:
    res = check(
        ScriptedSource(faces),
        Action.OVERCOME,
        skill=skill,
        opposition=opposition,
        modifier=modifier,
    )
    assert (res.total, res.shifts, res.outcome) == (total, shifts, outcome)
    assert res.faces == faces
    assert res.notation == fate_notation(skill + modifier)
    assert res.text == outcome_text(Action.OVERCOME, outcome)


@pytest.mark.parametrize("action", list(Action))
@pytest.mark.parametrize("outcome", list(Outcome))
def test_every_action_outcome_has_texts(action: Action, outcome: Outcome) -> None:
    text = outcome_text(action, outcome)
    assert text.render("ru") != text.key
    assert text.render("en") != text.key


def test_seed_texts_sample() -> None:
    assert outcome_text(Action.OVERCOME, Outcome.SUCCESS).render("ru") == "Успех: цель достигнута."
    ru = outcome_text(Action.ADVANTAGE_NEW, Outcome.STYLE).render("ru")
    assert "двумя бесплатными" in ru


def test_full_defence_only_on_defence() -> None:
    res = check(ScriptedSource(ZERO), Action.DEFEND, skill=2, opposition=4, full_defence=True)
    assert (res.total, res.outcome) == (4, Outcome.TIE)
    with pytest.raises(RuleViolation):
        check(ScriptedSource(ZERO), Action.ATTACK, skill=2, opposition=4, full_defence=True)


@pytest.mark.parametrize(
    ("attack", "defence", "weapon", "armor", "harm", "outcome"),
    [
        (4, 2, 0, 0, 2, Outcome.SUCCESS),
        (4, 2, 2, 0, 4, Outcome.SUCCESS),
        (4, 2, 0, 1, 1, Outcome.SUCCESS),
        (4, 2, 0, 3, 0, Outcome.SUCCESS),  # minimum 0
        (2, 2, 3, 0, 0, Outcome.TIE),  # a weapon never turns a tie into a hit
        (1, 2, 3, 0, 0, Outcome.FAIL),
        (5, 1, 1, 1, 4, Outcome.STYLE),
    ],
)
def test_weapon_and_armor_change_only_harm(
    attack: int, defence: int, weapon: int, armor: int, harm: int, outcome: Outcome
) -> None:
    res = resolve(Action.ATTACK, roll(ScriptedSource(ZERO), skill=attack), defence)
    assert res.outcome == outcome
    assert attack_harm(res, weapon=weapon, armor=armor) == harm


def test_style_may_trade_a_shift_for_a_boost() -> None:
    res = resolve(Action.ATTACK, roll(ScriptedSource(ZERO), skill=4), 1)
    assert attack_harm(res, trade_for_boost=True) == 2
    ok = resolve(Action.ATTACK, roll(ScriptedSource(ZERO), skill=3), 1)
    with pytest.raises(RuleViolation):
        attack_harm(ok, trade_for_boost=True)


def test_opposed_defence_reads_from_the_defender_side() -> None:
    attack = roll(ScriptedSource(ZERO), skill=3)
    defence = resolve(Action.DEFEND, roll(ScriptedSource((5, 5, 5, 3)), skill=3), attack.total)
    # defender 6 vs 3: success with style (prevented + a boost)
    assert (defence.shifts, defence.outcome) == (3, Outcome.STYLE)


def test_teamwork() -> None:
    # seed: +1 per helper with the skill at least +1 (Нормально)
    team = teamwork({"a": 2, "b": 3, "c": 1, "d": 0})
    assert (team.lead, team.lead_skill, team.helpers, team.bonus) == ("b", 3, ("a", "c", "d"), 2)
    with pytest.raises(RuleViolation):
        teamwork({})


def test_split_attack_seed_example() -> None:
    # seed: «если вы выбросили на кубах 2, да еще и ваш Бой равен 4, тогда у вас целых шесть
    # очков, которые вы можете распределить между выбранными целями»
    r = roll(ScriptedSource((5, 5, 3, 3)), skill=4)
    assert r.total == 6
    assert split_attack(r.total, {"orc": 4, "goblin": 2}, has_means=True) == {
        "orc": 4,
        "goblin": 2,
    }


@pytest.mark.parametrize(
    ("shares", "means"),
    [
        ({"a": 4, "b": 3}, True),
        ({"a": 6}, True),
        ({"a": 3, "b": 3}, False),
        ({"a": 7, "b": -1}, True),
    ],
)
def test_split_attack_refusals(shares: dict[str, int], means: bool) -> None:
    with pytest.raises(RuleViolation):
        split_attack(6, shares, has_means=means)


def test_split_of_negative_total() -> None:
    assert split_attack(-1, {"a": 0, "b": 0}, has_means=True) == {"a": -1, "b": -1}


def test_zone_attack_hits_everyone_with_the_whole_roll() -> None:
    assert zone_attack(5, ["ally", "foe"]) == {"ally": 5, "foe": 5}


@pytest.mark.parametrize(
    ("action", "outcome", "gain"),
    [
        (Action.OVERCOME, Outcome.SUCCESS, Gain(Beneficiary.NOBODY)),
        (Action.OVERCOME, Outcome.STYLE, Gain(Beneficiary.ACTOR, boost=True)),
        (Action.ADVANTAGE_NEW, Outcome.FAIL, Gain(Beneficiary.OPPONENT, free_invokes=1)),
        (Action.ADVANTAGE_NEW, Outcome.TIE, Gain(Beneficiary.ACTOR, boost=True)),
        (Action.ADVANTAGE_NEW, Outcome.SUCCESS, Gain(Beneficiary.ACTOR, free_invokes=1)),
        (Action.ADVANTAGE_NEW, Outcome.STYLE, Gain(Beneficiary.ACTOR, free_invokes=2)),
        (Action.ADVANTAGE_EXISTING, Outcome.TIE, Gain(Beneficiary.ACTOR, free_invokes=1)),
        (Action.ADVANTAGE_EXISTING, Outcome.STYLE, Gain(Beneficiary.ACTOR, free_invokes=2)),
        (Action.ATTACK, Outcome.TIE, Gain(Beneficiary.ACTOR, boost=True)),
        (Action.ATTACK, Outcome.FAIL, Gain(Beneficiary.NOBODY)),
        (Action.DEFEND, Outcome.TIE, Gain(Beneficiary.OPPONENT, boost=True)),
        (Action.DEFEND, Outcome.STYLE, Gain(Beneficiary.ACTOR, boost=True)),
    ],
)
def test_gains_follow_the_seed_table(action: Action, outcome: Outcome, gain: Gain) -> None:
    shifts = {Outcome.FAIL: -1, Outcome.TIE: 0, Outcome.SUCCESS: 1, Outcome.STYLE: 3}[outcome]
    res = resolve(action, roll(ScriptedSource(ZERO), skill=2), 2 - shifts)
    assert res.outcome is outcome
    assert gain_of(res) == gain


def test_opposed_check_keeps_both_rolls_and_ladder() -> None:
    attack = roll(ScriptedSource((6, 6, 3, 3)), skill=1)  # 3
    defence = roll(ScriptedSource((1, 3, 3, 3)), skill=2)  # 1
    res = opposed(Action.ATTACK, attack, defence)
    assert (res.shifts, res.outcome, res.opposing_roll) == (2, Outcome.SUCCESS, defence)
    assert res.ladder.render("ru") == "Хорошо"
    assert res.ladder.render("en") == "Good"
