"""A toy system's creation, declared as data: every step kind of the generic flow once."""

from __future__ import annotations

from html import escape
from typing import Any

from pydantic import Field

from engine.common import SheetModel, Violation
from engine.text import msg, register_messages
from handlers.wizards.flow import Allocate, Choice, Choose, Flow, Info, Items, Text


class ToySheet(SheetModel):
    name: str = ""
    motto: str = ""
    house: str = ""
    gifts: tuple[str, ...] = ()
    stats: dict[str, int] = Field(default_factory=dict)
    friends: tuple[str, ...] = ()
    mentor: str = ""


register_messages(
    {
        "toy.name": {"en": "A toy needs a name.", "ru": "Игрушке нужно имя."},
        "toy.three": {"en": "Only one stat may reach 3.", "ru": "До 3 дорастает один показатель."},
    }
)


def validate(sheet: ToySheet, options: Any) -> list[Violation]:
    found = []
    if not sheet.name:
        found.append(Violation("name", msg("toy.name")))
    if sum(1 for v in sheet.stats.values() if v >= 3) > 1:
        found.append(Violation("stats", msg("toy.three")))
    return found


async def mentors(uow: Any, game_id: int) -> tuple[Choice, ...]:
    """A GM-defined list, read when shown: here the game's own title and a name with markup."""
    game = await uow.games.get(game_id)
    return (Choice("g1", f"Old {game.title}"), Choice("g2", "<Nobody>"))


def summary(sheet: ToySheet, options: Any, t: Any, locale: str) -> str:
    return escape(f"Dots: {sum(sheet.stats.values())} · <friends> {len(sheet.friends)}")


HOUSES = tuple(Choice(f"h{i}", f"House {i}") for i in range(10))
GIFTS = (Choice("fire", "Fire"), Choice("ice", "Ice"), Choice("wind", "Wind"))
STATS = tuple(Choice(k, k.capitalize()) for k in ("might", "wits", "grace"))

TOY = Flow(
    name="toy",
    steps=(
        Text("name", "Name", "What is the toy called?", required=True),
        Text("motto", "Motto", "A motto, if any.", limit=40, one_line=False),
        Choose("house", "House", "Pick a house, or your own.", HOUSES, typed=True, page_size=4),
        Choose("gifts", "Gifts", "Pick up to two gifts.", GIFTS, pick=2),
        Allocate(
            "stats", "Stats", "Spend the points.", STATS,
            budget=lambda o: int(o.get("points", 5)), cap=lambda o: 3,
            cost=lambda trait, level: 2 if level == 3 else 1,
        ),
        Items("friends", "Friends", "Name a friend per message.", max_items=3, min_items=1),
        Choose("mentor", "Mentor", "The GM's mentors.", source=mentors),
        Info("summary", "Summary", "What the rules make of it.", lines=summary),
    ),
    options=lambda raw: dict(raw),
    build=lambda d, o: ToySheet(
        name=d.get("name", ""), motto=d.get("motto", ""), house=d.get("house", ""),
        gifts=tuple(d.get("gifts") or ()), stats=dict(d.get("stats") or {}),
        friends=tuple(d.get("friends") or ()), mentor=d.get("mentor", ""),
    ),
    load=lambda sheet, o: {**(ToySheet.model_validate(sheet).model_dump() if sheet else {})},
    validate=validate,  # type: ignore[arg-type]
    render=lambda s, t, locale: escape(
        f"{s.name} · {s.house} · {', '.join(s.gifts)} · "
        + ", ".join(f"{k} {v}" for k, v in sorted(s.stats.items()))
        + " · friends: " + ", ".join(s.friends)
    ),
)  # fmt: skip
