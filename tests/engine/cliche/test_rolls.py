"""Checks against target numbers, pools, quick contests and round damage."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice.source import ScriptedSource, SeededSource
from engine.errors import RuleViolation
from engine.systems.cliche import (
    FREE_DICE,
    Cliche,
    LossKind,
    PoolSpec,
    RoundWinner,
    TargetNumber,
    Tool,
    ToolEffect,
    lose_dice,
    opposed_round,
    pay_pump,
    quick_contest,
    roll_check,
    roll_pool,
    round_damage,
    target_label,
)
from tests.engine.cliche.builders import make_character


@pytest.mark.parametrize(
    ("target", "value", "ru", "en"),
    [
        (TargetNumber.TRIVIAL, 5, "Элементарно просто", "Trivial"),
        (TargetNumber.PROFESSIONAL, 10, "Вызов для профессионала", "A professional's challenge"),
        (TargetNumber.HEROIC, 15, "Героический вызов", "Heroic challenge"),
        (TargetNumber.MASTER, 20, "Вызов для мастера", "A master's challenge"),
        (TargetNumber.JOKING, 30, "Ты верно шутишь?!", "You must be joking?!"),
    ],
)
def test_target_scale(target: TargetNumber, value: int, ru: str, en: str) -> None:
    # Seed: «5: Элементарно просто … 30: Ты верно шутишь?!»
    assert int(target) == value
    assert target.label.render("ru") == ru
    assert target.label.render("en") == en
    label = target_label(value)
    assert label is not None and label.render("ru") == ru


def test_target_label_off_scale() -> None:
    assert target_label(12) is None


@pytest.mark.parametrize(
    ("faces", "target", "success"),
    [
        # Seed: «стрельба из-за угла элементарно для Снайпера или Стрелка (5), нормально для
        # гражданского (10) и крайне сложно для слепого (30)»
        ((1, 1, 1, 2), TargetNumber.TRIVIAL, True),
        ((1, 1, 1, 1), TargetNumber.TRIVIAL, False),
        ((2, 2, 3, 3), TargetNumber.PROFESSIONAL, True),
        ((2, 2, 3, 2), TargetNumber.PROFESSIONAL, False),
        ((6, 6, 6, 6), TargetNumber.JOKING, False),
    ],
)
def test_check_sum_meets_target(faces: tuple[int, ...], target: int, success: bool) -> None:
    # «Если сумма равна или превышает целевое число … это успех, если нет – провал.»
    sniper = make_character("Джейн", ("Стрелок", 4))
    after, outcome = roll_check(sniper, "Стрелок", target, ScriptedSource(faces))
    assert outcome.success is success
    assert (outcome.notation, outcome.faces, outcome.total) == ("4d6", faces, sum(faces))
    assert after == sniper


def test_check_with_pumping_costs_dice() -> None:
    # «Этот бонус длится единственный раунд или единственный бросок … после этого … персонаж
    # теряет число костей, равное накачке»
    cowboy = make_character("Руди", ("Ковбой", 3))
    after, outcome = roll_check(cowboy, "Ковбой", 15, ScriptedSource([3, 3, 3, 3, 3]), pump=2)
    assert (outcome.notation, outcome.total, outcome.success, outcome.pump_lost) == (
        "5d6",
        15,
        True,
        2,
    )
    assert after.cliche("Ковбой").current == 1


def test_check_with_bonus_dice_keeps_the_cliche() -> None:
    soldier = make_character("Зои", ("Солдат", 3))
    after, outcome = roll_check(soldier, "Солдат", 10, ScriptedSource([2, 2, 2, 2]), bonus=1)
    assert (outcome.notation, outcome.total, outcome.success) == ("4d6", 8, False)
    assert after == soldier


def test_check_without_laptop_is_impossible() -> None:
    # «Хакер не может влезать в сеть без лаптопа»
    hacker = make_character("Верблюд").model_copy(
        update={
            "cliches": (
                Cliche(
                    name="Хакер",
                    dice=4,
                    tools=(Tool(name="Лаптоп", present=False, when_missing=ToolEffect.DISABLED),),
                ),
            )
        }
    )
    with pytest.raises(RuleViolation) as caught:
        roll_check(hacker, "Хакер", 10, ScriptedSource([]))
    assert caught.value.msg.key == "cliche.roll.cliche_unusable"


def test_armor_is_never_rolled() -> None:
    soldier = make_character("Зои", ("Солдат", 3), armor=("Бронежилет", 2))
    with pytest.raises(RuleViolation):
        roll_check(soldier, "Бронежилет", 10, ScriptedSource([1, 1]))


@pytest.mark.parametrize(
    ("pool", "size"),
    [
        # «Солдат(5) стреляет по бегущему Ковбою(6), Ковбой получает бонус к защите(+1) … и
        # бросает не 6, а 7 костей.»
        (PoolSpec(6, bonus=1), 7),
        # «Когда же наступает ход Ковбоя, Солдат получает бонус защиты(+1)»
        (PoolSpec(5, bonus=1), 6),
        # «Новеллист (3) … прокачать этот навык на (2) … Ковбой … кидает 5 костей»
        (PoolSpec(3, pump=2), 5),
        # «у обладателя клише Редкий Обжора стало бы 4 кости, а у его противника - 2»
        (PoolSpec(2, free=FREE_DICE), 4),
        (PoolSpec(0, free=FREE_DICE), 2),
        (PoolSpec(4, penalty=2), 2),
        (PoolSpec(2, penalty=3, bonus=1), 1),
        (PoolSpec(4, pump=1, double=True, bonus=1), 11),
    ],
)
def test_pool_sizes(pool: PoolSpec, size: int) -> None:
    assert pool.size == size


def test_negative_pool_parts_are_refused() -> None:
    with pytest.raises(RuleViolation):
        PoolSpec(3, pump=-1)


def test_empty_pool_cannot_roll() -> None:
    with pytest.raises(RuleViolation) as caught:
        roll_pool(ScriptedSource([]), 0)
    assert caught.value.msg.key == "cliche.roll.no_dice"


def test_donut_contest_with_free_dice() -> None:
    # «Мастер может дать всем участникам процесса две свободных кости … у обладателя клише
    # Редкий Обжора стало бы 4 кости, а у его противника - 2.»
    outcome = quick_contest(
        [PoolSpec(2, free=FREE_DICE), PoolSpec(0, free=FREE_DICE)],
        ScriptedSource([1, 2, 3, 4, 6, 5]),
    )
    assert [r.notation for r in outcome.rolls] == ["4d6", "2d6"]
    assert [r.total for r in outcome.rolls] == [10, 11]
    assert outcome.winner == 1
    assert outcome.notation == "4d6 vs 2d6"
    assert outcome.faces == (1, 2, 3, 4, 6, 5)


def test_quick_contest_tie_has_no_winner() -> None:
    outcome = quick_contest([PoolSpec(1), PoolSpec(1)], ScriptedSource([4, 4]))
    assert outcome.winner is None


def test_pay_pump() -> None:
    cowboy = make_character("Руди", ("Новеллист", 3))
    after, lost = pay_pump(cowboy, "Новеллист", 2)
    assert (after.cliche("Новеллист").current, lost) == (1, 2)


@pytest.mark.parametrize(
    ("attack", "defence", "graded", "attacker_ok", "defender_ok", "faces", "expected"),
    [
        # «Кинувший меньше - проиграл. Кроме того, проигравший теряет одну кость»
        (12, 10, False, True, True, (), (RoundWinner.ATTACKER, 1, LossKind.ONE)),
        (10, 12, False, True, True, (), (RoundWinner.DEFENDER, 1, LossKind.ONE)),
        (30, 10, False, True, True, (), (RoundWinner.ATTACKER, 1, LossKind.ONE)),
        # ties: nobody loses, roll again (SPEC DECISION)
        (10, 10, True, True, True, (), (RoundWinner.TIE, 0, LossKind.NONE)),
        # «1) атака больше защиты: урон одна кость.»
        (19, 10, True, True, True, (), (RoundWinner.ATTACKER, 1, LossKind.ONE)),
        # «2) атака больше либо равна удвоенной защите: урон 1д6 костей»
        (20, 10, True, True, True, (5,), (RoundWinner.ATTACKER, 5, LossKind.GRADED)),
        (21, 10, True, True, True, (1,), (RoundWinner.ATTACKER, 1, LossKind.GRADED)),
        # the defence beats a graded attack: the attacker loses one die (SPEC DECISION)
        (5, 20, True, True, True, (), (RoundWinner.DEFENDER, 1, LossKind.ONE)),
        # «Если неприемлемое клише выиграет раунд … «правильный» игрок потеряет 3 кости»
        (12, 10, False, False, True, (), (RoundWinner.ATTACKER, 3, LossKind.INAPPROPRIATE)),
        (10, 12, False, True, False, (), (RoundWinner.DEFENDER, 3, LossKind.INAPPROPRIATE)),
        # «"Неправильный" же игрок … теряет при проигрыше по одной кости, как обычно.»
        (10, 12, False, False, True, (), (RoundWinner.DEFENDER, 1, LossKind.ONE)),
        # both inappropriate: ordinary loss
        (12, 10, False, False, False, (), (RoundWinner.ATTACKER, 1, LossKind.ONE)),
        # graded 1d6 and inappropriate together: max(3, 1d6) (SPEC DECISION)
        (
            20,
            10,
            True,
            False,
            True,
            (2,),
            (RoundWinner.ATTACKER, 3, LossKind.INAPPROPRIATE_GRADED),
        ),
        (
            20,
            10,
            True,
            False,
            True,
            (6,),
            (RoundWinner.ATTACKER, 6, LossKind.INAPPROPRIATE_GRADED),
        ),
    ],
)
def test_round_damage(
    attack: int,
    defence: int,
    graded: bool,
    attacker_ok: bool,
    defender_ok: bool,
    faces: tuple[int, ...],
    expected: tuple[RoundWinner, int, LossKind],
) -> None:
    source = ScriptedSource(faces)
    damage = round_damage(
        attack,
        defence,
        source,
        graded=graded,
        attacker_appropriate=attacker_ok,
        defender_appropriate=defender_ok,
    )
    assert (damage.winner, damage.dice, damage.kind) == expected
    assert damage.faces == faces
    assert damage.notation == ("1d6" if faces else "")
    assert source.remaining == 0


@settings(max_examples=60, deadline=None, database=None)
@given(
    dice=st.integers(1, 6),
    lost=st.integers(0, 6),
    attack=st.integers(1, 36),
    defence=st.integers(1, 36),
    graded=st.booleans(),
    attacker_ok=st.booleans(),
    seed=st.integers(0, 10**6),
)
def test_property_lost_dice_never_exceed_the_cliche(
    dice: int, lost: int, attack: int, defence: int, graded: bool, attacker_ok: bool, seed: int
) -> None:
    cliche = Cliche(name="Солдат", dice=dice, lost=min(lost, dice))
    damage = round_damage(
        attack, defence, SeededSource(seed), graded=graded, attacker_appropriate=attacker_ok
    )
    assert 0 <= damage.dice <= 6
    after, taken = lose_dice(cliche, damage.dice)
    assert after.lost <= after.dice
    assert 0 <= after.current == cliche.current - taken


def test_opposed_round_graded_hit() -> None:
    # «атака больше либо равна удвоенной защите: урон 1д6 костей»
    outcome = opposed_round(
        PoolSpec(3), PoolSpec(2), ScriptedSource([6, 5, 4, 1, 2, 3]), graded=True
    )
    assert (outcome.attack.total, outcome.defence.total) == (15, 3)
    assert (outcome.damage.winner, outcome.damage.dice) == (RoundWinner.ATTACKER, 3)
    assert outcome.notation == "3d6 vs 2d6; 1d6"
    assert outcome.faces == (6, 5, 4, 1, 2, 3)


def test_opposed_round_inappropriate_defence_wins() -> None:
    outcome = opposed_round(
        PoolSpec(4),
        PoolSpec(3, penalty=1),
        ScriptedSource([1, 1, 1, 1, 6, 6]),
        defender_appropriate=False,
    )
    assert (outcome.damage.winner, outcome.damage.dice, outcome.damage.kind) == (
        RoundWinner.DEFENDER,
        3,
        LossKind.INAPPROPRIATE,
    )
    assert outcome.notation == "4d6 vs 2d6"
