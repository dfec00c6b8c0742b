"""The ``matter`` sheet as compact Telegram HTML, plus names of traits for the wizard.

Trait and skill names come from the engine's own ru/en messages (``matter.trait.*``); a skill
the GM added has no registered name and is shown as written (escaped).
"""

from __future__ import annotations

import html
import logging
from typing import Final

from bot.i18n import N_, Translator
from engine import formats
from engine.common import Violation, errors_only
from engine.systems.matter import (
    STATES,
    Character,
    Element,
    MatterKind,
    Skill,
    effective_trait,
)
from engine.systems.matter.creation import COMBAT, GAUGES
from engine.systems.matter.traits import trait_message_key
from engine.text import Msg, has_message, msg

logger = logging.getLogger(__name__)

KIND_NAMES: Final[dict[str, str]] = {
    MatterKind.MAGICAL: N_("magical Matter"),
    MatterKind.SUMMONING: N_("summoning Matter"),
    MatterKind.OTHER: N_("other Matter"),
}
ELEMENT_NAMES: Final[dict[str, str]] = {
    Element.FIRE: N_("Fire"),
    Element.ICE: N_("Ice"),
    Element.LIGHTNING: N_("Lightning"),
    Element.EARTH: N_("Earth"),
}


def esc(value: object) -> str:
    return html.escape(str(value), quote=False)


def trait_name(trait: str, locale: str) -> str:
    """The engine's name of a skill or trait (unescaped); a GM's custom skill as written."""
    key = trait_message_key(trait)
    return msg(key).render(locale) if has_message(key) else trait


def dots(value: int, cap: int | None = None) -> str:
    """●●○ for 2 of 3; without a cap just the filled dots (— for none)."""
    if cap is None:
        return "●" * value if value > 0 else "—"
    return "●" * value + "○" * max(0, cap - value)


def render_violation(violation: Violation, locale: str) -> str:
    """The engine's text with skill and trait ids replaced by their names (unescaped)."""
    params = dict(violation.msg.params)
    for key in ("skill", "trait"):
        if key in params:
            params[key] = trait_name(str(params[key]), locale)
    return Msg(violation.msg.key, params).render(locale)


def violation_lines(violations: list[Violation], locale: str) -> str:
    """Blocking problems first, then warnings, escaped, one per line."""
    errors = errors_only(violations)
    lines = ["⛔ " + esc(render_violation(v, locale)) for v in errors]
    lines += ["⚠️ " + esc(render_violation(v, locale)) for v in violations if v not in errors]
    return "\n".join(lines)


def ordered_skills(skills: dict[str, int]) -> list[tuple[str, int]]:
    """The seed's skill order, then the GM's own skills (a stored JSONB object has no order)."""
    standard = [(s.value, skills[s.value]) for s in Skill if s.value in skills]
    return standard + sorted((k, v) for k, v in skills.items() if k not in set(Skill))


def _skills(character: Character, t: Translator, locale: str) -> list[str]:
    skills = ordered_skills(character.skills)
    trained = [(k, v) for k, v in skills if v > 0]
    untrained = [k for k, v in skills if v <= 0]
    lines = [f"{esc(trait_name(k, locale))} {dots(v)}" for k, v in trained]
    if untrained:
        names = ", ".join(esc(trait_name(k, locale)) for k in untrained)
        lines.append(t("<i>no dots:</i> {names}", names=names))
    return lines


def _numbers(character: Character, t: Translator, locale: str) -> list[str]:
    """Gauges and combat numbers as the character's states leave them (Мини: max Health 2),
    then, when a state changed any, what they are on the sheet itself."""
    now = {k: effective_trait(character, k) for k in (*GAUGES, *(g + "_max" for g in GAUGES))}
    now |= {c: effective_trait(character, c) for c in COMBAT}
    gauges = " · ".join(
        f"{esc(trait_name(g, locale))} {formats.pool(now[g], now[g + '_max'])}" for g in GAUGES
    )
    combat = " · ".join(f"{esc(trait_name(c, locale))} {now[c]}" for c in COMBAT)
    changed = [
        f"{esc(trait_name(k, locale))} {getattr(character, k)} → {v}"
        for k, v in now.items()
        if v != getattr(character, k)
    ]
    lines = [gauges, combat]
    if changed:
        lines.append(t("<i>Changed by states:</i> {what}", what=", ".join(changed)))
    return lines


def _matter(character: Character, t: Translator) -> list[str]:
    lines: list[str] = []
    for ability in character.matter:
        line = f"• {esc(ability.name)} <i>({esc(t(KIND_NAMES[ability.kind]))})</i>"
        if ability.dots:
            line += " " + dots(ability.dots)
        if ability.notes:
            line += f" — {esc(ability.notes)}"
        lines.append(line)
    return lines


def _extras(character: Character, t: Translator, locale: str) -> list[str]:
    lines: list[str] = []
    immune = [
        s.name_ru if locale == "ru" else s.name_en
        for s in map(STATES.get, character.immune_states)
        if s
    ]
    if character.immune_instant_death:
        immune.append(t("instant death"))
    if immune:
        lines.append(t("Immune to: {what}", what=esc(", ".join(immune))))
    if character.protections:
        shown = ", ".join(t(ELEMENT_NAMES[e]) for e in character.protections)
        lines.append(t("Protected from: {what}", what=esc(shown)))
    if character.items:
        shown = ", ".join(f"{i.name} ×{i.count}" for i in character.items)
        lines.append(t("Items: {what}", what=esc(shown)))
    if character.states:
        names = [
            STATES[a.state].name_ru if locale == "ru" else STATES[a.state].name_en
            for a in character.states
        ]
        lines.append(t("States: {what}", what=esc(", ".join(names))))
    if character.notes:
        lines.append(t("Notes: {what}", what=esc(character.notes)))
    return lines


def render_sheet(character: Character, t: Translator, locale: str) -> str:
    """Name, skills with dots, gauges and combat numbers, Matter abilities, the rest if any."""
    lines = [f"<b>{esc(character.name or '?')}</b>", "", t("<b>Skills</b>")]
    lines += _skills(character, t, locale)
    lines += ["", *_numbers(character, t, locale)]
    matter = _matter(character, t)
    if matter:
        lines += ["", t("<b>Matter</b>"), *matter]
    extras = _extras(character, t, locale)
    if extras:
        lines += ["", *extras]
    return "\n".join(lines)
