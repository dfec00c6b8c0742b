"""The ``lifegear`` sheet: lives first (they are the gear), then stats and every counted item.

Also the small line renderers the two lifegear wizards share (a role summary, a gear line), so
the player sees the gear in the wizard exactly as the GM will see it on the approval card.
"""

from __future__ import annotations

import html
import logging
from typing import Final

from bot.i18n import N_, Translator
from engine import formats
from engine.systems.lifegear import (
    Character,
    Item,
    ItemKind,
    ItemState,
    LifeStatus,
    Role,
    Stat,
    life_status,
    lives,
)

logger = logging.getLogger(__name__)

KIND_ICON: Final[dict[ItemKind, str]] = {
    ItemKind.WEAPON: "🗡",
    ItemKind.ARMOR: "🛡",
    ItemKind.ABILITY: "✨",
    ItemKind.HELP: "🤝",
    ItemKind.ITEM: "🎒",
}
KIND_LABEL: Final[dict[ItemKind, str]] = {
    ItemKind.WEAPON: N_("weapon"),
    ItemKind.ARMOR: N_("armor"),
    ItemKind.ABILITY: N_("ability"),
    ItemKind.HELP: N_("help"),
    ItemKind.ITEM: N_("item"),
}
STATE_LABEL: Final[dict[ItemState, str]] = {
    ItemState.READY: N_("ready"),
    ItemState.SPENT: N_("spent"),
    ItemState.BROKEN: N_("broken"),
    ItemState.LOST: N_("lost"),
}
DESCRIPTION_SHOWN: Final = 120  # a long item description is cut in the compact sheet
LIMIT: Final = 4096  # one Telegram message


def esc(value: object) -> str:
    return html.escape(str(value), quote=False)


def stats_line(stats: tuple[Stat, ...]) -> str:
    return " · ".join(f"{esc(s.name)} <code>{esc(s.dice)}</code>" for s in stats) or "—"


def item_line(
    item: Item, t: Translator, *, with_state: bool = True, with_description: bool = True
) -> str:
    """``🗡 <b>Bow</b> (weapon, 1d6) — description`` plus the state when it is not ready."""
    details = [t(KIND_LABEL[item.kind])]
    if item.stats:  # a weapon used with these stats only: «Ловкость / Стрельба»
        stats = " / ".join(item.stats)
        details.append(esc(stats if len(stats) <= 60 else stats[:59] + "…"))
    if item.dice:
        details.append(f"<code>{esc(item.dice)}</code>")
    line = f"{KIND_ICON[item.kind]} <b>{esc(item.name)}</b> ({', '.join(details)})"
    if item.description and with_description:
        text = item.description
        if len(text) > DESCRIPTION_SHOWN:
            text = text[: DESCRIPTION_SHOWN - 1] + "…"
        line += f" — {esc(text)}"
    if with_state and item.state is not ItemState.READY:
        line += f" <i>[{t(STATE_LABEL[item.state])}]</i>"
    return line


def role_summary(role: Role, t: Translator) -> str:
    """One role in a list: name, max lives, stats and how many gear items it starts with."""
    head = t(
        "<b>{name}</b> — ❤️ {lives}, gear: {gear}",
        name=esc(role.name),
        lives=role.max_lives,
        gear=len(role.gear),
    )
    return f"{head}\n   🎲 {stats_line(role.stats)}"


def role_details(role: Role, t: Translator) -> str:
    """A role in full, for the GM's role preview."""
    lines = [
        t("🎭 Role: <b>{name}</b>", name=esc(role.name)),
        t("❤️ Max lives: {lives}", lives=role.max_lives),
        t("🎲 Stats: {stats}", stats=stats_line(role.stats)),
        t("Starting gear ({count}):", count=len(role.gear)),
    ]
    lines += [f"  {item_line(item, t, with_state=False)}" for item in role.gear] or ["  —"]
    return "\n".join(lines)


def _lives_line(character: Character, t: Translator) -> str:
    status = life_status(character)
    line = t("❤️ Lives: {lives}", lives=formats.pool(lives(character), character.max_lives))
    if status is LifeStatus.DEAD:
        line += " ☠️ " + t("dead")
    elif status is LifeStatus.DYING:
        line += " ⚠️ " + t("dying")
    if character.unabsorbed_damage:
        line += " " + t("(unabsorbed damage: {n})", n=character.unabsorbed_damage)
    return line


def render_sheet(character: Character, t: Translator, locale: str) -> str:
    """Compact HTML: name and role, lives, stats, counted gear, uncounted things.

    A big inventory drops the item descriptions rather than losing items off the end.
    """
    del locale  # texts come through ``t``; the engine's own messages are not shown here
    text = _sheet(character, t, with_description=True)
    return text if len(text) <= LIMIT else _sheet(character, t, with_description=False)


def _monster(character: Character, t: Translator) -> str | None:
    """A monster NPC's sheet: its defence and specials (it has no lives or gear)."""
    monster = character.monster
    if monster is None:
        return None
    lines = [f"<b>{esc(character.name or '?')}</b>", t("🛡 Defence {n}", n=monster.defence)]
    lines += [f"• {esc(s.name)}" + (f": {s.damage}" if s.damage else "") for s in monster.specials]
    return "\n".join(lines)


def _sheet(character: Character, t: Translator, *, with_description: bool) -> str:
    monster = _monster(character, t)
    if monster is not None:
        return monster
    name = esc(character.name or "?")
    role = f" — {esc(character.role)}" if character.role else ""
    lines = [f"<b>{name}</b>{role}", _lives_line(character, t)]
    lines.append(t("🎲 Stats: {stats}", stats=stats_line(character.stats)))
    lines.append(t("Gear ({count}):", count=len(character.gear)))
    gear = [f"  {item_line(i, t, with_description=with_description)}" for i in character.gear]
    lines += gear or ["  —"]
    if character.uncounted:
        things = ", ".join(esc(x) for x in character.uncounted)
        lines.append(t("Also carries: {things}", things=things))
    return "\n".join(lines)
