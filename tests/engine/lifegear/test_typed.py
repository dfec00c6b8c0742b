"""A role as the GM types it: stat lines, gear items, max lives (``lifegear.typed``)."""

from __future__ import annotations

from engine.systems.lifegear import DiceExpressionError, ItemKind, Role, Stat
from engine.systems.lifegear.typed import (
    MAX_GEAR,
    MAX_STATS,
    Problem,
    RefusedLine,
    add_item,
    add_stats,
    next_item_id,
    read_item,
    read_lives,
    read_stat,
    split_pair,
)


def test_a_stat_line_is_a_name_and_dice() -> None:
    assert split_pair("Aim = 1d8") == ("Aim", "1d8")
    assert split_pair("Aim 1d8") == ("Aim", "1d8")  # no separator: the last word
    assert read_stat("Aim:  1к8 + 3") == Stat(name="Aim", dice="1d8+3")
    assert read_stat("Aim:") == RefusedLine("Aim:", "Aim", Problem.FORM)
    assert read_stat("/cmd: 1d6") == RefusedLine("/cmd: 1d6", "", Problem.FORM)
    bad = read_stat("Aim: 1d1")
    assert isinstance(bad, RefusedLine) and isinstance(bad.problem, DiceExpressionError)


def test_good_lines_are_kept_beside_refused_ones() -> None:
    stats, refused = add_stats((Stat(name="Aim", dice="1d6"),), "aim: 1d8\n\nWill 1д4\nbad")
    assert [s.name for s in stats] == ["Aim", "Will"] and stats[1].dice == "1d4"
    assert [(r.line, r.problem) for r in refused] == [
        ("aim: 1d8", Problem.DUPLICATE),
        ("bad", Problem.FORM),
    ]


def test_no_stat_past_the_limit() -> None:
    text = "\n".join(f"S{n}: 1d6" for n in range(MAX_STATS + 3))
    stats, refused = add_stats((), text)
    assert len(stats) == MAX_STATS
    assert [r.problem for r in refused] == [Problem.TOO_MANY]  # said once


def test_an_item_has_dice_or_a_description() -> None:
    bow = read_item("Bow: 1к6", ItemKind.WEAPON, "i1")
    assert bow is not None and (bow.id, bow.dice, bow.description) == ("i1", "1d6", "")
    mail = read_item(" Mail :  takes one hit ", ItemKind.ARMOR, "i2")
    assert mail is not None and (mail.name, mail.description) == ("Mail", "takes one hit")
    assert read_item("Rope", ItemKind.ITEM, "i3") is not None
    assert read_item("  ", ItemKind.ITEM, "i3") is None
    assert read_item("Rope: " + "x" * 201, ItemKind.ITEM, "i3") is None


def test_item_ids_are_short_and_unused() -> None:
    assert next_item_id([]) == "i1"
    assert next_item_id(["i1", "i3"]) == "i4"
    assert next_item_id(["i2", "i3"]) == "i4"
    assert next_item_id(["i5"]) == "i2"


def test_max_lives_is_a_whole_number_in_bounds() -> None:
    assert read_lives(" 5 ") == 5 and read_lives("50") == 50
    assert [read_lives(x) for x in ("0", "51", "²", "-3", "five", "0005")] == [None] * 6


def test_an_item_typed_into_a_role_takes_the_next_id_and_the_roles_stats() -> None:
    role = Role(name="Scout", max_lives=5, stats=(Stat(name="Aim", dice="1d8"),))
    first = add_item(role, "Bow: aim + 1d6", ItemKind.WEAPON)
    assert isinstance(first, Role)
    assert [(i.id, i.stats, i.dice) for i in first.gear] == [("i1", ("Aim",), "1d6")]
    second = add_item(first, "Rope", ItemKind.ITEM)
    assert isinstance(second, Role) and [i.id for i in second.gear] == ["i1", "i2"]
    assert add_item(first, " /help", ItemKind.ITEM) is Problem.FORM
    full = role.model_copy(update={"gear": second.gear * (MAX_GEAR // 2)})
    assert add_item(full, "Rope", ItemKind.ITEM) is Problem.TOO_MANY
