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
from typing import Any

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

from handlers.views.safe import MAX_ANSWER, MAX_CAPTION, MAX_TEXT, clip_html, clip_plain

logger = logging.getLogger(__name__)

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
