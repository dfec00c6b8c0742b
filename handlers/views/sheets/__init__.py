"""Sheet renderers: ``handlers/views/sheets/<system>.py`` defines ``render_sheet``.

``render_sheet(character, t, locale) -> str`` returns compact Telegram HTML of at most 4,096
characters that reads well on a phone. A system without its own module yet is shown by the
generic renderer below (every field, escaped, shortened to fit).
"""

from __future__ import annotations

import html
import importlib
import json
import re
from collections.abc import Callable
from typing import Any

from bot.i18n import Translator
from engine.common import SheetModel

LIMIT = 4096
Renderer = Callable[[Any, Translator, str], str]


def _generic(character: SheetModel, t: Translator, locale: str) -> str:
    data = character.model_dump(mode="json")
    name = html.escape(str(data.pop("name", "?")))
    lines = [f"<b>{name}</b>"]
    for key, value in data.items():
        if value in (None, "", [], {}):
            continue
        shown = (
            value
            if isinstance(value, str | int | float)
            else json.dumps(value, ensure_ascii=False)
        )
        lines.append(f"{html.escape(str(key))}: {html.escape(str(shown))[:300]}")
    return fit("\n".join(lines))


def fit(text: str, limit: int = LIMIT) -> str:
    """Cut at a line boundary so no tag is left open (renderers close tags per line)."""
    if len(text) <= limit:
        return text
    kept: list[str] = []
    size = 0
    for line in text.split("\n"):
        if size + len(line) + 1 > limit - 2:
            break
        kept.append(line)
        size += len(line) + 1
    return "\n".join([*kept, "…"])


def renderer(system: str) -> Renderer:
    try:
        module = importlib.import_module(f"handlers.views.sheets.{system}")
    except ModuleNotFoundError:
        return _generic
    render: Renderer = module.render_sheet
    return render


def render_sheet(
    system: str, character: SheetModel, t: Translator, locale: str, *, limit: int = LIMIT
) -> str:
    """The whole sheet in one message (cut at a line boundary if it cannot fit ``limit``)."""
    return fit(renderer(system)(character, t, locale), limit)


def sheet_pages(
    system: str, character: SheetModel, t: Translator, locale: str, limit: int = LIMIT
) -> list[str]:
    """The sheet as pages of whole sections (blank-line separated), each within ``limit``;
    a long sheet is shown a page at a time with a button per section page."""
    text = renderer(system)(character, t, locale)
    if len(text) <= limit:
        return [text]
    pages: list[str] = []
    current = ""
    for section in text.split("\n\n"):
        candidate = f"{current}\n\n{section}" if current else section
        if len(candidate) <= limit:
            current = candidate
            continue
        if current:
            pages.append(current)
        current = fit(section, limit)
    pages.append(current)
    return pages


_TAG = re.compile(r"<[^>]+>")


def page_title(page: str, width: int = 24) -> str:
    """A button label for a page: its first line without tags."""
    first = html.unescape(_TAG.sub("", page.split("\n", 1)[0])).strip()
    return first[: width - 1] + "…" if len(first) > width else first or "…"
