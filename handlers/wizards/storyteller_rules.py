"""The storyteller wizard's draft and the words for one +/− refused by the engine
(``engine.systems.storyteller.allocation``: by category, from the creation budget or with
freebies)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from bot.i18n import N_
from engine.systems.storyteller import Character, StorytellerOptions, new_character
from engine.systems.storyteller import allocation as engine
from handlers.wizards.flow.start import returned_sheet

ATTR, CTR, dots, page_keys = engine.ATTR, engine.CTR, engine.dots, engine.page_keys
page_categories, promote = engine.page_categories, engine.promote

WORDS: Final = {
    "below": N_("{name} cannot go below {low}."),
    "above": N_("{name} is at the maximum, {high}."),
    "ability_cap": N_(
        "No ability above {cap} from the creation dots: {name} can reach {dots} only "
        "with freebies (the «Freebies» step)."
    ),
    "budget_spent": N_(
        "{group}: all {budget} creation dots are spent. More dots cost freebies "
        "(the «Freebies» step)."
    ),
    "no_freebies": N_("Not enough freebies: this dot costs {cost}, {left} left."),
    "banality": N_("Banality cannot be bought with freebies."),
}


@dataclass(frozen=True)
class Refusal:
    """Why a press changed nothing: an untranslated msgid and its parameters."""

    msgid: str
    params: dict[str, Any] = field(default_factory=dict)


def press(
    character: Character, options: StorytellerOptions, page: str, key: str, delta: int,
    *, freebies: bool,
) -> Character | Refusal:  # fmt: skip
    """+1 or −1 on one trait; the new sheet or why not."""
    result = engine.press(character, options, page, key, delta, freebies=freebies)
    if isinstance(result, engine.Refusal):
        return Refusal(WORDS[result.reason], dict(result.params))
    return result


def initial_sheet(draft: dict[str, Any] | None, options: StorytellerOptions) -> Character:
    """A returned (or edited) sheet to continue from, else an empty one, ranked explicitly."""
    character = returned_sheet(Character, draft, new_character(""))
    return engine.with_cheapest_rankings(character, options)


def load(data: dict[str, Any]) -> Character:
    return Character.model_validate(data["sheet"])


def dump(character: Character) -> dict[str, Any]:
    return character.model_dump(mode="json")
