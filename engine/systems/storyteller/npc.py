"""Storyteller's quick NPC: ``Стражник: Сила 3, Ловкость 2, Драка 3, Воля 4, страж ворот``.

An attribute (1–10), an ability (0–10, the catalogue's), ``Воля N`` (Willpower, rating and
pool), and any bare text is the concept. Pools are the sheet's attribute + ability, as for any
character; every NPC has the standard seven health levels (DECISION: the sheet has no other).
"""

from __future__ import annotations

from typing import Final

from engine.systems.npc import Vocabulary, number, once, split_line
from engine.systems.storyteller.sheet import AbilityDots, Attributes, Character, PoolTrait
from engine.systems.storyteller.traits import ABILITIES, Attribute, trait_name
from engine.text import msg, register_messages

TRAIT_HIGH: Final = 10
WILLPOWER: Final = "willpower"
_ATTR: Final = "attr:"

register_messages(
    {
        "npc.storyteller.example": {
            "ru": "Стражник: Сила 3, Ловкость 2, Драка 3, Воля 4, страж ворот",
            "en": "Guard: Strength 3, Dexterity 2, Brawl 3, Willpower 4, gate guard",
        },
    }
)


def _names(key: str) -> tuple[str, str]:
    return trait_name(key).render("ru"), trait_name(key).render("en")


def _vocabulary(example: str) -> Vocabulary:
    entries: list[tuple[str, tuple[str, ...]]] = [
        (_ATTR + a.value, _names(a.value)) for a in Attribute
    ]
    entries += [(key, _names(key)) for key in ABILITIES]
    entries.append((WILLPOWER, ("Воля", "Willpower", "Сила воли")))
    return Vocabulary(entries, example)


class StorytellerNpcForm:
    def example(self, locale: str) -> str:
        return msg("npc.storyteller.example").render(locale)

    def build(self, text: str, default_name: str) -> Character:
        example = self.example("ru")
        line = split_line(text, example)
        words = _vocabulary(example)
        attributes: dict[str, int] = {}
        abilities: list[AbilityDots] = []
        concept: list[str] = []
        willpower: int | None = None
        seen: set[str] = set()
        for item in line.items:
            if item.value is None:
                concept.append(item.label)
                continue
            key = words.get(item.label)
            once(seen, key, item)
            if key.startswith(_ATTR):
                attributes[key.removeprefix(_ATTR)] = number(item, 1, TRAIT_HIGH)
            elif key == WILLPOWER:
                willpower = number(item, 1, TRAIT_HIGH)
            else:
                dots = number(item, 0, TRAIT_HIGH)
                if dots:
                    abilities.append(AbilityDots(key=key, group=ABILITIES[key].group, dots=dots))
        sheet = Character(
            name=line.name or default_name,
            concept=", ".join(concept)[:200],
            attributes=Attributes(**attributes),
            abilities=tuple(abilities),
        )
        if willpower is not None:
            pool = PoolTrait(rating=willpower, pool=willpower)
            sheet = sheet.model_copy(update={"willpower": pool})
        return sheet


NPC_FORM: Final = StorytellerNpcForm()
