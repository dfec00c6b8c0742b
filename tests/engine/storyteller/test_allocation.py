"""One dot at a time during creation: each refusal's reason code, and what a page counts in."""

from __future__ import annotations

from engine.systems.storyteller import Character, StorytellerOptions, new_character
from engine.systems.storyteller.allocation import (
    ATTR,
    CTR,
    Refusal,
    page_categories,
    page_keys,
    press,
    with_cheapest_rankings,
)

OPTIONS = StorytellerOptions(attribute_dots=(3, 2, 1), freebies=5)


def _run(sheet: Character, page: str, presses: list[tuple[str, int]], fb: bool = False) -> object:
    """The presses in order; the first refusal stops them (returned), else the last sheet."""
    for key, delta in presses:
        result = press(sheet, OPTIONS, page, key, delta, freebies=fb)
        if isinstance(result, Refusal):
            return result
        sheet = result
    return sheet


def _reason(result: object) -> tuple[str, dict[str, str | int]]:
    assert isinstance(result, Refusal), result
    return result.reason, result.params


def test_every_reason() -> None:
    sheet = with_cheapest_rankings(new_character("Rose"), OPTIONS)
    assert _reason(_run(sheet, ATTR, [("wits", -1)])) == ("below", {"key": "wits", "low": 1})
    assert _reason(_run(sheet, ATTR, [("strength", 1)] * 5))[0] == "budget_spent"
    assert _reason(_run(sheet, ATTR, [("strength", 1)] * 5, fb=True)) == (
        "above", {"key": "strength", "high": 5},
    )  # fmt: skip
    reason, params = _reason(_run(sheet, "talents", [("brawl", 1)] * 4))
    assert reason == "ability_cap" and params["dots"] == 4
    assert _reason(_run(sheet, ATTR, [("wits", 1)] * 3, fb=True))[0] == "no_freebies"
    assert _reason(_run(sheet, CTR, [("banality", 1)], fb=True)) == ("banality", {})
    bought = _run(sheet, CTR, [("willpower", 1)], fb=True)
    assert isinstance(bought, Character) and bought.starting.willpower == 1


def test_pages() -> None:
    assert page_categories(ATTR) == {"physical", "social", "mental"}
    assert page_categories(CTR) == {"glamour", "willpower"} and page_categories("art") == {"art"}
    assert page_keys(CTR) == ("glamour", "banality", "willpower") and "wits" in page_keys(ATTR)
