"""The cliché system's quick NPC: ``Громила: Вышибала 4, Пьяница 2``: a name and its
clichés, each with its dice (1–10); a bare text is a hook."""

from __future__ import annotations

from typing import Final

import engine.systems.cliche.messages  # noqa: F401  # registers cliche.npc.*
from engine.systems.cliche.sheet import Character, Cliche
from engine.systems.npc import number, once, required, split_line
from engine.text import msg

DICE_HIGH: Final = 10
HOOKS_MAX: Final = 5


class ClicheNpcForm:
    def example(self, locale: str) -> str:
        return msg("cliche.npc.example").render(locale)

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
            raise required(msg("cliche.npc.what"), example)
        return Character(
            name=line.name or default_name, cliches=tuple(cliches), hooks=tuple(hooks[:HOOKS_MAX])
        )


NPC_FORM: Final = ClicheNpcForm()
