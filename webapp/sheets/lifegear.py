"""Lives = gear on the page: lives first, then every counted item with its state and the
buttons the panel has (spend, break, ready again), stats and uncounted things."""

from __future__ import annotations

from bot.services.resources import item_key
from engine.systems import lifegear
from engine.systems.lifegear import ItemState
from handlers.views.sheets.lifegear import STATE_LABEL, item_line, stats_line
from webapp.sheets.base import Ctx, act, esc, gain, meter, row, section


def _buttons(index: int, item: lifegear.Item, x: Ctx) -> list[str]:
    t = x.t
    op = {"kind": "gear", "index": index, "key": item_key(item.id)}
    if item.state is not ItemState.READY:
        label = t("Repair") if item.state in (ItemState.BROKEN, ItemState.LOST) else t("Ready")
        # ready again is a gain: a player's press asks the GM, and says so
        return [gain({**op, "state": ItemState.READY.value}, x, esc(label))]
    spent, broken = ItemState.SPENT, ItemState.BROKEN
    # "→ spent": the state a press puts the item in, as on the panel
    label = "→ " + esc(t(STATE_LABEL[spent]))
    shown = [act(label, {**op, "state": spent.value}, x, kind="minus")]
    if item.kind.material:
        label = "→ " + esc(t(STATE_LABEL[broken]))
        shown.append(act(label, {**op, "state": broken.value}, x, kind="minus"))
    return shown


def _item(index: int, item: lifegear.Item, x: Ctx) -> str:
    state = f'<small class="state {item.state.value}">{esc(x.t(STATE_LABEL[item.state]))}</small>'
    line = item_line(item, x.t, with_state=False)
    return (
        f'<div class="item gear {item.state.value}" data-item="{index}">'
        f"{row(line, state, *_buttons(index, item, x))}</div>"
    )


def _stats(c: lifegear.Character, x: Ctx) -> list[str]:
    """A row a stat, its dice beside its name: at 360 px the chat's one line («Сила 1d8+3 ·
    Стрельба 1d6») broke between a stat and its dice."""
    if not c.stats:
        return [row(esc(x.t("Stats")), stats_line(c.stats))]
    return [row(esc(s.name), f"<code>{esc(s.dice)}</code>") for s in c.stats]


def render(c: lifegear.Character, x: Ctx) -> str:
    t = x.t
    lives = row(
        esc(t("Lives")),
        f'<span data-field="lives">{meter(lifegear.lives(c), c.max_lives)}</span>',
    )
    role = [row(esc(t("Role")), esc(c.role))] if c.role else []
    gear = [_item(i, item, x) for i, item in enumerate(c.gear)] or ['<div class="muted">—</div>']
    things = [f"<div>{esc(', '.join(c.uncounted))}</div>"] if c.uncounted else []
    return "".join(
        [
            section(t("Resources"), [lives, *role, *_stats(c, x)]),
            section(t("Gear"), gear),
            section(t("Also carries"), things),
        ]
    )
