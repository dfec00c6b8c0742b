"""The package's own tiny parser for stat expressions (sums of NdM and integers)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.dice.source import ScriptedSource, SeededSource
from engine.errors import EngineError
from engine.systems.lifegear import (
    DiceExpr,
    DiceExpressionError,
    DiceTerm,
    parse_dice,
    roll_expr,
)


@pytest.mark.parametrize(
    ("text", "terms", "constant", "rendered"),
    [
        ("1d8+3", (DiceTerm(1, 8),), 3, "1d8+3"),
        ("1d8+1d6+3", (DiceTerm(1, 8), DiceTerm(1, 6)), 3, "1d8+1d6+3"),
        (" 1d8 + 1d6 + 3 ", (DiceTerm(1, 8), DiceTerm(1, 6)), 3, "1d8+1d6+3"),
        ("d6", (DiceTerm(1, 6),), 0, "1d6"),
        ("2D10", (DiceTerm(2, 10),), 0, "2d10"),
        ("1к6+2", (DiceTerm(1, 6),), 2, "1d6+2"),
        ("1д20", (DiceTerm(1, 20),), 0, "1d20"),
        ("1d8-1", (DiceTerm(1, 8),), -1, "1d8-1"),
        ("3+1d4", (DiceTerm(1, 4),), 3, "1d4+3"),
        ("1+2+1d4", (DiceTerm(1, 4),), 3, "1d4+3"),
        ("-2+1d6", (DiceTerm(1, 6),), -2, "1d6-2"),
        ("1d6-1d4", (DiceTerm(1, 6), DiceTerm(1, 4, -1)), 0, "1d6-1d4"),
        ("5", (), 5, "5"),
        ("0", (), 0, "0"),
        ("-3", (), -3, "-3"),
    ],
)
def test_parse_table(text: str, terms: tuple[DiceTerm, ...], constant: int, rendered: str) -> None:
    expr = parse_dice(text)
    assert expr == DiceExpr(terms, constant)
    assert expr.render() == rendered
    assert parse_dice(rendered) == expr


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("", "lifegear.dice.empty"),
        ("   ", "lifegear.dice.empty"),
        ("1d", "lifegear.dice.bad_term"),
        ("d", "lifegear.dice.bad_term"),
        ("1d6+", "lifegear.dice.bad_term"),
        ("1++2", "lifegear.dice.bad_term"),
        ("2*3", "lifegear.dice.bad_term"),
        ("1d6x", "lifegear.dice.bad_term"),
        ("4dF", "lifegear.dice.bad_term"),
        ("0d6", "lifegear.dice.no_dice"),
        ("1d1", "lifegear.dice.bad_sides"),
        ("1d0", "lifegear.dice.bad_sides"),
        ("1d1001", "lifegear.dice.bad_sides"),
        ("101d6", "lifegear.dice.too_many_dice"),
        ("60d6+60d6", "lifegear.dice.too_many_dice"),
        ("10001", "lifegear.dice.constant_too_big"),
        ("+".join(["1"] * 21), "lifegear.dice.too_many_terms"),
        ("1" * 201, "lifegear.dice.too_long"),
    ],
)
def test_parse_errors(text: str, key: str) -> None:
    with pytest.raises(DiceExpressionError) as info:
        parse_dice(text)
    assert info.value.msg.key == key
    assert isinstance(info.value, EngineError)
    assert info.value.render("ru") != key  # the message is registered


def test_weapon_dice_join_the_stat() -> None:
    # Seed: «Если Стрельба у вас 1d8+3, то вам нужно бросить: 1d8+1d6+3.»
    assert parse_dice("1d8+3").plus(parse_dice("1d6")).render() == "1d8+1d6+3"


def test_roll_keeps_faces_in_order() -> None:
    rolled = roll_expr(parse_dice("1d8+1d6+3"), ScriptedSource([6, 1]))
    assert (rolled.notation, rolled.faces, rolled.constant, rolled.total) == (
        "1d8+1d6+3",
        (6, 1),
        3,
        10,
    )


def test_roll_subtracts_negative_dice() -> None:
    rolled = roll_expr(parse_dice("2d6-1d4+1"), ScriptedSource([3, 5, 4]))
    assert rolled.faces == (3, 5, 4)
    assert rolled.total == 3 + 5 - 4 + 1


@given(st.text(max_size=40))
def test_fuzz_parses_or_raises_engine_error(text: str) -> None:
    try:
        expr = parse_dice(text)
    except EngineError:
        return
    assert parse_dice(expr.render()) == expr


_TERM = st.builds(DiceTerm, st.integers(1, 5), st.integers(2, 20), st.sampled_from([1, -1]))


@given(st.lists(_TERM, min_size=0, max_size=4), st.integers(-50, 50), st.integers(0, 10**6))
def test_roll_total_within_bounds(terms: list[DiceTerm], constant: int, seed: int) -> None:
    expr = DiceExpr(tuple(terms), constant)
    rolled = roll_expr(parse_dice(expr.render()), SeededSource(seed))
    low = constant + sum(t.count if t.sign > 0 else -t.count * t.sides for t in terms)
    high = constant + sum(t.count * t.sides if t.sign > 0 else -t.count for t in terms)
    assert low <= rolled.total <= high
    assert len(rolled.faces) == sum(t.count for t in terms)
