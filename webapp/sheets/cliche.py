"""Clichés on the page: each cliché's dice (lost ones shown) with lose/restore buttons."""

from __future__ import annotations

from bot.services.resources import item_key
from engine import formats
from engine.systems import cliche
from handlers.views.sheets.cliche import attributes_line, tool_line
from webapp.sheets.base import Ctx, act, esc, full, gain, row, section


def _dice(item: cliche.Cliche) -> str:
    faces = '<i class="die on"></i>' * item.current + '<i class="die"></i>' * item.lost
    count = formats.pool(item.current, item.dice)
    return f'<span class="dice" data-value="{item.current}">{faces}</span> {count}'


def _none_left(item: cliche.Cliche, x: Ctx) -> str:
    """Why «−1» does nothing: every die is lost (the panel's own words)."""
    return x.t("No dice left to lose.") if item.current <= 0 else ""


def _cliche(index: int, item: cliche.Cliche, x: Ctx) -> str:
    key = item_key(item.name)
    op = {"kind": "cliche", "index": index, "key": key}
    name = ("🛡 " if item.armor else "") + esc(item.name)
    line = row(
        name,
        _dice(item),
        act("−1", {**op, "delta": -1}, x, kind="minus", off=_none_left(item, x)),
        gain({**op, "delta": 1}, x, off=full(x, item.current, item.dice)),
    )
    details = [esc(item.description)] if item.description else []
    details += [tool_line(x.t, tool) for tool in item.tools]
    extra = "".join(f'<div class="muted">{d}</div>' for d in details)
    return f'<div class="item" data-cliche="{index}">{line}{extra}</div>'


def render(c: cliche.Character, x: Ctx) -> str:
    t = x.t
    hooks = [f"<div>• {esc(h)}</div>" for h in c.hooks]
    return "".join(
        [
            section(t("Attributes"), [f"<div>{attributes_line(t, c)}</div>"]),
            section(
                t("Clichés"),
                [_cliche(i, item, x) for i, item in enumerate(c.cliches)]
                or ['<div class="muted">—</div>'],
            ),
            section(t("Hooks"), hooks),
            section(t("Backstory"), [f"<div>{esc(c.backstory)}</div>"] if c.backstory else []),
        ]
    )
