"""One length guard for every text the bot sends (a bot-session middleware).

Telegram refuses a message text over 4,096 characters, a caption over 1,024 and a callback
answer over 200 — the whole reply is lost, and the user sees nothing or the generic apology.
Views that list things clip or page their lists first; whatever still comes out too long is
cut here with ``clip_html`` (never inside a tag or an entity, open tags closed) instead of
being refused. The common case costs one ``len()``: a text no longer than the limit is never
looked at again (markup is never shorter than what it shows).
"""

from __future__ import annotations

import logging
import re
from typing import Any, Final

from aiogram import Bot
from aiogram.client.default import Default
from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.methods import (
    AnswerCallbackQuery,
    EditMessageCaption,
    EditMessageText,
    SendDocument,
    SendMessage,
    TelegramMethod,
)
from aiogram.methods.base import Response, TelegramType

logger = logging.getLogger(__name__)

MAX_TEXT: Final = 4096  # a message's text, counted after entity parsing
MAX_CAPTION: Final = 1024
MAX_ANSWER: Final = 200  # answerCallbackQuery's text (plain, no parse mode)
ELLIPSIS: Final = "…"

# A tag (start or end) or a character entity; everything else is visible text.
_TOKEN = re.compile(r"<(/?)([a-zA-Z][\w-]*)[^>]*>|&(?:#\d+|#[xX][0-9a-fA-F]+|[a-zA-Z]+);")


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


# method type -> (field, limit, whether the field is formatted by parse_mode)
_FIELDS: dict[type[Any], tuple[str, int, bool]] = {
    SendMessage: ("text", MAX_TEXT, True),
    EditMessageText: ("text", MAX_TEXT, True),
    SendDocument: ("caption", MAX_CAPTION, True),
    EditMessageCaption: ("caption", MAX_CAPTION, True),
    AnswerCallbackQuery: ("text", MAX_ANSWER, False),
}


def _is_html(bot: Bot, method: TelegramMethod[Any]) -> bool:
    mode = getattr(method, "parse_mode", None)
    if isinstance(mode, Default):
        mode = bot.default[mode.name]
    return isinstance(mode, str) and mode.lower() == "html"


def fit_call(bot: Bot, method: TelegramMethod[Any]) -> None:
    """Cut the call's text in place when it exceeds Telegram's limit for it."""
    spec = _FIELDS.get(type(method))
    if spec is None:
        return
    field, limit, formatted = spec
    value = getattr(method, field, None)
    if not isinstance(value, str) or len(value) <= limit:
        return
    if formatted and _is_html(bot, method):
        clipped = clip_html(value, limit)
    else:
        clipped = clip_plain(value, limit)
    if clipped is not value:
        logger.warning(
            "%s: %s of %d characters cut to Telegram's limit of %d",
            type(method).__name__, field, len(value), limit,
        )  # fmt: skip
        setattr(method, field, clipped)


class TextLimitMiddleware(BaseRequestMiddleware):
    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        fit_call(bot, method)
        return await make_request(bot, method)
