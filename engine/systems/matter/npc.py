"""Matter's quick NPC: ``Бандит: Жестокость 2, Сноровка 1, Здоровье 4, Броня 1, трус``.

A skill (0–10 dots), a trait of the sheet (Здоровье, Сила Воли, Гнев — each sets the maximum
too —, Броня, Защита, Атака, Уклонение, Инициатива; 0–20), and any bare text is a note.
"""

from __future__ import annotations

from typing import Final

from engine.systems.matter.sheet import Character
from engine.systems.matter.traits import Skill, Trait, trait_message_key
from engine.systems.npc import Vocabulary, number, once, split_line
from engine.text import msg, register_messages

SKILL_HIGH: Final = 10
TRAIT_HIGH: Final = 20
# The traits a line may set; a value sets the trait and, where the sheet has one, its maximum.
TRAITS: Final[dict[Trait, Trait | None]] = {
    Trait.HEALTH: Trait.HEALTH_MAX,
    Trait.WILLPOWER: Trait.WILLPOWER_MAX,
    Trait.ANGER: Trait.ANGER_MAX,
    Trait.ARMOR: None,
    Trait.DEFENCE: None,
    Trait.ATTACK: None,
    Trait.DODGE: None,
    Trait.INITIATIVE: None,
}

register_messages(
    {
        "npc.matter.example": {
            "ru": "Бандит: Жестокость 2, Сноровка 1, Здоровье 4, Броня 1, трус",
            "en": "Bandit: Brutality 2, Dexterity 1, Health 4, Armor 1, a coward",
        },
    }
)


def _names(key: str) -> tuple[str, ...]:
    named = msg(trait_message_key(key))
    return named.render("ru"), named.render("en")


def _vocabulary(example: str) -> Vocabulary:
    entries = [(str(s.value), _names(s.value)) for s in Skill]
    entries += [(str(t.value), _names(t.value)) for t in TRAITS]
    entries.append((Trait.WILLPOWER.value, ("Воля",)))
    return Vocabulary(entries, example)


class MatterNpcForm:
    def example(self, locale: str) -> str:
        return msg("npc.matter.example").render(locale)

    def build(self, text: str, default_name: str) -> Character:
        example = self.example("ru")
        line = split_line(text, example)
        words = _vocabulary(example)
        skills: dict[str, int] = {}
        traits: dict[str, int] = {}
        notes: list[str] = []
        seen: set[str] = set()
        for item in line.items:
            if item.value is None:
                notes.append(item.label)
                continue
            key = words.get(item.label)
            once(seen, key, item)
            if key in {s.value for s in Skill}:
                skills[key] = number(item, 0, SKILL_HIGH)
                continue
            value = number(item, 0, TRAIT_HIGH)
            traits[key] = value
            maximum = TRAITS[Trait(key)]
            if maximum is not None:
                traits[maximum.value] = value
        sheet = Character(
            name=line.name or default_name,
            skills={k: v for k, v in skills.items() if v},
            notes=", ".join(notes)[:500],
        )
        return sheet.model_copy(update=traits)


NPC_FORM: Final = MatterNpcForm()
