"""Webhook mode: Telegram POSTs updates to our aiohttp server (several workers can share it).

* A request without the right ``X-Telegram-Bot-Api-Secret-Token`` gets 401 and changes nothing.
* Updates are handled before the response, so a handler error answers 500 and Telegram
  delivers the update again; the processed-update claim was rolled back with the rest, and a
  successful redelivery is absorbed by it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from aiogram import Bot, Dispatcher
from aiogram.webhook.aiohttp_server import SimpleRequestHandler, setup_application
from aiohttp import web

logger = logging.getLogger(__name__)


@dataclass
class UpdateFailure:
    """Set by the error handler when the update failed; the response then asks for a retry."""

    failed: bool = False


class RedeliveringRequestHandler(SimpleRequestHandler):
    def __init__(self, dispatcher: Dispatcher, bot: Bot, secret_token: str | None) -> None:
        super().__init__(dispatcher, bot, handle_in_background=False, secret_token=secret_token)

    async def _handle_request(self, bot: Bot, request: web.Request) -> web.Response:
        failure = UpdateFailure()
        update: Any = await request.json(loads=bot.session.json_loads)
        await self.dispatcher.feed_webhook_update(bot, update, update_failure=failure, **self.data)
        if failure.failed:
            return web.Response(status=500, text="update failed; please deliver it again")
        return web.json_response({})


def webhook_path(url: str) -> str:
    return urlsplit(url).path or "/"


def create_webhook_app(
    dispatcher: Dispatcher, bot: Bot, *, path: str, secret: str | None
) -> web.Application:
    app = web.Application()
    RedeliveringRequestHandler(dispatcher, bot, secret).register(app, path=path)
    setup_application(app, dispatcher, bot=bot)
    return app
