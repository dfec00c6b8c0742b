"""Where outside text meets Telegram HTML, and how long any text may be.

* ``plain`` escapes text that is not ours (names, notation, titles): ``<`` and ``&`` become
  entities, nothing else changes (quotes are left: no attribute is built from user text).
  Views written before it call ``html.escape(..., quote=False)`` directly, to the same effect;
  ``tests/safehtml/test_views_property.py`` checks every view either way.
* ``error_text`` is how an ``EngineError`` reaches an HTML message: its wording quotes what
  the user typed (``found «<b>»``), so it is escaped here, once, for every handler.
* ``clip_html`` (``bot.text_limits``, re-exported here) cuts HTML to a number of visible
  characters without cutting inside a tag or an entity, and closes what it left open.
  ``bot.text_limits.TextLimitMiddleware`` applies it to every text the bot sends; views that
  list things clip their lists first (``clip_list``), so the guard is a safety net, not the
  layout.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape

from bot.text_limits import (  # noqa: F401  (re-exported: views import them from here)
    ELLIPSIS,
    MAX_ANSWER,
    MAX_CAPTION,
    MAX_TEXT,
    clip_html,
    clip_plain,
    visible_length,
)
from engine.errors import EngineError


def plain(text: object) -> str:
    """``text`` as HTML showing exactly those characters."""
    return escape(str(text), quote=False)


def error_text(error: EngineError, locale: str) -> str:
    """An engine error for an HTML message (its wording may quote the user's text)."""
    return plain(error.render(locale))


def clip_list(
    items: Sequence[str], *, room: int, more: Callable[[int], str], separator: str = ", "
) -> str:
    """Join ``items`` (already HTML) while they fit ``room`` characters; the rest is counted
    by ``more(n)`` (e.g. «… и ещё 12»). Long lists stay readable and the message fits."""
    kept: list[str] = []
    size = 0
    for index, item in enumerate(items):
        extra = len(item) + (len(separator) if kept else 0)
        if size + extra > room:
            rest = more(len(items) - index)
            return separator.join(kept) + (separator if kept else "") + rest
        kept.append(item)
        size += extra
    return separator.join(kept)
