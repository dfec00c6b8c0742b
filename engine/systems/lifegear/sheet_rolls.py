"""``/r`` shorthands against a lifegear sheet: ``Стрельба vs 10`` → the stat's dice
expression (``1d8+1d6+3``); a weapon's name rolls it with its stat (``Лук`` → Ловкость's
dice plus the bow's ``1d6``: the seed's «Ловкость или Стрельба + 1d6»)."""

from __future__ import annotations

from typing import Final

from engine.common import SheetModel
from engine.systems import lifegear
from engine.systems.sheet_rolls import (
    Names,
    SheetRoll,
    SheetRollError,
    check_target,
    clean,
    html,
    normalize,
    require,
    split_user_named,
)
from engine.text import msg, register_messages

from .attacks import allowed_stats
from .gear import require_ready
from .models import Item, ItemKind, Stat

register_messages(
    {
        "lifegear.sheetroll.weapon_stat": {
            "ru": "«{item}» бросают с параметром: {choices}.",
            "en": "“{item}” is rolled with a stat: {choices}.",
        },
        "lifegear.sheetroll.weapon_no_stat": {
            "ru": "«{item}» бросают с параметром ({stats}), а на листе их нет.",
            "en": "“{item}” is rolled with a stat ({stats}), and the sheet has none of them.",
        },
        "lifegear.sheetroll.not_rolled": {
            "ru": "«{item}» не бросают отдельно. Бросьте параметр: {stats}.",
            "en": "“{item}” is not rolled on its own. Roll a stat: {stats}.",
        },
    }
)


def _stat_roll(stat: Stat, target: int | None) -> SheetRoll:
    check_target(target)
    notation = lifegear.parse_dice(stat.dice).render()
    return SheetRoll(notation, f"{stat.name} ({notation})", target, "lifegear")


def _examples(names: list[str]) -> str:
    return ", ".join(f"/r {html(name)}" for name in names) or "—"


def _gear_roll(
    character: lifegear.Character, item: Item, rest: str, target: int | None
) -> SheetRoll:
    """``Лук`` or ``Лук Стрельба``: the weapon with its (only, or named) stat."""
    if item.kind is not ItemKind.WEAPON:
        stats = _examples([s.name for s in character.stats])
        raise SheetRollError(
            msg("lifegear.sheetroll.not_rolled", item=html(item.name), stats=stats)
        )
    require_ready(item)
    allowed = allowed_stats(character, item.stats)
    if not allowed:
        raise SheetRollError(
            msg(
                "lifegear.sheetroll.weapon_no_stat",
                item=html(item.name),
                stats=html(", ".join(item.stats)),
            )
        )
    named = normalize(rest[len(item.name) :]) if len(rest) > len(item.name) else ""
    if named:
        stat = next((s for s in allowed if normalize(s.name) == named), None)
    else:
        stat = allowed[0] if len(allowed) == 1 else None
    if stat is None:
        choices = _examples([f"{item.name} {s.name}" for s in allowed])
        raise SheetRollError(
            msg("lifegear.sheetroll.weapon_stat", item=html(item.name), choices=choices)
        )
    check_target(target)
    expr = lifegear.parse_dice(stat.dice)
    if item.dice.strip():
        expr = expr.plus(lifegear.parse_dice(item.dice))
    notation = expr.render()
    return SheetRoll(notation, f"{item.name}: {stat.name} ({notation})", target, "lifegear")


def _gear_named(character: lifegear.Character, text: str) -> Item | None:
    """The gear item ``text`` names, alone or followed by a stat (``Лук Стрельба``); the
    longest name wins."""
    folded = normalize(text)
    found = [
        item
        for item in character.gear
        if folded == normalize(item.name) or folded.startswith(normalize(item.name) + " ")
    ]
    return max(found, key=lambda item: len(item.name), default=None)


_EXAMPLE = ("Shooting vs 10", "Стрельба vs 10")  # a sheet with no stats: the usage's example


def _plan_lifegear(character: lifegear.Character, text: str, locale: str) -> SheetRoll:
    names = [s.name for s in character.stats]
    gear_names = [item.name for item in character.gear]
    rest, target = split_user_named(text, names + gear_names)
    require(rest, html(names[0]) if names else _EXAMPLE[locale == "ru"])
    index = Names((str(i), (s.name,)) for i, s in enumerate(character.stats))
    key = index.find(rest)
    if key is None:
        item = _gear_named(character, rest)
        if item is not None:
            return _gear_roll(character, item, rest, target)
    stat = character.stats[int(index.get(rest, names))]
    return _stat_roll(stat, target)


class LifegearSheetRolls:
    """``base.SheetRolls`` for this system."""

    def plan(self, character: SheetModel, text: str, locale: str) -> SheetRoll:
        if not isinstance(character, lifegear.Character):
            raise ValueError(f"not a sheet of this system: {type(character).__name__}")
        return _plan_lifegear(character, clean(text), locale)

    def prefers_sheet_roll(self, text: str) -> bool:
        return False


SHEET_ROLLS: Final = LifegearSheetRolls()
