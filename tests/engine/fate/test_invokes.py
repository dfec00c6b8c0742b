"""Invokes after the roll, who receives paid fate points, compels, facts, the FP economy."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice.source import ScriptedSource
from engine.errors import EngineError, RuleViolation
from engine.systems.fate import (
    CompelAnswer,
    GmPool,
    Invoke,
    InvokeEffect,
    activate_powerful_stunt,
    compel,
    declare_fact,
    gain_fate_points,
    invoke,
    invoke_opposition,
    roll,
    spend_fate_points,
)
from tests.engine.fate.factories import sample

ZERO = (3, 3, 3, 3)
BONUS, REROLL = InvokeEffect.BONUS, InvokeEffect.REROLL


# seed: «если вы ... можете использовать аспект за бесплатно, то потратив ОС вы можете
# использовать его еще раз, получая, например, бонус +4 или +2 и реролл»
def test_seed_one_free_one_paid_is_plus_four() -> None:
    out = invoke(
        roll(ScriptedSource(ZERO), skill=2),
        [Invoke("В огне!", BONUS, free=True), Invoke("В огне!", BONUS)],
        fate_points=1,
        free_available={"В огне!": 1},
    )
    assert (out.bonus, out.roll.total, out.fate_points_spent) == (4, 6, 1)
    assert out.free_used == (("В огне!", 1),)


def test_seed_one_free_one_paid_is_plus_two_and_a_reroll() -> None:
    out = invoke(
        roll(ScriptedSource(ZERO), skill=2),
        [Invoke("A", BONUS, free=True), Invoke("A", REROLL)],
        fate_points=1,
        free_available={"A": 1},
        source=ScriptedSource((6, 6, 5, 1)),
    )
    assert (out.bonus, out.rerolls) == (2, 1)
    assert out.faces == (6, 6, 5, 1)
    assert out.roll.faces == (3, 3, 3, 3, 6, 6, 5, 1)
    assert out.roll.total == 2 + 2 + 2
    assert out.notation == "4dF+2"


# seed: «если вам вдруг, доступно целых два бесплатных обращения, то вы можете получить бонус в
# +6 или три реролла»
def test_seed_two_free_one_paid_is_plus_six() -> None:
    invokes = [Invoke("A", BONUS, free=True), Invoke("A", BONUS, free=True), Invoke("A", BONUS)]
    out = invoke(
        roll(ScriptedSource(ZERO), skill=0), invokes, fate_points=1, free_available={"A": 2}
    )
    assert (out.bonus, out.roll.total, out.fate_points_spent) == (6, 6, 1)


def test_seed_two_free_one_paid_is_three_rerolls() -> None:
    invokes = [Invoke("A", REROLL, free=True), Invoke("A", REROLL, free=True), Invoke("A", REROLL)]
    source = ScriptedSource((1, 1, 1, 1, 2, 2, 2, 2, 6, 6, 3, 3))
    out = invoke(
        roll(ScriptedSource(ZERO), skill=0),
        invokes,
        fate_points=1,
        free_available={"A": 2},
        source=source,
    )
    assert out.rerolls == 3
    assert out.roll.dice == (6, 6, 3, 3)  # the last reroll stands
    assert out.roll.total == 2
    assert len(out.roll.faces) == 16


def test_one_paid_invoke_per_aspect_per_check() -> None:
    r = roll(ScriptedSource(ZERO), skill=0)
    with pytest.raises(RuleViolation):
        invoke(r, [Invoke("A"), Invoke("A")], fate_points=5, free_available={})
    first = invoke(r, [Invoke("A")], fate_points=5, free_available={})
    with pytest.raises(RuleViolation):
        invoke(first.roll, [Invoke("A")], fate_points=4, free_available={})
    # a different aspect is fine
    second = invoke(first.roll, [Invoke("B")], fate_points=4, free_available={})
    assert second.roll.invoke_bonus == 4


def test_free_invokes_must_exist() -> None:
    r = roll(ScriptedSource(ZERO), skill=0)
    with pytest.raises(RuleViolation):
        invoke(r, [Invoke("A", free=True)] * 2, fate_points=0, free_available={"A": 1})


def test_paid_invoke_needs_a_fate_point() -> None:
    r = roll(ScriptedSource(ZERO), skill=0)
    with pytest.raises(RuleViolation):
        invoke(r, [Invoke("A"), Invoke("B")], fate_points=1, free_available={})


def test_reroll_needs_dice_and_empty_is_refused() -> None:
    r = roll(ScriptedSource(ZERO), skill=0)
    with pytest.raises(EngineError):
        invoke(r, [Invoke("A", REROLL)], fate_points=1, free_available={})
    with pytest.raises(EngineError):
        invoke(r, [], fate_points=1, free_available={})


@pytest.mark.parametrize(
    ("opposed_by", "gm_recipient", "gm_to_bank", "recipient"),
    [
        (None, None, False, None),  # plain check: the point goes to the bank
        ("orc", None, False, "orc"),  # opposed check: the other side gets it
        ("orc", "gm", False, "gm"),  # GM override
        ("orc", None, True, None),  # GM sends it to the bank
    ],
)
def test_paid_point_recipient(
    opposed_by: str | None, gm_recipient: str | None, gm_to_bank: bool, recipient: str | None
) -> None:
    out = invoke(
        roll(ScriptedSource(ZERO), skill=0),
        [Invoke("A")],
        fate_points=1,
        free_available={},
        opposed_by=opposed_by,
        gm_recipient=gm_recipient,
        gm_to_bank=gm_to_bank,
    )
    assert out.fp_recipient == recipient


def test_free_invoke_pays_nobody() -> None:
    out = invoke(
        roll(ScriptedSource(ZERO), skill=0),
        [Invoke("A", free=True)],
        fate_points=0,
        free_available={"A": 1},
        opposed_by="orc",
    )
    assert (out.fate_points_spent, out.fp_recipient) == (0, None)


def test_invoke_to_create_opposition() -> None:
    out = invoke_opposition(
        None, [Invoke("Сложный замок")], fate_points=1, free_available={}, opposed_by="thief"
    )
    assert (out.opposition, out.fp_recipient) == (2, "thief")
    raised = invoke_opposition(
        3, [Invoke("A", free=True)], fate_points=0, free_available={"A": 1}, opposed_by="x"
    )
    assert (raised.opposition, raised.fp_recipient) == (5, None)
    with pytest.raises(RuleViolation):
        invoke_opposition(
            1, [Invoke("A", REROLL)], fate_points=1, free_available={}, opposed_by="x"
        )


def test_compel_accept_and_refuse() -> None:
    hero, gm = sample(fate_points=1), GmPool(fate_points=2)
    hero2, gm2, out = compel(hero, CompelAnswer.ACCEPT, payer=gm)
    assert (hero2.fate_points, gm2.fate_points if gm2 else None) == (2, 1)
    assert (out.target_delta, out.payer_delta) == (1, -1)
    hero3, _, out = compel(hero, CompelAnswer.REFUSE, payer=gm)
    assert (hero3.fate_points, out.target_delta) == (0, -1)
    with pytest.raises(RuleViolation):
        compel(sample(fate_points=0), CompelAnswer.REFUSE, payer=gm)
    with pytest.raises(RuleViolation):
        compel(hero, CompelAnswer.ACCEPT, payer=GmPool(fate_points=0))


def test_self_compel_paid_by_the_bank() -> None:
    hero, payer, out = compel(sample(fate_points=0), CompelAnswer.ACCEPT)
    assert (hero.fate_points, payer, out.payer_delta) == (1, None, 0)


def test_compel_by_another_player() -> None:
    target, player = sample(fate_points=0), sample(name="Б", fate_points=1)
    target, player2, _ = compel(target, CompelAnswer.ACCEPT, payer=player)
    assert (target.fate_points, player2.fate_points if player2 else None) == (1, 0)


def test_declare_fact() -> None:
    hero, out = declare_fact(sample(fate_points=1))
    assert (hero.fate_points, out.accepted, out.fate_points_spent) == (0, True, 1)
    hero, out = declare_fact(sample(fate_points=1), gm_rejects=True)
    assert (hero.fate_points, out.accepted) == (1, False)
    hero, out = declare_fact(sample(fate_points=1), vetoed_by="Б")
    assert (hero.fate_points, out.accepted, out.vetoed_by) == (0, False, "Б")
    with pytest.raises(RuleViolation):
        declare_fact(sample(fate_points=0))


def test_powerful_stunt_costs_one() -> None:
    assert activate_powerful_stunt(sample(fate_points=2)).fate_points == 1


def test_negative_amounts_refused() -> None:
    with pytest.raises(EngineError):
        spend_fate_points(sample(), -1)
    with pytest.raises(EngineError):
        gain_fate_points(GmPool(), -1)


_ops = st.lists(
    st.sampled_from(["spend", "gain", "accept", "refuse", "fact", "stunt", "spend2"]),
    max_size=30,
)


@settings(max_examples=80, deadline=None)
@given(start=st.integers(0, 3), ops=_ops)
def test_fate_points_never_negative(start: int, ops: list[str]) -> None:
    hero, gm = sample(fate_points=start), GmPool(fate_points=1)
    for op in ops:
        try:
            if op == "spend":
                hero = spend_fate_points(hero)
            elif op == "spend2":
                hero = spend_fate_points(hero, 2)
            elif op == "gain":
                hero = gain_fate_points(hero)
            elif op in ("accept", "refuse"):
                hero, new_gm, _ = compel(hero, CompelAnswer(op), payer=gm)
                gm = new_gm if new_gm is not None else gm
            elif op == "fact":
                hero, _ = declare_fact(hero)
            else:
                hero = activate_powerful_stunt(hero)
        except RuleViolation:
            pass
        assert hero.fate_points >= 0
        assert gm.fate_points >= 0


def test_opposition_respects_earlier_paid_invokes() -> None:
    with pytest.raises(RuleViolation):
        invoke_opposition(
            2, [Invoke("A")], fate_points=1, free_available={}, opposed_by="x", paid_before=["A"]
        )
