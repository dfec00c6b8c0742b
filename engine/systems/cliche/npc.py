"""The cliché system's quick NPC: ``Громила: Вышибала 4, Пьяница 2``: a name and its
clichés, each with its dice (1–10); a bare text is a hook."""

from __future__ import annotations

from typing import Final

from engine.systems.cliche.sheet import Character, Cliche
from engine.systems.npc import number, once, required, split_line
from engine.text import msg, register_messages

DICE_HIGH: Final = 10
HOOKS_MAX: Final = 5

register_messages(
    {
        "npc.cliche.example": {
            "ru": "Громила: Вышибала из салуна 4, Пьяница 2",
            "en": "Thug: Saloon bouncer 4, Drunkard 2",
        },
        "npc.cliche.what": {"ru": "хотя бы одно клише с числом", "en": "at least one cliché"},
    }
)


class ClicheNpcForm:
    def example(self, locale: str) -> str:
        return msg("npc.cliche.example").render(locale)

    def build(self, text: str, default_name: str) -> Character:
        example = self.example("ru")
        line = split_line(text, example)
        cliches: list[Cliche] = []
        hooks: list[str] = []
        seen: set[str] = set()
        for item in line.items:
            if item.value is None:
                hooks.append(item.label)
                continue
            once(seen, item.label.casefold(), item)
            cliches.append(Cliche(name=item.label, dice=number(item, 1, DICE_HIGH)))
        if not cliches:
            raise required(msg("npc.cliche.what"), example)
        return Character(
            name=line.name or default_name, cliches=tuple(cliches), hooks=tuple(hooks[:HOOKS_MAX])
        )


NPC_FORM: Final = ClicheNpcForm()
