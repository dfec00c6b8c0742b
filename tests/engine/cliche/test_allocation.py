"""The cliché creation's per-press rules (``allocation``): the dice budget, and which rule a
single press newly breaks, by reason code."""

from __future__ import annotations

from engine.systems.cliche import Attributes, Cliche, ClicheOptions, Tool, ToolEffect
from engine.systems.cliche import allocation as rules
from tests.engine.cliche.builders import make_character

OPTIONS = ClicheOptions()


def _keys(found: list) -> list[str]:  # type: ignore[type-arg]
    return [v.msg.key for v in found]


def test_the_budget_counts_bought_dice_and_the_gms_bonus() -> None:
    sheet = make_character("Mal", ("Captain", 4), ("Pilot", 3), armor=("Vest", 2))
    assert rules.dice_used(sheet) == 7  # the vest is gear, not bought
    assert rules.budget(sheet, OPTIONS) == OPTIONS.base_dice
    bonus = sheet.model_copy(update={"gm_bonus_dice": 2})
    rich = OPTIONS.model_copy(update={"base_dice": OPTIONS.base_dice + 1})
    assert rules.budget(bonus, OPTIONS) == OPTIONS.base_dice + 2
    assert rules.gm_bonus(bonus, rich) == 3
    assert not rules.no_dice_left(sheet, OPTIONS)
    spent = make_character("Mal", ("Captain", 4), ("Pilot", 3), ("Gunner", 3))
    assert rules.no_dice_left(spent, OPTIONS)


def test_a_die_is_refused_past_the_cap_the_at_cap_count_and_the_budget() -> None:
    sheet = make_character("Mal", ("Captain", 4), ("Pilot", 4), ("Cook", 1))
    assert _keys(rules.dice_refusal(sheet, OPTIONS, 0, +1)) == ["cliche.creation.cliche_too_high"]
    assert _keys(rules.dice_refusal(sheet, OPTIONS, 2, -1)) == ["cliche.creation.cliche_too_low"]
    assert "cliche.creation.too_many_at_cap" in _keys(rules.dice_refusal(sheet, OPTIONS, 2, +3))
    assert rules.dice_refusal(sheet, OPTIONS, 0, -1) == []  # lowering is always possible
    full = make_character("Mal", ("Captain", 4), ("Pilot", 3), ("Gunner", 3))
    assert _keys(rules.dice_refusal(full, OPTIONS, 1, +1)) == [rules.OVER_BUDGET]
    assert rules.dice_refusal(full, OPTIONS, 1, -1) == []


def test_an_attribute_point_and_a_clichés_name() -> None:
    sheet = make_character("Mal", ("Captain", 4))
    points = OPTIONS.attribute_points
    assert sum(sheet.attributes.model_dump().values()) == points
    assert _keys(rules.attribute_refusal(sheet, OPTIONS, "physical", +1))
    low = sheet.model_copy(update={"attributes": Attributes(physical=1, mental=1, social=1)})
    assert rules.attribute_refusal(low, OPTIONS, "physical", +1) == []
    assert _keys(rules.name_refusal(sheet, OPTIONS, -1, "captain")) == [
        "cliche.creation.duplicate_name"
    ]
    assert rules.name_refusal(sheet, OPTIONS, 0, "Captain") == []
    assert rules.name_refusal(sheet, OPTIONS, -1, "Pilot") == []
    assert rules.new_cliche("Pilot") == Cliche(name="Pilot", dice=1)  # the least it holds


def test_a_tools_effect_cycles_through_every_effect() -> None:
    seen = [ToolEffect.MINUS_ONE]
    for _ in ToolEffect:
        seen.append(rules.next_effect(seen[-1]))
    assert set(seen) == set(ToolEffect) and seen[-1] == seen[0]
    assert rules.next_effect(ToolEffect.MINUS_ONE) is ToolEffect.HALF  # the wizard's first tap


def test_the_wizards_caps_refuse_one_more_cliche_tool_or_hook() -> None:
    sheet = make_character("Mal", ("Captain", 4), ("Pilot", 3))
    assert rules.cliche_refusal(sheet, OPTIONS) == []
    spent = make_character("Mal", ("Captain", 4), ("Pilot", 3), ("Gunner", 3))
    (why,) = rules.cliche_refusal(spent, OPTIONS)  # a new cliché's first die: none left
    assert why.msg.key == "cliche.creation.dice_spent" and why.msg.params["budget"] == 10
    crowd = make_character("Mal", *((f"C{i}", 0) for i in range(rules.MAX_CLICHES)))
    assert _keys(rules.cliche_refusal(crowd, OPTIONS)) == ["cliche.creation.enough_cliches"]
    kit = tuple(Tool(name=f"T{i}") for i in range(rules.MAX_TOOLS))
    assert rules.tool_refusal(Cliche(name="Soldier", dice=3, tools=kit[1:])) == []
    assert _keys(rules.tool_refusal(Cliche(name="Soldier", dice=3, tools=kit))) == [
        "cliche.creation.enough_tools"
    ]
    hooks = sheet.model_copy(update={"hooks": ("debt",) * rules.MAX_HOOKS})
    assert rules.hook_refusal(sheet) == []
    assert _keys(rules.hook_refusal(hooks)) == ["cliche.creation.enough_hooks"]


def test_a_parts_warnings_include_the_gms_notes() -> None:
    """The clichés step showed none of its warnings: they are filed as notes (``NOTE``)."""
    crowd = make_character("Mal", *((f"C{i}", 1) for i in range(11)))
    rich = OPTIONS.model_copy(update={"base_dice": 11})
    assert _keys(rules.warnings(crowd, rich, "cliches")) == ["cliche.creation.many_cliches"]
    assert rules.warnings(crowd, rich, "attributes") == []
