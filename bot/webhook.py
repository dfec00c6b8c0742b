"""Webhook mode: Telegram POSTs updates to our aiohttp server (several workers can share it).

* A request without the right ``X-Telegram-Bot-Api-Secret-Token`` gets 401 and changes nothing;
  the secret is required (``Settings``: no webhook mode without it).
* A body that is not an update gets 400 (and nothing else happens); text the database cannot
  hold is cleaned first (``bot/edge.py``), as in polling.
* Updates are handled before the response. Passing faults are ridden out inside
  (``bot/runner.py``); if one outlasts the retries the response is 500 and Telegram delivers
  the update again (its claim was rolled back with the rest, and a successful redelivery is
  absorbed by it). An update that keeps failing is parked and answered 200.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from aiogram import Bot, Dispatcher
from aiogram.types import Update
from aiogram.webhook.aiohttp_server import SimpleRequestHandler, setup_application
from aiohttp import web
from pydantic import ValidationError

from bot.edge import clean_update
from bot.runner import TEXT_CLEANED

logger = logging.getLogger(__name__)


@dataclass
class UpdateFailure:
    """Set by the error handler when the update failed; the response then asks for a retry."""

    failed: bool = False


class RedeliveringRequestHandler(SimpleRequestHandler):
    def __init__(self, dispatcher: Dispatcher, bot: Bot, secret_token: str) -> None:
        super().__init__(dispatcher, bot, handle_in_background=False, secret_token=secret_token)

    async def _handle_request(self, bot: Bot, request: web.Request) -> web.Response:
        failure = UpdateFailure()
        try:
            body: Any = json.loads(await request.text())
            cleaned = clean_update(body) if isinstance(body, dict) else False
            update = Update.model_validate(body, context={"bot": bot})
        except (ValueError, ValidationError) as error:
            logger.warning("webhook: a body that is not an update: %s", str(error)[:200])
            return web.Response(status=400, text="not an update")
        extra = {TEXT_CLEANED: True} if cleaned else {}
        await self.dispatcher.feed_webhook_update(
            bot, update, update_failure=failure, **extra, **self.data
        )
        if failure.failed:
            return web.Response(status=500, text="update failed; please deliver it again")
        return web.json_response({})


def webhook_path(url: str) -> str:
    return urlsplit(url).path or "/"


def create_webhook_app(
    dispatcher: Dispatcher, bot: Bot, *, path: str, secret: str, metrics: bool = False
) -> web.Application:
    if not secret:
        raise ValueError("webhook mode needs a secret (WEBHOOK_SECRET)")
    app = web.Application()
    RedeliveringRequestHandler(dispatcher, bot, secret).register(app, path=path)
    if metrics:
        dispatcher["metrics"].routes(app)
    setup_application(app, dispatcher, bot=bot)
    return app
