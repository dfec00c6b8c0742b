"""Notation: lexer/parser table tests, evaluation with exact dice, seed examples, errors."""

from __future__ import annotations

import pytest

from engine.dice import (
    DiceError,
    DiceEvalError,
    DiceLimitError,
    DiceSyntaxError,
    ScriptedSource,
    parse,
    roll,
)
from engine.dice.ast import Chance, Cmp, Dice, KeepKind
from engine.dice.lexer import Lexer, Tok
from engine.errors import EngineError


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("2d6+1", [Tok.NUM, Tok.D, Tok.NUM, Tok.PLUS, Tok.NUM]),
        ("4дф", [Tok.NUM, Tok.D, Tok.F]),
        ("4кф", [Tok.NUM, Tok.D, Tok.F]),
        ("4dF", [Tok.NUM, Tok.D, Tok.F]),
        ("3d6kh2", [Tok.NUM, Tok.D, Tok.NUM, Tok.KH, Tok.NUM]),
        ("7d10>=6f1", [Tok.NUM, Tok.D, Tok.NUM, Tok.GE, Tok.NUM, Tok.F, Tok.NUM]),
        ("d%", [Tok.D, Tok.PERCENT]),
        ("4d6ro<2", [Tok.NUM, Tok.D, Tok.NUM, Tok.RO, Tok.LT, Tok.NUM]),
        ("attack", [Tok.WORD]),
        ("шанс", [Tok.CHANCE]),
    ],
)
def test_lexer(text: str, kinds: list[Tok]) -> None:
    assert [t.kind for t in Lexer(text).tokens()] == [*kinds, Tok.EOF]


@pytest.mark.parametrize(
    ("text", "canonical", "label"),
    [
        ("2d6+1 атака", "2d6+1", "атака"),
        ("2D6 + 1", "2d6+1", ""),
        ("d20", "1d20", ""),
        ("d%", "1d100", ""),
        ("4df+2", "4dF+2", ""),
        ("4DF", "4dF", ""),
        ("4дф", "4dF", ""),
        ("4кф-1", "4dF-1", ""),
        ("2к6", "2d6", ""),
        ("3Д10", "3d10", ""),
        ("3d6kh2+1", "3d6kh2+1", ""),
        ("4d6k3", "4d6kh3", ""),
        ("4d6dl1", "4d6dl1", ""),
        ("4d6dh1", "4d6dh1", ""),
        ("2d20kl1", "2d20kl1", ""),
        ("4d6!", "4d6!", ""),
        ("4d6!>=5", "4d6!>=5", ""),
        ("4d6r1", "4d6r1", ""),
        ("4d6ro1", "4d6ro1", ""),
        ("4d6r<3", "4d6r<3", ""),
        ("7d10>=6f1", "7d10>=6f1", ""),
        ("7d10 >= 6f1", "7d10>=6f1", ""),
        ("5d10>=7!", "5d10>=7!", ""),
        ("6d10>=7!>=9", "6d10>=7!>=9", ""),
        ("5d10>7", "5d10>7", ""),
        ("(1+2)*3", "(1+2)*3", ""),
        ("1-(2-3)", "1-(2-3)", ""),
        ("(2*3)*4", "2*3*4", ""),
        ("-3--2", "-3--2", ""),
        ("10/3", "10/3", ""),
        ("chance", "chance", ""),
        ("Шанс", "chance", ""),
        ("2d6 к урону", "2d6", "к урону"),
        ("1d20 roll to hit", "1d20", "roll to hit"),
        ("1d8+1d6+3 x<b>x</b>", "1d8+1d6+3", "x<b>x</b>"),
    ],
)
def test_parse_canonical_and_label(text: str, canonical: str, label: str) -> None:
    expr = parse(text)
    assert expr.notation() == canonical
    assert expr.label == label
    # The canonical form parses back to the same tree.
    assert parse(canonical).root == expr.root


def test_parse_tree_shape() -> None:
    root = parse("7d10>=6f1").root
    assert isinstance(root, Dice)
    assert (root.count, root.sides) == (7, 10)
    assert root.success is not None and root.success.condition.cmp is Cmp.GE
    assert root.success.cancel is not None and root.success.cancel.number == 1
    keep = parse("3d6kh2").root
    assert isinstance(keep, Dice) and keep.keep is not None
    assert keep.keep.kind is KeepKind.KEEP_HIGH
    assert isinstance(parse("шанс").root, Chance)


def test_parse_is_cached() -> None:
    assert parse("2d6+3") is parse("2d6+3")


# -- evaluation with exact dice ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "faces", "total"),
    [
        ("2d6+1", [3, 5], 9),
        ("d20", [17], 17),
        ("d%", [42], 42),
        ("3d6kh2+1", [2, 5, 4], 10),
        ("3d6kl1", [2, 5, 4], 2),
        ("4d6dl1", [3, 1, 6, 4], 13),
        ("4d6dh1", [3, 1, 6, 4], 8),
        ("4d6!", [6, 2, 3, 4, 5], 20),  # the 6 explodes into a 5
        ("2d6!", [6, 6, 6, 1, 2], 21),  # waves: 6 6 → 6 1 → 2
        ("3d6!>=5", [5, 1, 1, 2], 9),
        ("2d6r1", [1, 1, 4, 3], 7),  # r rerolls while the die shows 1
        ("2d6ro1", [1, 1, 3], 4),  # ro rerolls once, the second 1 stays
        ("2d6r<3", [2, 1, 5, 6], 11),
        ("(1+2)*3", [], 9),
        ("10/3", [], 3),
        ("-7/2", [], -3),  # integer division truncates toward zero
        ("7/-2", [], -3),
        ("2*3+4*5", [], 26),
        ("1d4*2-1", [3], 5),
        ("-(2d4)", [1, 2], -3),
        ("4dF+2", [1, 3, 5, 6], 3),
        ("4dF", [1, 2, 3, 4], -2),
        ("5d10>7", [7, 8, 9, 10, 1], 3),
        ("5d10>=7", [7, 8, 9, 10, 1], 4),
    ],
)
def test_roll_exact(text: str, faces: list[int], total: int) -> None:
    source = ScriptedSource(faces)
    result = roll(text, source)
    assert result.total == total
    assert result.faces == tuple(faces)
    assert source.remaining == 0


def test_fate_seed_example() -> None:
    # seed 000 / SPEC §1: "Roll 4d6; each face maps 1–2 → −1, 3–4 → 0, 5–6 → +1": 2,3,5,6 → +1.
    result = roll("4dF", ScriptedSource([2, 3, 5, 6]))
    assert result.total == 1
    assert [d.symbol for d in result.dice] == ["-", "0", "+", "+"]
    assert result.faces == (2, 3, 5, 6)


def test_storyteller_seed_example_two_successes() -> None:
    # seed 003: «получает 1, 5, 6, 8, 9 … "Единица" отменяет шестерку, но оставляет ей еще два
    # успеха (8 и 9)».
    result = roll("5d10>=6f1", ScriptedSource([1, 5, 6, 8, 9]))
    assert result.total == 2
    assert result.counts_successes
    assert not result.botch
    group = result.groups[0]
    assert (group.successes, group.cancels) == (3, 1)
    assert [d.cancel for d in result.dice] == [True, False, False, False, False]


def test_storyteller_seed_example_failure_not_botch() -> None:
    # seed 003: «Ренч выбрасывает 1, 1, 3, 4, 4, 6, 8. "Единицы" отменяют два успеха, и в
    # результате этого успехов не остается вообще.» — a failure; 1s equal successes: no botch.
    result = roll("7d10>=6f1", ScriptedSource([1, 1, 3, 4, 4, 6, 8]))
    assert result.total == 0
    assert not result.botch


def test_storyteller_botch_more_ones_than_successes() -> None:
    # seed 003: «Если вы выбрасываете больше "единиц", чем успехов … проваливает».
    result = roll("3d10>=6f1", ScriptedSource([1, 1, 6]))
    assert result.total == -1
    assert result.botch


def test_storyteller_sample_difficulty() -> None:
    # seed 003: «Если сложность равняется 6, а вы выбрасываете 3, 5, 6 и 9, то вы получаете два
    # успеха (6 и 9)».
    assert roll("4d10>=6", ScriptedSource([3, 5, 6, 9])).total == 2


def test_matter_zero_again() -> None:
    # seed 004: «Выпавшие 7, 8, 9, 0 — успехи (0 то же, что и 10). Выпавшие 0 позволяют докинуть
    # ещё один кубик (правило 0-ещё).» Chained: the extra 10 explodes again.
    result = roll("4d10>=7!", ScriptedSource([7, 8, 9, 10, 10, 3]))
    assert result.total == 5
    flags = [(d.face, d.exploded, d.extra, d.success) for d in result.dice]
    assert flags == [
        (7, False, False, True),
        (8, False, False, True),
        (9, False, False, True),
        (10, True, False, True),
        (10, True, True, True),
        (3, False, True, False),
    ]


def test_matter_one_die_critical_failure() -> None:
    # seed 004: «Если кубик один и выпадает 1 — критический провал.»
    assert roll("1d10>=7!", ScriptedSource([1])).critical_failure
    assert not roll("2d10>=7!", ScriptedSource([1, 1])).critical_failure
    assert not roll("1d10>=7!", ScriptedSource([2])).critical_failure


@pytest.mark.parametrize(
    ("faces", "successes", "crit"),
    [
        ([9], 0, False),  # only a 0 (10) succeeds on a chance die
        ([7], 0, False),
        ([1], 0, True),  # DECISION (SPEC §5): a chance die showing 1 is a critical failure
        ([10, 5], 1, False),  # a 0 adds a die that counts 7+ as usual
        ([10, 7], 2, False),
        ([10, 10, 8], 3, False),  # chained 0-again
    ],
)
def test_chance_die(faces: list[int], successes: int, crit: bool) -> None:
    # seed 004: «шанс-бросок: кидается 1d10, где первый успех — только 0 (если выпадает 0,
    # действует правило 0-ещё и остальные успехи считаются как обычно)».
    result = roll("шанс", ScriptedSource(faces))
    assert result.total == successes
    assert result.critical_failure is crit
    assert result.faces == tuple(faces)


def test_lifegear_seed_examples() -> None:
    # seed 001 / SPEC §2: D = 10, 1d8+1d6+3 rolls 6+1+3 = 10 → monster down; 3+1+3 = 7.
    assert roll("1d8+1d6+3", ScriptedSource([6, 1])).total == 10
    assert roll("1d8+1d6+3", ScriptedSource([3, 1])).total == 7


def test_cliche_sum() -> None:
    assert roll("4d6", ScriptedSource([6, 5, 1, 2])).total == 14


def test_flags_keep_and_reroll() -> None:
    result = roll("2d6r1kh1", ScriptedSource([1, 4, 6]))
    dice = result.dice
    assert [(d.face, d.rerolled, d.dropped, d.kept) for d in dice] == [
        (1, True, False, False),
        (4, False, True, False),
        (6, False, False, True),
    ]
    assert result.total == 6


def test_groups_and_label() -> None:
    result = roll("1d8+1d6+3 удар мечом", ScriptedSource([4, 2]))
    assert result.label == "удар мечом"
    assert result.expression == "1d8+1d6+3"
    assert [g.notation for g in result.groups] == ["1d8", "1d6"]
    assert [g.value for g in result.groups] == [4, 2]


def test_explosions_count_against_the_dice_cap() -> None:
    # 1000 dice are allowed, but every explosion adds one: the 1001st die is refused.
    with pytest.raises(DiceLimitError):
        roll("1000d2!", ScriptedSource([2] + [1] * 999 + [1]))
    assert len(roll("999d2!", ScriptedSource([2] + [1] * 999)).faces) == 1000


def test_explosion_chain_is_capped() -> None:
    # A d2 exploding on every 2: 150 twos in a row stop after the wave cap (100 extra dice).
    faces = [2] * 101
    result = roll("1d2!", ScriptedSource(faces))
    assert result.total == 202
    assert len(result.faces) == 101


# -- errors --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "error", "fragment"),
    [
        ("", DiceSyntaxError, "Empty"),
        ("2d6+", DiceSyntaxError, "expected a number, a die"),
        ("((1)", DiceSyntaxError, "expected “)”"),
        ("2d6)", DiceSyntaxError, "Position 4"),
        ("2d", DiceSyntaxError, "sides"),
        ("d0", DiceSyntaxError, "at least one side"),
        ("0d6", DiceSyntaxError, "at least one die"),
        ("4d6kh5", DiceSyntaxError, "kh takes a number from 1 to 4"),
        ("4d6dl4", DiceSyntaxError, "dl takes a number from 1 to 3"),
        ("2d6f1", DiceSyntaxError, "f1 only makes sense"),
        ("4dF!", DiceSyntaxError, "Fate dice"),
        ("4d6r<7", DiceSyntaxError, "never end"),
        ("1d1!", DiceSyntaxError, "explode forever"),
        ("4d6!>=1", DiceSyntaxError, "explode forever"),
        ("5d2r1!", DiceSyntaxError, "explode forever"),
        ("3d6r<5!>=5", DiceSyntaxError, "explode forever"),
        ("1d6r1r2", DiceSyntaxError, "given twice"),
        ("1001d6", DiceLimitError, "at most 1000"),
        ("600d6+600d6", DiceLimitError, "at most 1000"),
        ("d5000", DiceLimitError, "d1000"),
        ("99999999", DiceLimitError, "too big"),
        ("(" * 21 + "1" + ")" * 21, DiceLimitError, "nesting"),
        ("-" * 21 + "1", DiceLimitError, "nesting"),
        ("1+" * 251 + "1", DiceLimitError, "too long"),
        ("1/0", DiceEvalError, "Division by zero"),
        ("1d6/(2-2)", DiceEvalError, "Division by zero"),
    ],
)
def test_errors(text: str, error: type[DiceError], fragment: str) -> None:
    with pytest.raises(error) as info:
        roll(text, ScriptedSource([1] * 10))
    assert fragment in info.value.render("en")
    assert info.value.render("ru") != info.value.msg.key  # a Russian text exists


HOSTILE = {
    "1001d6": "1001d6",
    "1d1!": "1d1!",
    "5000-digit die": "1d" + "9" * 5000,
    "5000-digit die (short form)": "d" + "7" * 5000,
    "500 terms": "+".join(["1d6"] * 500),
    "1000 nested parentheses": "(" * 1000 + "1" + ")" * 1000,
    "4 KB of junk": ("ъ%$#@!junk" * 410)[:4096],
    "deep but short": "(" * 60 + "1" + ")" * 60,
    "long number inside the limit": "1d6+" + "9" * 150,
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_corpus(name: str) -> None:
    with pytest.raises(EngineError) as info:
        roll(HOSTILE[name], ScriptedSource([]))
    text = info.value.render("ru")
    assert text and "dice." not in text  # a real message, not a bare key


@pytest.mark.parametrize(
    ("text", "position", "found"),
    [
        ("2d6+x", 5, "x"),
        ("2d6*)", 5, ")"),
        ("(1+2))", 6, ")"),
        ("4d6kh", 4, "kh"),  # ends too early: shown at its last token
        ("3д", 2, "д"),
        ("2d6 +", 5, "+"),  # issue 36 item 15: a dangling operator
        ("", None, ""),
        ("2d6+1атака", 6, "атака"),
    ],
)
def test_error_position_and_found(text: str, position: int | None, found: str) -> None:
    with pytest.raises(DiceSyntaxError) as info:
        parse(text)
    params = info.value.msg.params
    if position is None:
        assert info.value.msg.key in ("dice.syntax.unexpected_end", "dice.syntax.empty")
        return
    if info.value.msg.key == "dice.syntax.ends_after":
        assert (params["pos"], params["after"]) == (position, found)
    else:
        assert (params["pos"], params["found"]) == (position, found)
    assert "expected_ru" in params and "expected_en" in params


@pytest.mark.parametrize(
    ("text", "total"),
    [
        ("2147*1000000+483647", 2**31 - 1),
        ("-2147*1000000-483647", -(2**31 - 1)),
        ("9999999*9999999/9999999", 9999999),  # only the total is bounded, not each step
    ],
)
def test_totals_up_to_32_bits(text: str, total: int) -> None:
    assert roll(text, ScriptedSource([])).total == total


@pytest.mark.parametrize(
    "text", ["9999999*9999999", "-9999999*9999999", "2147*1000000+483647+1d6"]
)
def test_totals_beyond_32_bits_are_a_limit(text: str) -> None:
    """A total is stored in a 32-bit column: beyond it the roll is refused, in plain words."""
    with pytest.raises(DiceLimitError) as info:
        roll(text, ScriptedSource([1]))
    assert "2147483647" in info.value.render("en")
    assert "слишком велик" in info.value.render("ru")
