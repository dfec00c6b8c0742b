"""Lifegear's quick NPC, a monster of fast combat:
``Тролль: защита 12, до боя 2, после боя 1, Регенерация``.

``защита N`` (the defence level, 0–100) is required; ``до боя N`` / ``после боя N`` are its
special damage before or after the fight (0–20); any bare text is a special named so (the GM
rules on it). ``/fight Тролль`` then takes the monster's defence from the NPC.
"""

from __future__ import annotations

from typing import Final

from engine.systems.lifegear.models import Character, Monster, MonsterSpecial, SpecialTiming
from engine.systems.npc import Vocabulary, number, once, required, split_line
from engine.text import msg, register_messages

DEFENCE_HIGH: Final = 100
DAMAGE_HIGH: Final = 20
DEFENCE: Final = "defence"

register_messages(
    {
        "npc.lifegear.example": {
            "ru": "Тролль: защита 12, до боя 2, после боя 1, Регенерация",
            "en": "Troll: defence 12, before 2, after 1, Regeneration",
        },
        "npc.lifegear.what": {"ru": "защита (число)", "en": "defence (a number)"},
    }
)


def _vocabulary(example: str) -> Vocabulary:
    return Vocabulary(
        [
            (DEFENCE, ("защита", "defence", "defense", "уровень защиты")),
            (SpecialTiming.BEFORE_FIGHT.value, ("до боя", "before", "before the fight")),
            (SpecialTiming.AFTER_FIGHT.value, ("после боя", "after", "after the fight")),
        ],
        example,
    )


class LifegearNpcForm:
    def example(self, locale: str) -> str:
        return msg("npc.lifegear.example").render(locale)

    def build(self, text: str, default_name: str) -> Character:
        example = self.example("ru")
        line = split_line(text, example)
        words = _vocabulary(example)
        defence: int | None = None
        specials: list[MonsterSpecial] = []
        seen: set[str] = set()
        for item in line.items:
            if item.value is None:
                specials.append(MonsterSpecial(name=item.label, timing=SpecialTiming.BEFORE_FIGHT))
                continue
            key = words.get(item.label)
            once(seen, key, item)
            if key == DEFENCE:
                defence = number(item, 0, DEFENCE_HIGH)
            else:
                damage = number(item, 0, DAMAGE_HIGH)
                specials.append(
                    MonsterSpecial(name=item.label, timing=SpecialTiming(key), damage=damage)
                )
        if defence is None:
            raise required(msg("npc.lifegear.what"), example)
        name = line.name or default_name
        monster = Monster(name=name, defence=defence, specials=tuple(specials))
        return Character(name=name, monster=monster)


NPC_FORM: Final = LifegearNpcForm()
