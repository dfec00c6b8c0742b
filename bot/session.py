"""The bot's HTTP session: aiogram's aiohttp session, minus a per-call class build.

aiogram validates every response as ``Response[method.__returning__]``; pydantic keeps such
parametrised classes only weakly, so between calls they are collected and built again — a
pydantic model class per Bot API call (about 4% of the CPU of a ``/r`` burst in the
profile). Holding each one once makes every later lookup a cache hit.
"""

from __future__ import annotations

from typing import Any

from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.methods import Response, TelegramMethod
from aiogram.methods.base import TelegramType


class BotSession(AiohttpSession):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._response_types: dict[Any, type[Any]] = {}

    def check_response(
        self, bot: Bot, method: TelegramMethod[TelegramType], status_code: int, content: str
    ) -> Response[TelegramType]:
        returning = method.__returning__
        if returning not in self._response_types:
            self._response_types[returning] = Response[returning]  # type: ignore[valid-type]
        return super().check_response(bot, method, status_code, content)
