"""The wizard's per-press rules and the sheet view, without the bot (fast)."""

from __future__ import annotations

from bot.i18n import I18n
from engine.systems.storyteller import (
    AbilityGroup,
    AttributeGroup,
    Character,
    StorytellerOptions,
    validate_character,
)
from handlers.views.sheets.storyteller import dots_bar, render_sheet
from handlers.wizards import storyteller_rules as rules

OPTIONS = StorytellerOptions()


def _press(c: Character, page: str, key: str, delta: int = 1, fb: bool = False) -> Character:
    result = rules.press(c, OPTIONS, page, key, delta, freebies=fb)
    assert isinstance(result, Character), result
    return result


def _refused(c: Character, page: str, key: str, delta: int = 1, fb: bool = False) -> str:
    result = rules.press(c, OPTIONS, page, key, delta, freebies=fb)
    assert isinstance(result, rules.Refusal), result
    return result.msgid


def test_new_draft_has_the_canonical_rankings() -> None:
    sheet = rules.initial_sheet(None, OPTIONS)
    assert sheet.attribute_priority == tuple(AttributeGroup)
    assert sheet.ability_priority == tuple(AbilityGroup)
    assert rules.load({"sheet": rules.dump(sheet)}) == sheet


def test_draft_without_ranking_gets_the_cheapest_one() -> None:
    draft = Character(name="Rose").model_dump(mode="json")
    draft["attributes"].update(wits=5, intelligence=3)  # 6 mental dots: mental is primary
    draft["attribute_priority"] = []
    sheet = rules.initial_sheet(draft, OPTIONS)
    assert sheet.name == "Rose" and sheet.attribute_priority[0] is AttributeGroup.MENTAL
    assert rules.initial_sheet({"name": 5, "attributes": "x"}, OPTIONS).name == ""


def test_ability_cap_then_freebies() -> None:
    sheet = rules.initial_sheet(None, OPTIONS)
    for _ in range(3):
        sheet = _press(sheet, "talents", "brawl")
    assert "No ability above {cap}" in _refused(sheet, "talents", "brawl")
    sheet = _press(sheet, "talents", "brawl", fb=True)
    assert sheet.ability("brawl") == 4
    sheet = _press(sheet, "talents", "brawl", fb=True)
    assert "{name} is at the maximum" in _refused(sheet, "talents", "brawl", fb=True)


def test_budgets_and_freebies_run_out() -> None:
    sheet = rules.initial_sheet(None, OPTIONS)
    for _ in range(3):
        sheet = _press(sheet, rules.ATTR, "wits")  # mental: 3 dots
    assert "creation dots are spent" in _refused(sheet, rules.ATTR, "perception")
    for _ in range(3):
        sheet = _press(sheet, rules.ATTR, "perception", fb=True)  # 15 freebies
    assert _press(sheet, "art", "autumn", fb=True).arts  # unspent budget: still free
    assert "Not enough freebies" in _refused(sheet, rules.ATTR, "wits", fb=True)
    assert "cannot go below" in _refused(sheet, rules.ATTR, "strength", -1)
    assert _press(sheet, rules.ATTR, "perception", -1).attributes.perception == 3


def test_character_traits_starting_and_bought() -> None:
    sheet = rules.initial_sheet(None, OPTIONS)
    sheet = _press(sheet, rules.CTR, "banality")
    assert sheet.starting.banality == 2 and sheet.banality.rating == 2 and sheet.banality.pool == 0
    assert "Banality cannot be bought" in _refused(sheet, rules.CTR, "banality", fb=True)
    sheet = _press(sheet, rules.CTR, "willpower", fb=True)
    assert sheet.starting.willpower == 1 and sheet.willpower.rating == 2
    assert sheet.willpower.pool == 2
    assert "cannot go below" in _refused(
        _press(sheet, rules.CTR, "willpower", -1, fb=True), rules.CTR, "willpower", -1, fb=True
    )
    errors = [v for v in validate_character(sheet, OPTIONS) if v.field.startswith("willpower")]
    assert errors == []


def test_promote() -> None:
    assert rules.promote(["a", "b", "c"], "c") == ["a", "c", "b"]
    assert rules.promote(["a", "b", "c"], "a") == ["a", "b", "c"]
    assert rules.promote(["a", "b", "c"], "x") == ["a", "b", "c"]


def test_sheet_escapes_user_text_and_fits() -> None:
    t = I18n("ru").translator("en")
    sheet = rules.initial_sheet(None, OPTIONS).model_copy(
        update={"name": "<b>Puck</b>", "concept": "a & b", "notes": "<i>" * 2000}
    )
    text = render_sheet(sheet, t, "en")
    assert "&lt;b&gt;Puck&lt;/b&gt;" in text and "a &amp; b" in text and "<i>" not in text
    assert len(text) <= 4096
    assert dots_bar(3, 5) == "●●●○○" and dots_bar(7, 10) == "7"
