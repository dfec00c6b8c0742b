"""The ``storyteller`` sheet as compact Telegram HTML (approval card, ``/sheet``, preview).

One line per attribute group and ability group, then Arts, Realms, Backgrounds and the
character traits; traits at 0 are left out so a phone screen shows only what matters.
"""

from __future__ import annotations

import html
import logging
from typing import Final

from bot.i18n import N_, Translator
from engine import formats
from engine.systems.storyteller import (
    ATTRIBUTE_GROUPS,
    AbilityGroup,
    Character,
    FreebieReport,
    TraitKind,
    health_name,
    trait_name,
)
from handlers.views.sheets import fit

logger = logging.getLogger(__name__)

LIMIT = 4096

# Changeling: The Dreaming's kiths and seemings, offered as buttons by the wizard; the sheet
# stores the key (or the player's own words for a kith outside the list).
KITHS: Final[dict[str, str]] = {
    "boggan": N_("Boggan"),
    "eshu": N_("Eshu"),
    "nocker": N_("Nocker"),
    "pooka": N_("Pooka"),
    "redcap": N_("Redcap"),
    "satyr": N_("Satyr"),
    "sidhe": N_("Sidhe"),
    "sluagh": N_("Sluagh"),
    "troll": N_("Troll"),
}
SEEMINGS: Final[dict[str, str]] = {
    "childling": N_("Childling"),
    "wilder": N_("Wilder"),
    "grump": N_("Grump"),
}


def choice_name(value: str, catalogue: dict[str, str], t: Translator) -> str:
    """A catalogue key in the reader's language, or the player's own words, escaped."""
    return _esc(t(catalogue[value]) if value in catalogue else value)


def dots_bar(value: int, top: int) -> str:
    """●●●○○ for ratings up to 5; a plain number for the 1–10 character traits."""
    return formats.dots(value, top)


def _esc(text: str) -> str:
    return html.escape(text, quote=False)


def _name(key: str, locale: str) -> str:
    return _esc(trait_name(key).render(locale))


def _line(title: str, items: list[tuple[str, int]], locale: str) -> str | None:
    shown = [f"{_name(key, locale)} {value}" for key, value in items if value]
    if not shown:
        return None
    return f"<b>{_name(title, locale)}</b>: " + ", ".join(shown)


def _header(character: Character, t: Translator) -> list[str]:
    lines = [f"<b>{_esc(character.name) or '—'}</b>"]
    details = [
        _esc(character.concept),
        choice_name(character.kith, KITHS, t),
        choice_name(character.seeming, SEEMINGS, t),
    ]
    details = [x for x in details if x]
    if details:
        lines.append(" · ".join(details))
    return lines


def _traits(character: Character, locale: str) -> str:
    glamour, banality, willpower = character.glamour, character.banality, character.willpower
    banality_shown = formats.rating_with_temporary(banality.rating, banality.pool, locale)
    return (
        f"{_name('glamour', locale)} {formats.pool(glamour.pool, glamour.rating)} · "
        f"{_name('banality', locale)} {banality_shown} · "
        f"{_name('willpower', locale)} {formats.pool(willpower.pool, willpower.rating)}"
    )


def render_sheet(character: Character, t: Translator, locale: str) -> str:
    lines = _header(character, t)
    for group, attrs in ATTRIBUTE_GROUPS.items():
        items = [(a.value, character.attributes.get(a)) for a in attrs]
        lines.append(_line(group.value, items, locale) or "")
    for ability_group in AbilityGroup:
        items = [(a.key, a.dots) for a in character.abilities if a.group is ability_group]
        line = _line(ability_group.value, items, locale)
        if line:
            lines.append(line)
    for kind in TraitKind:
        line = _line(kind.value, [(x.key, x.dots) for x in character.traits_of(kind)], locale)
        if line:
            lines.append(line)
    lines.append(_traits(character, locale))
    health = _esc(health_name(character.health).render(locale))
    lines.append(f"{_name('health', locale)}: {health}")
    if character.experience:
        lines.append(f"{_name('experience', locale)}: {character.experience}")
    if character.notes:
        lines.append(_esc(character.notes[:500]))
    # cut at a line boundary, so no tag is left open (every line closes its own tags)
    return fit("\n".join(line for line in lines if line), LIMIT)


def freebie_account(
    report: FreebieReport, t: Translator, locale: str, only: set[str] | None = None
) -> str:
    """The creation wizard's running account: each category's dots against its creation
    budget and what its excess costs in freebies (``only`` those categories), the total last."""
    lines: list[str] = []
    for cat in report.categories:
        if (not cat.budget and not cat.excess) or (only is not None and cat.category not in only):
            continue
        line = _name(cat.category, locale) + (f": {cat.spent}/{cat.budget}" if cat.budget else ":")
        if cat.excess:
            line += " " + t("+{extra} ⇒ {cost} fp", extra=cat.excess, cost=cat.cost)
        lines.append("• " + line)
    left = report.remaining
    total = t("Freebies: {spent} of {available} spent, {left} left.", spent=report.spent,
              available=report.available, left=left)  # fmt: skip
    shown = fit("\n".join(lines), 3000)  # a sheet has a dozen categories: fits whatever they are
    return f"{shown}\n{total}" if shown else total
