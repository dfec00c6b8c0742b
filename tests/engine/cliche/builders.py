"""Shared builders for the cliché tests."""

from __future__ import annotations

from engine.systems.cliche import Attributes, Character, Cliche


def make_character(
    name: str, *cliches: tuple[str, int], armor: tuple[str, int] | None = None
) -> Character:
    items = [Cliche(name=n, dice=d) for n, d in cliches]
    if armor is not None:
        items.append(Cliche(name=armor[0], dice=armor[1], armor=True))
    return Character(
        name=name,
        attributes=Attributes(physical=3, mental=3, social=3),
        cliches=tuple(items),
    )
