"""A FATE sheet as compact Telegram HTML: aspects, the skill column, stunts, stress, gear."""

from __future__ import annotations

import html
from enum import StrEnum

from bot.i18n import Translator
from engine.systems.fate import (
    Character,
    alchemy_points,
    artifact_points,
    consequence_slots,
    equipment_points,
    gear_cost,
    ladder_label,
    signed,
    slot_value,
    stress_tracks,
)
from engine.systems.fate.models import Stunt, name_params
from engine.text import msg

STUNT_SHOWN = 300  # characters of a stunt's description shown on the sheet


def _e(value: object) -> str:
    return html.escape(str(value), quote=False)


def short(text: str, limit: int = STUNT_SHOWN) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def skill_name(skill_id: str, locale: str) -> str:
    return msg(f"fate.skill.{skill_id}").render(locale)


def engine_name(value: StrEnum, locale: str) -> str:
    """The engine's own Russian/English name of a role, track or slot (one wording for all)."""
    names = name_params("n", value)
    return names["n_ru"] if locale == "ru" else names["n_en"]


def _aspects(character: Character, locale: str) -> list[str]:
    return [f"<i>{_e(engine_name(a.role, locale))}:</i> {_e(a.text)}" for a in character.aspects]


def skill_lines(character: Character, locale: str) -> list[str]:
    """One line per used level, highest first: ``+3 Good: Fight, Will``."""
    levels: dict[int, list[str]] = {}
    for skill, level in character.skills.items():
        if level:
            levels.setdefault(level, []).append(skill_name(skill.value, locale))
    return [
        f"<b>{signed(level)}</b> {_e(ladder_label(level).render(locale))}: "
        + _e(", ".join(sorted(levels[level])))
        for level in sorted(levels, reverse=True)
    ]


def _stunts(character: Character, t: Translator) -> list[str]:
    if not character.stunts and not character.refresh and not character.fate_points:
        return []  # a quick NPC's «Трюки (обновление 0, очки судьбы 0)» said nothing
    head = t("<b>Stunts</b> (refresh {refresh}, fate points {fp})").format(
        refresh=character.refresh, fp=character.fate_points
    )
    return [head, *(stunt_line(s) + (" ⚡" if s.powerful else "") for s in character.stunts)]


def stunt_line(stunt: Stunt, limit: int = STUNT_SHOWN) -> str:
    """``• <b>Name</b> — what it does`` (shortened to ``limit``), as escaped HTML."""
    about = f" — {_e(short(stunt.description, limit))}" if stunt.description else ""
    return f"• <b>{_e(stunt.name)}</b>{about}"


def derived_lines(character: Character, t: Translator, locale: str) -> list[str]:
    """Stress tracks (☐☐☐) and consequence slots (values), both derived from skills."""
    stress = " · ".join(
        f"{_e(engine_name(v.kind, locale))} {v.shown()}" for v in stress_tracks(character)
    )
    slots = ", ".join(
        f"{_e(engine_name(s, locale))} {slot_value(s)}" for s in consequence_slots(character)
    )
    lines = [
        t("<b>Stress</b>: {tracks}").format(tracks=stress),
        t("<b>Consequence slots</b>: {slots}").format(slots=slots),
    ]
    for c in character.consequences:
        lines.append(f"• {_e(engine_name(c.slot, locale))}: {_e(c.text)}")
    return lines


def _gear_line(character: Character, t: Translator) -> list[str]:
    eq = character.equipment
    if not gear_cost(eq) and not equipment_points(character):
        return []  # a quick NPC's «(0 of 0 points): melee 0, ranged 0, armor 0» said nothing
    return [
        t.plural(  # «1 of 1 point», «2 of 4 points»
            "<b>Gear</b> ({cost} of {n} point): melee {melee}, ranged {ranged}, armor {armor}",
            "<b>Gear</b> ({cost} of {n} points): melee {melee}, ranged {ranged}, armor {armor}",
            equipment_points(character),
            cost=gear_cost(eq),
            melee=eq.melee,
            ranged=eq.ranged,
            armor=eq.armor,
        )
    ]


def _gear(character: Character, t: Translator) -> list[str]:
    lines = _gear_line(character, t)
    if character.artifacts or artifact_points(character):
        names = ", ".join(_e(a.name or a.kind.value) for a in character.artifacts) or "—"
        lines.append(
            t.plural(
                "Artifacts ({n} point): {names}",
                "Artifacts ({n} points): {names}",
                artifact_points(character),
                names=names,
            )
        )
    if character.alchemy or alchemy_points(character):
        names = ", ".join(_e(a.name or a.kind.value) for a in character.alchemy) or "—"
        lines.append(
            t.plural(
                "Alchemy ({n} point): {names}",
                "Alchemy ({n} points): {names}",
                alchemy_points(character),
                names=names,
            )
        )
    for extra in character.extras:
        lines.append(t("Extra: {name} ({cost})").format(name=_e(extra.name), cost=extra.cost))
    return lines


def render_sheet(character: Character, t: Translator, locale: str) -> str:
    """The whole sheet; every user string escaped; lines close their own tags."""
    lines = [f"<b>{_e(character.name)}</b> · FATE", *_aspects(character, locale)]
    skills = skill_lines(character, locale)
    if skills:
        lines += [t("<b>Skills</b>"), *skills]
    # stunts come last: on a very long sheet ``fit`` cuts their text, never the numbers
    lines += derived_lines(character, t, locale)
    lines += _gear(character, t)
    lines += _stunts(character, t)
    if character.notes:
        lines.append(f"<i>{_e(character.notes)}</i>")
    return "\n".join(lines)
