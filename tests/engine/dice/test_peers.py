"""The peer corpus (``peer_corpus.py``): every expression other dice bots document either rolls
with the peer's distribution, is refused with a hint, or is one of the documented choices; and
no text is ever half-read (property test)."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice import DiceError, SeededSource, parse, roll
from engine.dice.hints import DICE_TERM
from engine.dice.request import parse_request
from tests.engine.dice.peer_corpus import CASES, Case

d20 = pytest.importorskip("d20")
SAMPLES = 3000


def _ours(text: str) -> Counter[int]:
    request = parse_request(text)
    expression = request.expressions[0] if request is not None else parse(text)
    return Counter(roll(expression, SeededSource(f"{text}:{i}")).total for i in range(SAMPLES))


def _peer(case: Case) -> Counter[int]:
    rng = random.Random(case.text)
    if case.kind == "d20":
        assert isinstance(case.peer, str)
        random.seed(case.text)  # d20 draws from the global generator
        return Counter(int(d20.roll(case.peer).total) for _ in range(SAMPLES))
    assert callable(case.peer)
    return Counter(case.peer(rng) for _ in range(SAMPLES))


def _z(a: Counter[int], b: Counter[int]) -> float:
    """Two-sample chi-square (equal sizes) as a z-score; bins under 10 are pooled in order."""
    bins: list[tuple[int, int]] = []
    pa = pb = 0
    for value in sorted(set(a) | set(b)):
        pa, pb = pa + a[value], pb + b[value]
        if pa + pb >= 10:
            bins.append((pa, pb))
            pa = pb = 0
    if pa + pb:
        bins.append((pa, pb))
    df = len(bins) - 1
    if df <= 0:
        return 0.0
    stat = sum((x - y) ** 2 / (x + y) for x, y in bins if x + y)
    return (stat - df) / math.sqrt(2 * df)


def _ids(case: Case) -> str:
    return f"{case.kind}:{case.text}"


@pytest.mark.parametrize("case", [c for c in CASES if c.kind in ("d20", "ref")], ids=_ids)
def test_same_distribution_as_the_peer(case: Case) -> None:
    ours, peer = _ours(case.text), _peer(case)
    assert _z(ours, peer) < 5, (case.source, sorted(ours.items())[:12], sorted(peer.items())[:12])


@pytest.mark.parametrize("case", [c for c in CASES if c.kind == "hint"], ids=_ids)
def test_refused_with_a_hint(case: Case) -> None:
    with pytest.raises(DiceError) as info:
        if parse_request(case.text) is None:
            parse(case.text)
    assert info.value.msg.key in ("dice.syntax.hint", "dice.syntax.invalid"), info.value.msg
    assert info.value.render("ru") != info.value.render("en")


@pytest.mark.parametrize("case", [c for c in CASES if c.kind == "choice"], ids=_ids)
def test_documented_choices_are_accepted_without_a_label(case: Case) -> None:
    assert parse(case.text).label == ""


def test_roll_sets_and_semicolons_keep_each_roll() -> None:
    sets = parse_request("6 4d6 k3")
    assert sets is not None and sets.is_set
    assert [e.canonical for e in sets.expressions] == ["4d6kh3"] * 6
    several = parse_request("2d6 ; 3d8 ; 1d20; 4d10")  # DM RS Multi-Roll
    assert several is not None
    assert [e.canonical for e in several.expressions] == ["2d6", "3d8", "1d20", "4d10"]


@pytest.mark.parametrize(
    ("text", "rolls", "short"),
    [
        # issue 36 item 15: Dice Maiden's own example, its ``ul`` before the last roll
        ("4d100 ; 10d6 e6 k8 +4; 3d10 k2; ul 3d100",
         ["4d100", "10d6kh8e+4", "3d10kh2", "3d100"], False),
        ("4d6 s", ["4d6"], True),  # a flag after the roll
        ("4d6 ul", ["4d6"], False),
        ("s ul 4d6", ["4d6"], True),
        ("2d6 s; ul 1d20", ["2d6", "1d20"], True),
    ],
)  # fmt: skip
def test_flags_before_any_roll_or_after_it(text: str, rolls: list[str], short: bool) -> None:
    request = parse_request(text)
    assert request is not None
    assert [e.canonical for e in request.expressions] == rolls and request.short is short


NOTATION = ["4d6", "k3", "t7", "e", "ie", "d1", "+", "-", "%", ">", "[x]", ";", "!", " ", "ro1",
            "mi2", "6", "(", ")", "attack", "урон", "к", "d%", "4cod", "s", "p"]  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(NOTATION), max_size=12).map("".join))
def test_never_half_read(text: str) -> None:
    """Any text parses in full — its label holding no notation — or is refused."""
    try:
        expression = parse(text)
    except DiceError:
        return
    label = expression.label
    assert DICE_TERM.search(label) is None, (text, label)
    assert not label or label[0] not in "+-*/%<>=[;", (text, label)
