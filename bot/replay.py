"""What an update already sent is not sent again when its handling is tried once more.

An update whose unit of work failed on a passing fault (``bot/faults.py``) is handled again
from the start (``bot/runner.py``). Its effects were rolled back, but what it sent to Telegram
was not: a roll reply sent just before the database blinked would be sent twice. The roll
itself comes out the same (its roll id, hence its dice, follow from the message), so the
second attempt makes the same calls; each call made with the same method, target and content
as one that succeeded in an earlier attempt gets that call's response instead of going out
again. Calls are matched in order: the n-th identical call of this attempt takes the n-th of
the earlier ones.
"""

from __future__ import annotations

import contextvars
import json
from collections import defaultdict
from typing import Any

from aiogram import Bot
from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.methods import GetUpdates, TelegramMethod
from aiogram.methods.base import Response, TelegramType

_KEY_FIELDS = (
    "chat_id", "message_id", "inline_message_id", "callback_query_id", "text", "caption",
    "reply_markup", "media", "document", "message_thread_id",
)  # fmt: skip


def _key(method: TelegramMethod[Any]) -> str:
    parts: list[Any] = [method.__api_method__]
    for name in _KEY_FIELDS:
        value = getattr(method, name, None)
        if value is None:
            continue
        if hasattr(value, "model_dump"):
            value = value.model_dump(mode="json", exclude_none=True)
        elif not isinstance(value, str | int | float | bool):
            value = repr(value)
        parts.append((name, value))
    return json.dumps(parts, ensure_ascii=False, sort_keys=True, default=repr)


class SendJournal:
    """The calls one update made, attempt by attempt. The first attempt only keeps each call
    and its response (no key is worked out unless the update is tried again)."""

    def __init__(self) -> None:
        self._earlier: dict[str, list[Response[Any]]] = defaultdict(list)
        self._now: list[tuple[TelegramMethod[Any], Response[Any]]] = []
        self.replayed = 0  # calls answered from an earlier attempt

    def next_attempt(self) -> None:
        """What this attempt sent is what the next one must not send again (together with
        what earlier attempts sent and this one did not repeat)."""
        earlier: dict[str, list[Response[Any]]] = defaultdict(list)
        for method, response in self._now:
            earlier[_key(method)].append(response)
        for key, responses in self._earlier.items():
            earlier[key].extend(responses)
        self._earlier, self._now = earlier, []

    def take(self, method: TelegramMethod[Any]) -> Response[Any] | None:
        if not self._earlier:
            return None
        earlier = self._earlier.get(_key(method))
        if not earlier:
            return None
        self.replayed += 1
        response = earlier.pop(0)
        self._now.append((method, response))
        return response

    def record(self, method: TelegramMethod[Any], response: Response[Any]) -> None:
        self._now.append((method, response))


current: contextvars.ContextVar[SendJournal | None] = contextvars.ContextVar(
    "send_journal", default=None
)


class ReplayGuard(BaseRequestMiddleware):
    """Outermost request middleware: a call an earlier attempt of this update made is not
    made again (nor paced)."""

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        journal = current.get()
        if journal is None or isinstance(method, GetUpdates):
            return await make_request(bot, method)
        earlier = journal.take(method)
        if earlier is not None:
            return earlier
        response = await make_request(bot, method)
        journal.record(method, response)
        return response
