"""FATE's quick NPC: ``Громила: Драка 3, Атлетика 2, стресс 2, Здоровый как бык``.

A skill and its level (−2…+8 on the ladder), ``стресс N`` (the NPC's one stress track, 0–10
boxes; without it the boxes follow Конституция and Воля as for anyone), and any bare text is
an aspect. A mook has no fate points and no refresh (the GM's pool pays for NPCs).
"""

from __future__ import annotations

from typing import Final

from engine.systems.fate.models import (
    SKILL_NAMES_RU,
    AspectRole,
    Character,
    CharacterAspect,
    Skill,
)
from engine.systems.npc import NpcFormError, Vocabulary, number, once, split_line
from engine.text import msg, register_messages

SKILL_LOW: Final = -2
SKILL_HIGH: Final = 8
STRESS_HIGH: Final = 10
ASPECTS_MAX: Final = 5
STRESS_KEY: Final = "stress"

register_messages(
    {
        "npc.fate.example": {
            "ru": "Громила: Бой 3, Атлетика 2, стресс 2, Здоровый как бык",
            "en": "Thug: Fight 3, Athletics 2, stress 2, Strong as an ox",
        },
        "npc.fate.aspects": {
            "ru": "Аспектов больше {limit}.",
            "en": "More than {limit} aspects.",
        },
    }
)


def _vocabulary(example: str) -> Vocabulary:
    entries: list[tuple[str, tuple[str, ...]]] = [
        (s.value, (SKILL_NAMES_RU[s], msg(f"fate.skill.{s.value}").render("en"))) for s in Skill
    ]
    entries.append((STRESS_KEY, ("стресс", "stress", "стресса", "стрессы")))
    # Words GMs of other games write for Бой (the example in the issue is «Драка 3»).
    entries.append((Skill.FIGHT.value, ("Драка", "Brawl", "Рукопашная")))
    return Vocabulary(entries, example)


class FateNpcForm:
    def example(self, locale: str) -> str:
        return msg("npc.fate.example").render(locale)

    def build(self, text: str, default_name: str) -> Character:
        example = self.example("ru")
        line = split_line(text, example)
        words = _vocabulary(example)
        skills: dict[Skill, int] = {}
        aspects: list[CharacterAspect] = []
        stress: int | None = None
        seen: set[str] = set()
        for item in line.items:
            if item.value is None:
                if len(aspects) >= ASPECTS_MAX:
                    raise NpcFormError(msg("npc.fate.aspects", limit=ASPECTS_MAX))
                aspects.append(CharacterAspect(text=item.label, role=AspectRole.EXTRA))
                continue
            key = words.get(item.label)
            once(seen, key, item)
            if key == STRESS_KEY:
                stress = number(item, 0, STRESS_HIGH)
            else:
                skills[Skill(key)] = number(item, SKILL_LOW, SKILL_HIGH)
        return Character(
            name=line.name or default_name,
            aspects=tuple(aspects),
            skills={s: v for s, v in skills.items() if v},
            refresh=0,
            fate_points=0,
            stress_boxes=stress,
        )


NPC_FORM: Final = FateNpcForm()
