"""Pieces every system's page is built of: escaped text, sections, tracks of boxes or dots,
and action buttons that carry their operation as JSON (``webapp/ops.py`` reads it back)."""

from __future__ import annotations

import html
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.i18n import Translator


@dataclass(frozen=True)
class Ctx:
    t: Translator
    locale: str
    asks: bool = False  # a gain asks the GM (a player at a gated table: ``Entry.asks``)
    frozen: bool = False  # archived: read only, so no button (each press would be refused)


def esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def act(
    label: str, op: dict[str, Any], x: Ctx, *, kind: str = "", title: str = "", off: str = ""
) -> str:
    """A button the page posts as ``op``; the server checks everything again. None on a
    frozen (archived) sheet: a button that could only be refused is not offered. ``off``:
    why it does nothing now (a pool at its top or empty): drawn disabled, saying why (the
    hint if it has none of its own, and ``data-off``)."""
    if x.frozen:
        return ""
    data = esc(json.dumps(op, separators=(",", ":")))
    cls = f"act {kind}".strip()
    title = title or off
    hint = f' title="{esc(title)}" aria-label="{esc(title)}"' if title else ""
    disabled = f' data-off="{esc(off)}" disabled' if off else ""
    return f'<button type="button" class="{cls}" data-op="{data}"{hint}{disabled}>{label}</button>'


def gain(
    op: dict[str, Any], x: Ctx, label: str = "+1", *, kind: str = "plus", off: str = ""
) -> str:
    """A press that gains («+1», an item ready, a state off): where the panel's says it asks
    the GM, so does this one («🙋 +1»); the press opens a request in the game's chat (the
    server decides again)."""
    if not x.asks:
        return act(label, op, x, kind=kind, off=off)
    return act(f"🙋 {label}", op, x, kind=f"{kind} ask", title=x.t("Ask the GM"), off=off)


def full(x: Ctx, value: int, top: int) -> str:
    """Why a «+1» does nothing: the value is at its top."""
    return x.t("Already at the maximum.") if value >= top else ""


def section(title: str, body: Iterable[str], *, cls: str = "") -> str:
    inner = "".join(body)
    if not inner:
        return ""
    return f'<section class="{f"card {cls}".strip()}"><h2>{esc(title)}</h2>{inner}</section>'


def row(label: str, value: str, *actions: str) -> str:
    """One line: a label, its value (HTML) and the buttons that change it."""
    buttons = f'<span class="acts">{"".join(actions)}</span>' if any(actions) else ""
    return (
        f'<div class="row"><span class="label">{label}</span>'
        f'<span class="value">{value}</span>{buttons}</div>'
    )


def dots(value: int, top: int) -> str:
    """●●●○○: filled to ``value`` of ``top`` (a plain number past ten)."""
    if top > 10 or value < 0 or value > top:
        return f'<span class="num">{value}</span>'
    filled = '<i class="dot on"></i>' * value + '<i class="dot"></i>' * (top - value)
    return f'<span class="dots" data-value="{value}">{filled}</span>'


def meter(value: int, top: int) -> str:
    """``value/top`` with a bar under it (Health, lives, pools)."""
    share = 0 if top <= 0 else max(0, min(100, round(100 * value / top)))
    return (
        f'<span class="meter"><span><b class="num" data-value="{value}">{value}</b>/{top}</span>'
        f'<span class="bar"><span style="width:{share}%"></span></span></span>'
    )


def chips(items: Iterable[str]) -> str:
    return "".join(f'<span class="chip">{item}</span>' for item in items)
