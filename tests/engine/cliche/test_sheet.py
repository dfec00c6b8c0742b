"""Sheet, options, tools of the trade and creation validation."""

from __future__ import annotations

import pytest

from engine.common import Severity, errors_only
from engine.errors import RuleViolation
from engine.systems.cliche import (
    SCHEMA_VERSION,
    SYSTEM_ID,
    Attributes,
    Character,
    Cliche,
    ClicheOptions,
    Tool,
    ToolEffect,
    effective_dice,
    lose_dice,
    new_character,
    validate_character,
)


def _sheet(*dice: int, attributes: tuple[int, int, int] = (3, 3, 3), bonus: int = 0) -> Character:
    physical, mental, social = attributes
    return Character(
        name="Мэл",
        attributes=Attributes(physical=physical, mental=mental, social=social),
        cliches=tuple(Cliche(name=f"Клише {i}", dice=d) for i, d in enumerate(dice)),
        gm_bonus_dice=bonus,
    )


def _keys(character: Character) -> list[tuple[str, Severity]]:
    return [(v.msg.key, v.severity) for v in validate_character(character, ClicheOptions())]


def test_contract_constants() -> None:
    assert SYSTEM_ID == "cliche"
    assert SCHEMA_VERSION == 1
    draft = new_character("Зои")
    assert draft.name == "Зои"
    assert draft.cliches == ()
    assert draft.schema_version == SCHEMA_VERSION


def test_seed_sample_character_is_valid_but_over_budget() -> None:
    # Seed: «Физический Атрибут поднимаем на максимальную отметку - 4 … Ментальный атрибут - 3
    # … Социальный атрибут, который будет равен 2»; «Солдат (4)», «Хакер (4)», «Драчун (2)»,
    # «Игрок (2)», «Бабник (2)» — 14 dice against the standard 10, so only a warning.
    camel = Character(
        name='Сесил "Верблюд" Ирвинг',
        attributes=Attributes(physical=4, mental=3, social=2),
        cliches=(
            Cliche(
                name="Солдат", dice=4, description="воевать, стрелять из различных видов оружия"
            ),
            Cliche(name="Хакер", dice=4, description="Взламывать компьютеры, создавать вирусы"),
            Cliche(name="Драчун", dice=2, description="Горячая кровь, стальные кулаки"),
            Cliche(name="Игрок", dice=2, description="играть в азартные игры, блефовать"),
            Cliche(name="Бабник", dice=2, description="флиртовать"),
        ),
        backstory="Сессил Ирвинг, по кличке Верблюд, курсант военной Академии Альянса.",
    )
    violations = validate_character(camel, ClicheOptions())
    assert errors_only(violations) == []
    assert [(v.msg.key, v.severity) for v in violations] == [
        ("cliche.creation.over_budget", Severity.WARNING)
    ]
    assert violations[0].msg.params == {"total": 14, "budget": 10, "base": 10, "bonus": 0}
    # With four bonus dice from the GM for the backstory the warning goes away.
    rewarded = camel.model_copy(update={"gm_bonus_dice": 4})
    assert validate_character(rewarded, ClicheOptions()) == []


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        ((4, 3, 2, 1), []),
        ((3, 3, 3, 1), []),
        # «Персонажи не могут начать карьеру более чем с четырьмя костями в чем-нибудь»
        ((5, 3, 2), [("cliche.creation.cliche_too_high", Severity.ERROR)]),
        # «Клише на уровне 4 может быть два»
        (
            (4, 4, 4),
            [
                ("cliche.creation.too_many_at_cap", Severity.ERROR),
                ("cliche.creation.over_budget", Severity.WARNING),
            ],
        ),
        # «персонаж новичком (все по один-два) быть не должен»
        ((2, 2, 2, 2, 2), [("cliche.creation.novice", Severity.ERROR)]),
        ((0, 3), [("cliche.creation.cliche_too_low", Severity.ERROR)]),
        ((4, 4, 3), [("cliche.creation.over_budget", Severity.WARNING)]),
        # «более десятка клише будут казаться странными»
        (
            (3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1),
            [
                ("cliche.creation.over_budget", Severity.WARNING),
                ("cliche.creation.many_cliches", Severity.WARNING),
            ],
        ),
        ((), [("cliche.creation.no_cliches", Severity.ERROR)]),
    ],
)
def test_cliche_rules(dice: tuple[int, ...], expected: list[tuple[str, Severity]]) -> None:
    assert _keys(_sheet(*dice)) == expected


def test_bonus_dice_raise_the_budget() -> None:
    assert _keys(_sheet(4, 4, 3, 1, bonus=2)) == []
    assert _keys(_sheet(4, 4, 3, 1, 1, bonus=2)) == [
        ("cliche.creation.over_budget", Severity.WARNING)
    ]


@pytest.mark.parametrize(
    ("attributes", "expected"),
    [
        ((4, 3, 2), []),
        ((3, 3, 3), []),
        ((5, 3, 1), ["cliche.creation.attribute_range"]),
        ((0, 4, 4), ["cliche.creation.attribute_range", "cliche.creation.attribute_points"]),
        ((4, 4, 4), ["cliche.creation.attribute_points"]),
        ((2, 2, 2), ["cliche.creation.attribute_points"]),
    ],
)
def test_attribute_rules(attributes: tuple[int, int, int], expected: list[str]) -> None:
    assert [key for key, _ in _keys(_sheet(4, 3, 2, attributes=attributes))] == expected


def test_all_violations_at_once() -> None:
    broken = Character(
        name=" ",
        attributes=Attributes(physical=5, mental=0, social=0),
        cliches=(
            Cliche(name="Пилот", dice=5),
            Cliche(name="пилот", dice=1),
            Cliche(name="", dice=1),
        ),
    )
    keys = [v.msg.key for v in validate_character(broken, ClicheOptions())]
    assert keys == [
        "cliche.creation.name_empty",
        "cliche.creation.attribute_range",
        "cliche.creation.attribute_range",
        "cliche.creation.attribute_range",
        "cliche.creation.attribute_points",
        "cliche.creation.cliche_name_empty",
        "cliche.creation.duplicate_name",
        "cliche.creation.cliche_too_high",
    ]


def test_armor_is_not_bought_with_creation_dice() -> None:
    sheet = _sheet(4, 4, 2)
    vest = Cliche(name="Бронежилет", dice=6, armor=True)
    assert _keys(sheet.model_copy(update={"cliches": (*sheet.cliches, vest)})) == []


@pytest.mark.parametrize(
    ("dice", "lost", "tools", "expected"),
    [
        # «Солдат (4) может сражаться без бронежилета как Солдат (3)»
        (4, 0, (Tool(name="Бронежилет", present=False),), 3),
        (4, 0, (Tool(name="Бронежилет", present=True),), 4),
        # «Хакер не может влезать в сеть без лаптопа»
        (4, 0, (Tool(name="Лаптоп", present=False, when_missing=ToolEffect.DISABLED),), 0),
        # «Если Хакер найдет другой компьютер, он сможет функционировать с половинной мощностью»
        (4, 0, (Tool(name="Лаптоп", present=False, when_missing=ToolEffect.HALF),), 2),
        (3, 0, (Tool(name="Лаптоп", present=False, when_missing=ToolEffect.HALF),), 2),
        (1, 0, (Tool(name="Лаптоп", present=False, when_missing=ToolEffect.HALF),), 1),
        (4, 2, (Tool(name="Бронежилет", present=False),), 1),
        (
            5,
            0,
            (
                Tool(name="Револьвер", present=False),
                Tool(name="Шляпа", present=False, when_missing=ToolEffect.HALF),
            ),
            2,
        ),
        (1, 0, (Tool(name="Бронежилет", present=False),), 0),
        (4, 4, (), 0),
    ],
)
def test_tools_of_the_trade(dice: int, lost: int, tools: tuple[Tool, ...], expected: int) -> None:
    assert effective_dice(Cliche(name="Солдат", dice=dice, lost=lost, tools=tools)) == expected


@pytest.mark.parametrize(
    ("dice", "lost", "loss", "after_lost", "taken"),
    [(4, 0, 1, 1, 1), (4, 3, 3, 4, 1), (2, 2, 1, 2, 0), (6, 1, 0, 1, 0)],
)
def test_lose_dice_is_capped(dice: int, lost: int, loss: int, after_lost: int, taken: int) -> None:
    cliche, actual = lose_dice(Cliche(name="Ковбой", dice=dice, lost=lost), loss)
    assert (cliche.lost, actual, cliche.current) == (after_lost, taken, dice - after_lost)


def test_unknown_cliche_raises() -> None:
    with pytest.raises(RuleViolation) as caught:
        _sheet(3).cliche("Парикмахер")
    assert caught.value.msg.key == "cliche.roll.unknown_cliche"


def test_round_trip() -> None:
    sheet = Character(
        name="Кейли",
        attributes=Attributes(physical=2, mental=4, social=3),
        cliches=(
            Cliche(
                name="Механик",
                dice=4,
                description="чинить всё",
                tools=(Tool(name="Ящик инструментов", when_missing=ToolEffect.HALF),),
                lost=1,
            ),
            Cliche(name="Бронежилет", dice=2, armor=True),
        ),
        hooks=("Боится крови",),
        backstory="Выросла на ферме.",
        gm_bonus_dice=2,
    )
    data = sheet.model_dump(mode="json")
    assert Character.model_validate(data) == sheet
    assert Character.model_validate(data).model_dump(mode="json") == data
    options = ClicheOptions(recovery_dice=2)
    assert ClicheOptions.model_validate(options.model_dump(mode="json")) == options
