"""The Mini App in the bot's process: its URL for the buttons (workflow data ``webapp_url``),
the bot's menu button, and its HTTP server (with the webhook's in webhook mode, on its own
port in polling mode, on loopback in the sandbox)."""

from __future__ import annotations

import logging
from urllib.parse import quote

from aiogram import Bot, Dispatcher
from aiogram.exceptions import TelegramAPIError
from aiogram.types import MenuButtonWebApp, WebAppInfo
from aiohttp import web
from sqlalchemy.ext.asyncio import create_async_engine

from db.database import create_session_factory
from webapp import auth
from webapp.server import PREFIX, Deps, mount

logger = logging.getLogger(__name__)

URL_KEY = "webapp_url"  # workflow data: the page's public URL, or None without a Mini App


def install(dispatcher: Dispatcher, url: str | None) -> None:
    dispatcher[URL_KEY] = url
    if url:
        dispatcher.startup.register(_set_menu_button)


async def _set_menu_button(bot: Bot, dispatcher: Dispatcher) -> None:
    i18n = dispatcher["i18n"]
    t = i18n.translator(i18n.default_locale)
    button = MenuButtonWebApp(text=t("📱 Sheet"), web_app=WebAppInfo(url=dispatcher[URL_KEY]))
    try:
        await bot.set_chat_menu_button(menu_button=button)
    except TelegramAPIError as error:  # the sheet still opens from /sheet
        logger.warning("webapp: the menu button was not set: %s", error)


POOL_SIZE = 4  # connections of the page's own pool (+ as many overflow)


def attach(app: web.Application, dispatcher: Dispatcher, bot: Bot) -> None:
    """Serve the Mini App at ``/app/`` on an existing server (the webhook's). Its requests get
    a small pool of their own: pages polling every few seconds never wait behind the jobs'
    pool, nor it behind them; no pre-ping (three round trips per checkout): a connection the
    server dropped fails one request, which the page repeats at its next poll."""
    jobs_engine = dispatcher["session_factory"].kw["bind"]
    engine = create_async_engine(
        jobs_engine.url, pool_size=POOL_SIZE, max_overflow=POOL_SIZE, pool_recycle=1800
    )

    async def dispose(_: web.Application) -> None:
        await engine.dispose()

    app.on_cleanup.append(dispose)
    mount(app, Deps(bot, bot.token, create_session_factory(engine), dispatcher["i18n"]))


async def serve(dispatcher: Dispatcher, bot: Bot, listen: str) -> tuple[web.AppRunner, str]:
    """The Mini App on a server of its own (``host:port``; port 0: any free one). Returns the
    runner (``cleanup()`` stops it) and its local base URL."""
    app = web.Application()
    attach(app, dispatcher, bot)
    host, _, port = listen.rpartition(":")
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host or "0.0.0.0", int(port))
    await site.start()
    bound = runner.addresses[0][1] if runner.addresses else int(port)
    local = f"http://{host or '127.0.0.1'}:{bound}{PREFIX}"
    logger.info("webapp: serving the Mini App on %s", local)
    return runner, local


def signed_url(
    base: str, token: str, user_id: int, *, first_name: str = "", language_code: str = "ru",
    theme: str = "",
) -> str:  # fmt: skip
    """The page's URL as Telegram opens it: initData (and a theme) in the fragment."""
    init_data = auth.sign(token, user_id, first_name=first_name, language_code=language_code)

    fragment = f"tgWebAppData={quote(init_data, safe='')}&tgWebAppVersion=8.0"
    if theme:
        fragment += f"&tgWebAppThemeParams={quote(theme, safe='')}"
    return f"{base}#{fragment}"
