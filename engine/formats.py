"""One formatter per kind of value, used by every surface (issue 36, item 10).

A chat sheet, the /res panel, a tracker, a milestone preview and its notice, a card, /history
and the Mini App all show a stress track, a pool or a modifier through these functions, so one
value reads the same wherever a player meets it. A screen never spells a value itself.

The module is pure (the engine's dice renderer uses it too); words come from the engine's own
catalogue (``engine.text``), so the functions take a ``locale``.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, tzinfo
from enum import StrEnum
from fractions import Fraction
from typing import Final
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from engine.text import msg, register_messages, template

MINUS: Final = "\u2212"  # «−», not the hyphen «-»
BOX_MARKED: Final = "☒"
BOX_FREE: Final = "☐"
DOT_ON: Final = "●"
DOT_OFF: Final = "○"
DOTS_SHOWN_UP_TO: Final = 5  # past five dots a rating reads better as a number (1–10 traits)

register_messages(
    {
        "formats.temporary": {
            "ru": "{rating} (временных {temporary})",
            "en": "{rating} ({temporary} temporary)",
        },
    }
)


class ValueKind(StrEnum):
    """How a changed value (``engine.common.Change``) is shown: as it is, or as a track."""

    PLAIN = "plain"
    STRESS = "stress"  # the seed's notation «0x0», shown as boxes ☐☒☐
    ITEM_STATE = "item_state"  # a gear item's state («spent»), in the reader's words («потрачено»)


def number(value: int) -> str:
    """A whole number with a real minus: «3», «0», «−2»."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


def signed(value: int) -> str:
    """A modifier: «+3», «0», «−2» (a real minus sign)."""
    return f"+{value}" if value > 0 else number(value)


def stress_track(marks: Iterable[bool]) -> str:
    """Boxes of a stress track, one a box, marked or free: «☒☐☐»."""
    return "".join(BOX_MARKED if marked else BOX_FREE for marked in marks)


def stress_notation(notation: str) -> str:
    """A track stored in the seed's notation (``0x0``: box 2 marked) as boxes: «☐☒☐»."""
    return stress_track(mark == "x" for mark in notation)


def dots(value: int, top: int = DOTS_SHOWN_UP_TO) -> str:
    """A dot rating: «●●●○○»; a plain number past five dots or out of range."""
    if top > DOTS_SHOWN_UP_TO or value > top or value < 0:
        return number(value)
    return DOT_ON * value + DOT_OFF * (top - value)


def pool(current: int, maximum: int) -> str:
    """A pool's current value of its maximum: «3/4» (Willpower, Glamour, Health, lives)."""
    return f"{number(current)}/{number(maximum)}"


def rating_with_temporary(rating: int, temporary: int, locale: str) -> str:
    """A permanent rating with temporary points gained towards the next (Banality): «3», or
    «3 (временных 2)» when there are any."""
    if not temporary:
        return number(rating)
    return msg("formats.temporary", rating=number(rating), temporary=temporary).render(locale)


def percent(share: Fraction | float, locale: str) -> str:
    """A probability (0..1) as a percentage with one decimal in the locale's way: «12,5 %»
    in Russian (a decimal comma and a space), «12.5%» in English; «<0,1 %» near the ends."""
    value = float(share) * 100
    prefix = ""
    if 0 < value < 0.1:
        prefix, value = "<", 0.1
    elif 99.9 < value < 100:
        prefix, value = ">", 99.9
    text = f"{value:.1f}"
    if locale == "ru":
        return f"{prefix}{text.replace('.', ',')}\u00a0%"
    return f"{prefix}{text}%"


def zone(name: str) -> tzinfo:
    """A game's time zone by its name; UTC for a name this machine does not know."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return UTC


def zone_name(name: str) -> str:
    """A time zone as a person reads it: «Europe/Moscow» as it is, but POSIX's sign-inverted
    «Etc/GMT-5» (what «+5» is stored as) as «UTC+5», and «Etc/UTC» as «UTC»."""
    if name in ("Etc/UTC", "Etc/GMT", "UTC"):
        return "UTC"
    if name.startswith("Etc/GMT") and name[7:8] in ("+", "-") and name[8:].isdigit():
        return f"UTC{'+' if name[7] == '-' else MINUS}{int(name[8:])}"
    return name


def moment(when: datetime, where: tzinfo | str, *, year: bool = True) -> str:
    """A date and time on the game's clock: «04.12.2026 15:30» (without ``year``, «04.12
    15:30»); ``where`` is a zone or a zone's name."""
    local = when.astimezone(zone(where) if isinstance(where, str) else where)
    return local.strftime("%d.%m.%Y %H:%M" if year else "%d.%m %H:%M")


def changed_value(kind: ValueKind, value: object, locale: str = "en") -> str:
    """A value of a ``Change`` (before or after) as its kind shows it (not escaped)."""
    if kind is ValueKind.STRESS and isinstance(value, str):
        return stress_notation(value)
    if kind is ValueKind.ITEM_STATE and isinstance(value, str):
        # the engine's message «<system>.item.state.<value>» (lifegear registers them)
        shown = template(f"lifegear.item.state.{value}", locale)
        return shown if shown is not None else value
    if isinstance(value, int) and not isinstance(value, bool):
        return number(value)
    return str(value)
