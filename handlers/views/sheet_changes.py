"""A sheet's field-level changes in the system's own words, for people to read.

``bot.services.characters.diff`` reports changes as ``{path, before, after}`` over the stored
JSON (``fate_points``, ``gear`` as a list of dicts…). Shown raw they read «gear: [{'id': …}]»;
here each becomes a line like «Очки судьбы: 0 → 1» or «Снаряжение · Лук: годно → сломано»,
named by the system's glossary (``bot.glossary``). Lines are plain text: callers escape them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from bot.i18n import N_, Translator
from bot.systems import SYSTEMS
from engine import formats
from engine.systems.fate import SlotId
from engine.systems.lifegear import ItemState
from engine.systems.matter import STATES, StateId
from engine.text import has_message, msg
from handlers.views.sheets.fate import engine_name
from handlers.views.sheets.lifegear import STATE_LABEL

VALUE_SHOWN: Final = 60  # characters of one value (an aspect, a description)
ITEM_KEYS: Final = ("id", "name", "state", "slot", "text")  # what identifies a list's entry

DAMAGE: Final[dict[str, str]] = {  # storyteller health boxes (msgids of the tracker)
    "bashing": N_("bashing"),
    "lethal": N_("lethal"),
    "aggravated": N_("aggravated"),
}
# The fields of a list's entries worth naming; any other change reads «изменено».
ITEM_FIELDS: Final[dict[str, str]] = {
    "dice": N_("dice"),
    "lost": N_("dice lost"),
    "state": N_("state"),
    "count": N_("count"),
    "dots": N_("dots"),
    "text": N_("text"),
    "treated": N_("treated"),
    "used": N_("used"),
    "turns_left": N_("turns left"),
    "age": N_("turns in effect"),
    "description": N_("description"),
}


def _skill_of(system: str, key: str, locale: str) -> str | None:
    """The name of a skill, trait or attribute key under a sheet's map, if the engine knows it."""
    trait_key = SYSTEMS[system].trait_key
    if trait_key is None:
        return None
    message = trait_key(key)
    return msg(message).render(locale) if has_message(message) else None


def _text(t: Translator, locale: str, value: Any) -> str:
    if value is None or value == "" or value == [] or value == {}:
        return "—"
    if value is True:
        return t("yes")
    if value is False:
        return t("no")
    if isinstance(value, dict):
        return _item_name(locale, value) or t("changed")
    if isinstance(value, list):
        return ", ".join(_text(t, locale, v) for v in value) or "—"
    if isinstance(value, int):
        return formats.number(value)  # «−2», a real minus
    text = _enum_word(t, locale, str(value))
    return text if len(text) <= VALUE_SHOWN else text[: VALUE_SHOWN - 1] + "…"


def _enum_word(t: Translator, locale: str, value: str) -> str:
    """A stored enum value (an item's state, a matter state, a consequence slot) in words."""
    if value in ItemState._value2member_map_:
        return t(STATE_LABEL[ItemState(value)])
    if value in StateId._value2member_map_:
        return _state(locale, value)
    if value in SlotId._value2member_map_:
        return engine_name(SlotId(value), locale)
    if value in DAMAGE:
        return t(DAMAGE[value])
    return value


def _state(locale: str, value: str) -> str:
    info = STATES[StateId(value)]
    return info.name_ru if locale == "ru" else info.name_en


def _item_name(locale: str, item: dict[str, Any]) -> str:
    if item.get("name"):
        return str(item["name"])
    if item.get("state") in StateId._value2member_map_:
        return _state(locale, str(item["state"]))
    if item.get("slot") in SlotId._value2member_map_:
        slot = engine_name(SlotId(item["slot"]), locale)
        return f"{slot}: «{item['text']}»" if item.get("text") else slot
    return str(item.get("text") or "")


def _key(item: Any, index: int) -> Any:
    if isinstance(item, dict):
        for key in ITEM_KEYS:
            if item.get(key):
                return (key, item[key])
    return ("#", index)


def _entries(
    t: Translator, locale: str, label: str, before: list[Any], after: list[Any]
) -> list[str]:
    """Entries of a list (gear, states, clichés, consequences) added, removed or changed."""
    old = {_key(x, i): x for i, x in enumerate(before)}
    new = {_key(x, i): x for i, x in enumerate(after)}
    lines = [f"{label}: − {_text(t, locale, old[k])}" for k in old if k not in new]
    lines += [f"{label}: + {_text(t, locale, new[k])}" for k in new if k not in old]
    for k in (k for k in new if k in old and old[k] != new[k]):
        a, b = old[k], new[k]
        if not (isinstance(a, dict) and isinstance(b, dict)):
            lines.append(f"{label}: {_text(t, locale, a)} → {_text(t, locale, b)}")
            continue
        name = _item_name(locale, b) or _item_name(locale, a)
        fields = [f for f in sorted(set(a) | set(b)) if a.get(f) != b.get(f)]
        shown = [f for f in fields if f in ITEM_FIELDS]
        for f in shown:
            change = f"{_text(t, locale, a.get(f))} → {_text(t, locale, b.get(f))}"
            # A state's words (годно → сломано) need no field name; a number does.
            field = "" if f == "state" else f" ({t(ITEM_FIELDS[f])})"
            lines.append(f"{label} · {name}{field}: {change}")
        if len(shown) < len(fields) and not shown:
            lines.append(f"{label} · {name}: {t('changed')}")
    return lines


def _label(t: Translator, locale: str, system: str, path: str) -> str:
    """The glossary's name; a key under a named map (``skills.athletics``) adds its own name."""
    parent, _, key = path.rpartition(".")
    spec = SYSTEMS[system]
    label = t(spec.field_label(path))
    if parent and spec.field_label(path) == spec.field_label(parent):
        name = _skill_of(system, key, locale)
        if name:
            return f"{label} · {name}"
    return label


def _is_entries(value: Any) -> bool:
    """A list of entries (dicts) or nothing; a list of plain values reads as a whole."""
    return value is None or (isinstance(value, list) and all(isinstance(x, dict) for x in value))


def describe(
    t: Translator, locale: str, system: str, changes: Iterable[dict[str, Any]]
) -> list[str]:
    """Each change as a line in the system's words (unescaped), in the diff's order."""
    lines: list[str] = []
    for change in changes:
        path = str(change.get("path", ""))
        before, after = change.get("before"), change.get("after")
        label = _label(t, locale, system, path)
        if _is_entries(before) and _is_entries(after) and (before or after):
            lines += _entries(t, locale, label, before or [], after or [])
            continue
        lines.append(f"{label}: {_text(t, locale, before)} → {_text(t, locale, after)}")
    return lines
