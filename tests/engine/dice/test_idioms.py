"""Other bots' idioms, read exactly: canonical forms, scripted dice, totals, refusals."""

from __future__ import annotations

import pytest

from engine.dice import DiceError, ScriptedSource, parse, render_text, roll
from engine.dice.errors import ru_plural


@pytest.mark.parametrize(
    ("text", "canonical", "label"),
    [
        ("4d6 k3", "4d6kh3", ""),
        ("4d6d1", "4d6dl1", ""),
        ("4d6 d1", "4d6dl1", ""),
        ("6d10t7", "6d10>=7", ""),
        ("6d10 t7 f1", "6d10>=7f1", ""),
        ("3d6 e6", "3d6e", ""),
        ("1d20 e=2", "1d20e=2", ""),
        ("3d6e5", "3d6e>=5", ""),
        ("3d6 ie", "3d6!", ""),
        ("4d10ie8", "4d10!>=8", ""),
        ("4d6ir2", "4d6r<=2", ""),
        ("1d20rr<20", "1d20r<20", ""),
        ("8d6mi2", "8d6mi2", ""),
        ("10d6ma5", "10d6ma5", ""),
        ("1d1ra1", "1d1ra1", ""),
        ("4d10 t7 b1", "4d10>=7b1", ""),
        ("13 % 2", "13%2", ""),
        ("1d20 + 5 > 10", "1d20+5>10", ""),
        ("1d20 < 5", "(1d20)<5", ""),
        ("+d20", "2d20kh1", ""),
        ("-d20 +2", "2d20kl1+2", ""),
        ("+d%", "2d10kl1*10+1d10-10", ""),
        ("(Attack) 1d20+5", "1d20+5", "Attack"),
        ("(Атака) 1d20+5 по орку", "1d20+5", "Атака по орку"),
        ("2d6 ! fire damage", "2d6", "fire damage"),
        ("3d6 [fire] + 1d4 [piercing]", "3d6[fire]+1d4[piercing]", ""),
        ("4cod", "4d10>=8!", ""),
        ("4cod9", "4d10>=8!>=9", ""),
        ("4wod8", "4d10>=8f1", ""),
        ("2d6 к урону", "2d6", "к урону"),
        ("4d6 tie", "4d6", "tie"),
        ("7d10f=2>=6", "7d10>=6f=2", ""),
    ],
)
def test_idiom_canonical(text: str, canonical: str, label: str) -> None:
    parsed = parse(text)
    assert (parsed.canonical, parsed.label) == (canonical, label)
    assert parse(parsed.canonical, stored=True).root == parsed.root


@pytest.mark.parametrize(
    ("text", "faces", "total"),
    [
        ("4d6 k3", [1, 4, 5, 6], 15),
        ("4d6d1", [1, 4, 5, 6], 15),
        ("6d10t7", [7, 6, 10, 1, 9, 3], 3),
        ("3d6e6", [6, 6, 2, 6, 6], 26),  # two 6s explode once each; the extra 6s do not
        ("3d6ie", [6, 2, 2, 6, 1], 17),
        ("4d6ir2", [1, 2, 3, 4, 5, 6], 18),
        ("8d6mi2", [1, 1, 1, 1, 1, 1, 1, 6], 20),
        ("10d6ma5", [6] * 10, 50),
        ("1d1ra1", [1, 1], 2),
        ("2d6ra6", [6, 3, 4], 13),
        ("2d6ra6", [5, 3], 8),
        ("13 % 2", [], 1),
        ("-7 % 3", [], 2),
        ("1d20 + 5 > 10", [6], 1),
        ("1d20 + 5 > 10", [5], 0),
        ("+d20", [3, 17], 17),
        ("-d20", [3, 17], 3),
        ("+d%", [7, 2, 5], 15),
        ("4cod", [8, 10, 1, 3, 9], 3),
        ("4wod8", [8, 1, 1, 9], 0),
        ("3d6 [fire] + 1d4 [piercing]", [1, 2, 3, 4], 10),
    ],
)
def test_idiom_rolls(text: str, faces: list[int], total: int) -> None:
    result = roll(text, ScriptedSource(faces))
    assert result.total == total
    assert list(result.faces) == faces


def test_tags_summed_and_shown() -> None:
    result = roll("3d6 [fire] + 1d4 [piercing]", ScriptedSource([1, 2, 3, 4]))
    assert result.tags == (("fire", 6), ("piercing", 4))
    text = render_text(result, "en")
    assert "3d6 [fire]: [1 2 3]" in text and "fire: 6 · piercing: 4" in text


def test_comparison_shows_the_total() -> None:
    result = roll("1d20 + 5 > 10", ScriptedSource([9]))
    assert result.comparison == (14, ">", 10)
    assert "14 > 10 → passed" in render_text(result, "en")
    assert "14 > 10 → выполнено" in render_text(result, "ru")


def test_botches_counted_and_shown_not_subtracted() -> None:
    result = roll("4d10 t7 b1", ScriptedSource([1, 1, 7, 9]))
    assert result.total == 2 and result.groups[0].botches == 2
    assert "(botches (b): 2)" in render_text(result, "en")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("6 4d6", "cannot hold dice"),
        ("2d6 > 7", "(2d6)>7"),
        ("1d20>=21", "never rolls"),
        ("10 % 0", "Division by zero"),
        ("4d6 f2", "f<=2"),
        ("1d6ral1", "selectors"),
        ("4d6 km2", "middle"),
        ("dndstats", "6 4d6k3"),
        ("2d6 b1", "4d10t7b1"),
        ("1d20+5 k3", "dice only"),
        ("1d20 k3", "from 1 to 1"),
        ("1d20 != 3", "not understood"),
        ("4d100 ; 3d10", "/r"),
        ("3d6 [fire", "not closed"),
        ("1d6 vs", "“vs” needs a number after it; a roll against 4: 1d6>=4"),
        ("2d6+1 против ", "a roll against 4: 2d6+1>=4"),
    ],
)
def test_refused_with_what_was_not_understood(text: str, fragment: str) -> None:
    with pytest.raises(DiceError) as info:
        roll(text, ScriptedSource([1] * 20))
    assert fragment in info.value.render("en")


def test_length_limit_and_plural() -> None:
    long = "+".join(["1d20"] * 51)  # 254 characters: accepted now
    assert parse(long).dice_count == 51
    with pytest.raises(DiceError) as info:
        parse("1" + "+1" * 250)  # 501 characters
    assert "501 символ," in info.value.render("ru")
    assert [ru_plural(n, "символ", "символа", "символов") for n in (501, 502, 505, 511)] == [
        "символ",
        "символа",
        "символов",
        "символов",
    ]
