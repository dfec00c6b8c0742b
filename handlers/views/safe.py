"""Where outside text meets Telegram HTML, and how long any text may be.

* ``plain`` escapes text that is not ours (names, notation, titles): ``<`` and ``&`` become
  entities, nothing else changes (quotes are left: no attribute is built from user text).
  Views written before it call ``html.escape(..., quote=False)`` directly, to the same effect;
  ``tests/safehtml/test_views_property.py`` checks every view either way.
* ``error_text`` is how an ``EngineError`` reaches an HTML message: its wording quotes what
  the user typed (``found «<b>»``), so it is escaped here, once, for every handler.
* ``clip_html`` cuts HTML to a number of visible characters without cutting inside a tag or an
  entity, and closes what it left open. ``bot.text_limits.TextLimitMiddleware`` applies it to
  every text the bot sends; views that list things clip their lists first (``clip_list``), so
  the guard is a safety net, not the layout.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from html import escape
from typing import Final

from engine.errors import EngineError

MAX_TEXT: Final = 4096  # a message's text, counted after entity parsing
MAX_CAPTION: Final = 1024
MAX_ANSWER: Final = 200  # answerCallbackQuery's text (plain, no parse mode)
ELLIPSIS: Final = "…"

# A tag (start or end) or a character entity; everything else is visible text.
_TOKEN = re.compile(r"<(/?)([a-zA-Z][\w-]*)[^>]*>|&(?:#\d+|#[xX][0-9a-fA-F]+|[a-zA-Z]+);")


def plain(text: object) -> str:
    """``text`` as HTML showing exactly those characters."""
    return escape(str(text), quote=False)


def error_text(error: EngineError, locale: str) -> str:
    """An engine error for an HTML message (its wording may quote the user's text)."""
    return plain(error.render(locale))


def visible_length(html: str) -> int:
    """How many characters Telegram counts in ``html`` (well-formed, as our views make it)."""
    length = 0
    pos = 0
    for match in _TOKEN.finditer(html):
        length += match.start() - pos
        if match.group(0).startswith("&"):
            length += 1
        pos = match.end()
    return length + len(html) - pos


def clip_html(html: str, limit: int = MAX_TEXT) -> str:
    """``html`` if it shows at most ``limit`` characters, else its beginning (cut at a line
    end when one is near) with ``…`` and its open tags closed. The length check comes first:
    markup is never shorter than what it shows, so a short text is returned untouched."""
    if len(html) <= limit or visible_length(html) <= limit:
        return html
    budget = limit - len(ELLIPSIS)
    out: list[str] = []
    open_tags: list[str] = []
    used = 0
    pos = 0
    for match in [*_TOKEN.finditer(html), None]:
        end = match.start() if match is not None else len(html)
        text = html[pos:end]
        if used + len(text) > budget:
            out.append(_cut(text, budget - used))
            break
        out.append(text)
        used += len(text)
        if match is None:
            break
        token = match.group(0)
        if token.startswith("&"):
            if used + 1 > budget:
                break
            used += 1
        elif match.group(1):  # an end tag closes the innermost open one
            if open_tags:
                open_tags.pop()
        else:
            open_tags.append(match.group(2).lower())
        out.append(token)
        pos = match.end()
    closing = "".join(f"</{name}>" for name in reversed(open_tags))
    return "".join(out).rstrip() + ELLIPSIS + closing


def _cut(text: str, room: int) -> str:
    """The first ``room`` characters of ``text``, ending at a line end if one is in the last
    fifth (so a clipped list ends with a whole line)."""
    head = text[: max(room, 0)]
    newline = head.rfind("\n")
    return head[:newline] if newline >= len(head) * 4 // 5 else head


def clip_plain(text: str, limit: int) -> str:
    """Plain text (a callback answer) cut to ``limit`` characters with ``…``."""
    return text if len(text) <= limit else text[: limit - len(ELLIPSIS)].rstrip() + ELLIPSIS


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
