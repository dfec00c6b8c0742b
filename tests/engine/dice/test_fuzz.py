"""Fuzzing: any text either rolls within the limits or raises EngineError."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.dice import SeededSource, parse, roll
from engine.dice.parser import MAX_DICE
from engine.errors import EngineError

ALPHABET = "0123456789dDкдfFфkhlro!<>=%+-*/() xчанс#"
TOKENS = [
    "d", "к", "д", "F", "ф", "%", "kh", "kl", "dh", "dl", "k", "r", "ro", "!", ">=", ">",
    "<", "<=", "=", "f", "+", "-", "*", "/", "(", ")", " ", "chance", "шанс", "1", "2",
    "6", "10", "20", "100", "1000", "1001", "9999999", "0",
    "t", "e", "ie", "ir", "rr", "ra", "mi", "ma", "b", "[x]", "[", "]", ";", "%", "==", "!",
    " k3", " t7", " e", " d1", "(a) ", "+d20", "-d%", "4cod", "wod", " ! x", "s ",
]  # fmt: skip


def check(text: str) -> None:
    try:
        result = roll(text, SeededSource(text))
    except EngineError as exc:
        assert exc.render("ru") and exc.render("en")
        return
    assert len(result.faces) <= MAX_DICE
    assert all(1 <= d.face <= d.sides <= 1000 for d in result.dice)
    # The canonical form of a rollable expression parses to the same tree.
    assert parse(result.expression, stored=True).root == parse(text).root


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=ALPHABET, max_size=60))
def test_notation_alphabet(text: str) -> None:
    check(text)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(TOKENS), max_size=25).map("".join))
def test_token_soup(text: str) -> None:
    check(text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_arbitrary_unicode(text: str) -> None:
    check(text)


# -- structured expressions: always valid by construction ---------------------------------------
@st.composite
def dice_terms(draw: st.DrawFn) -> str:
    count = draw(st.integers(1, 12))
    if draw(st.booleans()) and draw(st.booleans()):
        keep = draw(st.sampled_from(["", f"kh{count}", f"kl{count}"]))
        return f"{count}dF{keep}"
    sides = draw(st.sampled_from([2, 4, 6, 8, 10, 12, 20, 100]))
    mods = ""
    if draw(st.booleans()):
        mods += draw(st.sampled_from(["r1", "ro1", f"r<{max(2, sides // 2)}"]))
    if draw(st.booleans()):
        n = draw(st.integers(1, count))
        mods += draw(st.sampled_from([f"kh{n}", f"kl{n}"]))
    if draw(st.booleans()):
        mods += draw(st.sampled_from([f">={sides // 2 + 1}", f">{sides // 2}"]))
        if draw(st.booleans()):
            mods += "f1"
    if draw(st.booleans()):
        mods += draw(st.sampled_from(["!", f"!>={sides}"]))
    return f"{count}d{sides}{mods}"


expressions = st.recursive(
    st.one_of(dice_terms(), st.integers(0, 50).map(str), st.just("chance")),
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from("+-*/"), inner).map(lambda t: f"{t[0]}{t[1]}{t[2]}"),
        inner.map(lambda e: f"({e})"),
        inner.map(lambda e: f"-{e}"),
    ),
    max_leaves=6,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expressions, st.integers(0, 2**32))
def test_valid_expressions_roll_reproducibly(text: str, seed: int) -> None:
    try:
        first = roll(text, SeededSource(seed))
    except EngineError as exc:
        # Division by zero, the length limit and an endless reroll+explode combination
        # (5d2r1!) are the only failures of generated expressions.
        allowed = {"dice.eval.division_by_zero", "dice.limit.too_long", "dice.syntax.invalid"}
        assert exc.msg.key in allowed
        return
    again = roll(first.expression, SeededSource(seed), stored=True)
    assert (again.total, again.faces) == (first.total, first.faces)
    assert parse(first.expression, stored=True).canonical == first.expression  # idempotent
    assert len(first.faces) <= MAX_DICE
