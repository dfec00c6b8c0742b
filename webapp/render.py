"""The page's HTML fragments: a character's sheet (its system's layout from the registry),
the ledger's recent entries and the character's rolls; all user text escaped."""

from __future__ import annotations

from datetime import datetime, tzinfo
from typing import Any

from bot.i18n import Translator
from bot.systems import SYSTEMS
from db.repositories.ledger import LedgerDTO
from engine import formats
from engine.dice.log import LogEntry
from handlers.views import sheet_changes
from handlers.views.resources import KIND_LABEL
from webapp.service import Entry, Page
from webapp.sheets import LAYOUTS
from webapp.sheets.base import Ctx, esc, section

DIFF_SHOWN = 2


def _ledger_line(entry: LedgerDTO, x: Ctx, zone: tzinfo, page: Page) -> str:
    """What changed in the system's words (which stress box, which item), who made it (and
    who asked for it), when in the game's time zone."""
    label = KIND_LABEL.get(entry.kind)
    what = x.t(label) if label else entry.kind
    what = what[:1].upper() + what[1:]  # the line's head: «Отмечена ячейка стресса»
    system = page.entry.character.system
    changes = [c for c in entry.diff if isinstance(c, dict)]
    told = "; ".join(sheet_changes.describe(x.t, x.locale, system, changes)[:DIFF_SHOWN])
    who = page.people.get(entry.actor_user_id, "")
    asker = page.people.get(entry.asked_by_user_id or 0)
    if asker and asker != who:
        who = x.t("asked by {asker}, granted by {granter}", asker=asker, granter=who)
    undone = f' <small class="muted">{esc(x.t("undone"))}</small>' if entry.undone else ""
    when = formats.moment(entry.created_at, zone, year=False)  # the game's time zone
    details = " · ".join(part for part in (told, who, when) if part)
    return (
        f'<li data-ledger="{entry.id}" data-kind="{esc(entry.kind)}"><b>{esc(what)}</b>{undone}'
        f' <small class="muted">{esc(details)}</small></li>'
    )


def _roll_line(roll: LogEntry, zone: tzinfo) -> str:
    """The roll, its result and outcome, then whose and when (as a change's line says it)."""
    outcome = f" · {esc(roll.outcome)}" if roll.outcome else ""
    when = formats.moment(datetime.fromisoformat(roll.created_at), zone, year=False)
    return (
        f'<li data-roll="{roll.seq}"><code>{esc(roll.expression)}</code> = '
        f"<b>{formats.number(roll.result)}</b>{outcome} "
        f'<small class="muted">#{roll.seq} {esc(roll.subject)} · {when}</small></li>'
    )


def _empty(text: str) -> list[str]:
    return [f'<div class="muted">{esc(text)}</div>']


def sheet_html(page: Page, t: Translator, locale: str) -> str:
    x = Ctx(t, locale, page.entry.asks, frozen=page.entry.archived)
    character, game = page.entry.character, page.entry.game
    system = t(SYSTEMS[character.system].title)
    npc = f' <small class="chip">{esc(t("NPC"))}</small>' if character.is_npc else ""
    if page.entry.archived:  # read only: its buttons are refused (``service.act``)
        npc += f' <small class="chip archived">🗄 {esc(t("archived"))}</small>'
    head = (
        f'<header class="head"><h1 data-character="{character.id}">{esc(character.name)}{npc}'
        f'</h1><div class="muted">{esc(game.title)} · {esc(system)}</div></header>'
    )
    body = LAYOUTS[character.system](page.sheet, x)
    zone = formats.zone(game.timezone)
    ledger = [
        f"<ul class='log'>{''.join(_ledger_line(e, x, zone, page) for e in page.ledger)}</ul>"
    ]
    rolls = [f"<ul class='log'>{''.join(_roll_line(r, zone) for r in page.rolls)}</ul>"]
    # an empty list says what would fill it, not just that it is empty
    no_changes = _empty(
        t("No changes were recorded.")  # an archived sheet changes no more
        if page.entry.archived
        else t("No changes yet: presses here and on /res are listed, newest first.")
    )
    no_rolls = _empty(t("No rolls yet: the character's rolls in the game's chat show here."))
    return "".join(
        [
            head,
            body,
            section(t("Recent changes"), ledger if page.ledger else no_changes, cls="ledger"),
            section(t("Rolls"), rolls if page.rolls else no_rolls, cls="rolls"),
        ]
    )


def list_item(entry: Entry, t: Translator, user_id: int) -> dict[str, Any]:
    c = entry.character
    return {
        "id": c.id,
        "name": c.name,
        "game": entry.game.title,
        "system": t(SYSTEMS[c.system].title),
        "own": c.owner_user_id == user_id and not c.is_npc,
        "npc": c.is_npc,
        "archived": entry.archived,
    }
