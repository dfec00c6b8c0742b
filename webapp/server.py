"""The Mini App over HTTP (aiohttp): the static page and a JSON API under one prefix.

Every ``/api/`` request carries Telegram's initData (``Authorization: tma <initData>``); a
missing, forged, altered or expired one gets 401 and no data. Each request opens its own unit
of work on the jobs' pool (``session_factory``), never one of an update's connections.
``Server-Timing`` tells how long the server took (the note's figures come from it).
"""

from __future__ import annotations

import html
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from aiogram import Bot
from aiohttp import web
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.delivery import Delivery
from bot.i18n import N_, I18n, Translator, resolve_locale
from bot.panels import PanelRedraw
from bot.services import grants, resources
from db.repositories.users import TelegramUser
from db.uow import UnitOfWork
from engine.errors import EngineError
from handlers.views import grants as grant_views
from handlers.views.resources import change_line, change_summary, live_panel
from webapp import auth, ops, service
from webapp.render import list_item, sheet_html

logger = logging.getLogger(__name__)

STATIC: Final = Path(__file__).parent / "static"
FILES: Final = {"app.css": "text/css", "app.js": "text/javascript"}
PREFIX: Final = "/app/"
POLL_SECONDS: Final = 3
NOT_YOURS: Final = N_("This character is not available to you.")


@dataclass(frozen=True)
class Deps:
    bot: Bot
    token: str
    session_factory: async_sessionmaker[AsyncSession]
    i18n: I18n
    max_age: int = auth.MAX_AGE


DEPS: Final = web.AppKey("webapp_deps", Deps)
USER: Final = web.RequestKey("webapp_user", auth.WebAppUser)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _timed(response: web.StreamResponse, started: float) -> web.StreamResponse:
    response.headers["Server-Timing"] = f"app;dur={(time.perf_counter() - started) * 1000:.1f}"
    return response


def _error(status: int, message: str, **extra: str) -> web.Response:
    return web.json_response({"error": message, **extra}, status=status)


def _hint_translator(request: web.Request) -> Translator:
    """Before the user is known: the language the page asks for (it read it from initData)."""
    deps = request.app[DEPS]
    code: str = request.headers.get("X-Lang") or request.headers.get("Accept-Language") or ""
    return deps.i18n.translator(
        resolve_locale(
            chat_locale=None, user_locale=None, language_code=code[:2] or None,
            default=deps.i18n.default_locale, is_group=False,
        )
    )  # fmt: skip


@web.middleware
async def authenticate(request: web.Request, handler: Handler) -> web.StreamResponse:
    started = time.perf_counter()
    if not request.path.startswith(f"{PREFIX}api/") and not request.path.startswith("/api/"):
        return _timed(await handler(request), started)
    deps = request.app[DEPS]
    scheme, _, init_data = request.headers.get("Authorization", "").partition(" ")
    try:
        if scheme.lower() != "tma":
            raise auth.AuthError("no initData")
        request[USER] = auth.verify(init_data, deps.token, max_age=deps.max_age)
    except auth.AuthError as error:
        logger.info("webapp: refused initData (%s) from %s", error, request.remote)
        t = _hint_translator(request)
        refusal = _error(
            401, t("Open this page from the bot in Telegram."), title=t("Access denied")
        )
        return _timed(refusal, started)
    return _timed(await handler(request), started)


async def _translator(uow: UnitOfWork, request: web.Request) -> tuple[Translator, str]:
    deps = request.app[DEPS]
    user: auth.WebAppUser = request[USER]
    stored = await uow.users.get(user.id)
    locale = resolve_locale(
        chat_locale=None, user_locale=stored.locale if stored else None,
        language_code=user.language_code, default=deps.i18n.default_locale, is_group=False,
    )  # fmt: skip
    name = stored.name if stored else user.first_name
    return deps.i18n.translator(locale), name


async def _known(uow: UnitOfWork, user: auth.WebAppUser) -> None:
    """A user the bot has not met in a chat yet is remembered by the name Telegram signed,
    so the ledger's line names them, not their id (the chat's middleware does the same)."""
    if await uow.users.get(user.id) is None:
        await uow.users.upsert(
            TelegramUser(user.id, user.first_name, None, None, user.language_code)
        )


def _ui(t: Translator) -> dict[str, str]:
    """The page's own words in the user's language."""
    return {
        "title": t("Characters"),
        "back": t("All characters"),
        "empty": t("No characters yet: create one with «Create character» on /game."),
        "own": t("yours"),
        "failed": t("No connection; trying again."),
        "error": t("Something went wrong; try again in a moment."),
        "npc": t("NPC"),
        "archived": t("archived"),
        "refused_title": t("Access denied"),
    }


# Only the page's own script runs: markup that slipped through escaping could not run any.
# (Inline style attributes are the meters' widths.)
CSP: Final = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'"
)


async def index(request: web.Request) -> web.StreamResponse:
    headers = {
        "Cache-Control": "no-cache",
        "Content-Type": "text/html",
        "Content-Security-Policy": CSP,
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
    }
    return web.FileResponse(STATIC / "index.html", headers=headers)


async def static(request: web.Request) -> web.StreamResponse:
    name = request.match_info["name"]
    if name not in FILES:
        raise web.HTTPNotFound()
    headers = {"Cache-Control": "no-cache", "Content-Type": FILES[name]}
    return web.FileResponse(STATIC / name, headers=headers)


async def characters(request: web.Request) -> web.StreamResponse:
    user: auth.WebAppUser = request[USER]
    async with UnitOfWork(request.app[DEPS].session_factory) as uow:
        t, _ = await _translator(uow, request)
        found = await service.characters_for(uow, user.id)
    items = [list_item(entry, t, user.id) for entry in found]
    return web.json_response(
        {"characters": items, "ui": _ui(t), "locale": t.locale, "poll": POLL_SECONDS}
    )


def _etag(entry: service.Entry, mark: str, locale: str) -> str:
    # The page shows the sheet (its version moves with every ledger entry and undo) and the
    # chat's rolls: unchanged both, the page is unchanged — but for its gain buttons' words,
    # which follow the table's option (``asks``).
    return (
        f'"{entry.character.id}.{entry.character.version}.{mark}.{locale}.{int(entry.gm)}'
        f'{int(entry.asks)}"'
    )


def _character_id(request: web.Request) -> int:
    """The id in the path; anything else is a character that does not exist (``NotFound``:
    the same worded answer as for one that is not the user's)."""
    try:
        return int(request.match_info["character_id"])
    except ValueError as error:
        raise service.NotFound from error


async def sheet(request: web.Request) -> web.StreamResponse:
    user: auth.WebAppUser = request[USER]
    async with UnitOfWork(request.app[DEPS].session_factory) as uow:
        t, _ = await _translator(uow, request)
        try:
            entry = await service.entry_for(uow, user.id, _character_id(request))
        except service.NotFound:
            return _error(404, t(NOT_YOURS))
        etag = _etag(entry, await service.roll_mark(uow, entry), t.locale)
        if request.headers.get("If-None-Match") == etag:
            return web.Response(status=304, headers={"ETag": etag})
        page = await service.page(uow, entry)
    return _sheet_response(page, t, etag)


def _sheet_response(page: service.Page, t: Translator, etag: str, **extra: Any) -> web.Response:
    body = {
        "id": page.entry.character.id,
        "version": page.entry.character.version,
        "html": sheet_html(page, t, t.locale),
        "etag": etag,
        **extra,
    }
    return web.json_response(body, headers={"ETag": etag, "Cache-Control": "no-cache"})


class NotAnAction(Exception):
    """The body is not an action the page's buttons send."""


async def _body(request: web.Request) -> tuple[int, resources.Op]:
    try:
        raw = json.loads(await request.text())
        version = raw["version"]
        if not isinstance(version, int) or isinstance(version, bool):
            raise ValueError("version")
        return version, ops.parse(raw["op"])
    except (ValueError, KeyError, TypeError) as error:
        # only a modified client sends this: the page's own buttons carry valid operations
        raise NotAnAction from error


async def action(request: web.Request) -> web.StreamResponse:
    deps = request.app[DEPS]
    user: auth.WebAppUser = request[USER]
    async with UnitOfWork(deps.session_factory) as uow:
        t, name = await _translator(uow, request)
        try:
            character_id = _character_id(request)
            version, op = await _body(request)
            await _known(uow, user)
            done = await service.act(
                uow, user_id=user.id, character_id=character_id, version=version, op=op,
                actor_name=name, locale=t.locale,
            )  # fmt: skip
        except service.NotFound:
            return _error(404, t(NOT_YOURS))
        except NotAnAction:
            return _error(400, t("This is not a button of the page; nothing was changed."))
        except resources.Refused as refused:
            return _error(409, t(refused.reason))
        except EngineError as error:
            return _error(409, error.render(t.locale))
        entry = await service.entry_for(uow, user.id, character_id)
        if isinstance(done, grants.Asked):
            await _ask_group(uow, deps, entry, done, name)
        elif done.changed:
            await _tell_group(uow, deps, entry, done, name)
        page = await service.page(uow, entry)
        etag = _etag(entry, await service.roll_mark(uow, entry), t.locale)
    # the character's panel open in the chat shows the change too
    await PanelRedraw(deps.i18n, deps.session_factory, live_panel)(deps.bot, uow.ledger.changed)
    if isinstance(done, grants.Asked):  # the sheet is as it was: the GM decides in the chat
        summary = t("Asked the GM: the request is in the game's chat.")
        return _sheet_response(page, t, etag, summary=summary, changed=False, asked=True)
    summary = change_summary(t, t.locale, done)
    return _sheet_response(page, t, etag, summary=summary, changed=done.changed)


async def _group_translator(uow: UnitOfWork, deps: Deps, entry: service.Entry) -> Translator:
    """The game's group chat's language, as its own messages use."""
    chat = await uow.chats.get(entry.game.chat_id)
    return deps.i18n.translator(chat.locale if chat and chat.locale else deps.i18n.default_locale)


async def _tell_group(
    uow: UnitOfWork, deps: Deps, entry: service.Entry, applied: resources.Applied, by: str
) -> None:
    """The notice the group sees for a panel press, for the table to see this one too."""
    t_group = await _group_translator(uow, deps, entry)
    line = change_line(t_group, t_group.locale, applied, by)
    name = html.escape(entry.character.name, quote=False)
    try:
        await Delivery(deps.session_factory, deps.i18n).post(
            deps.bot, entry.game, f"🎛 <b>{name}</b> · {line}"
        )
    except Exception as error:  # the change is committed; a lost notice must not undo it
        logger.warning("webapp: notice to chat %s failed: %s", entry.game.chat_id, error)


async def _ask_group(
    uow: UnitOfWork, deps: Deps, entry: service.Entry, asked: grants.Asked, by: str
) -> None:
    """The panel's request card, with the GM's buttons, posted in the game's group."""
    t_group = await _group_translator(uow, deps, entry)
    try:
        posted = await Delivery(deps.session_factory, deps.i18n).post(
            deps.bot,
            entry.game,
            grant_views.request_text(t_group, asked.character, asked.op, by),
            reply_markup=grant_views.request_keyboard(t_group, asked.grant_id),
        )
        if posted is None:  # the game is held (its topic closed, the bot removed, …)
            logger.warning(
                "webapp: request card %s to chat %s held", asked.grant_id, entry.game.chat_id
            )
    except Exception as error:  # the request is committed and stays open (as on the panel,
        # whose card is sent after the commit too); a lost card must not undo it
        logger.warning(
            "webapp: request card %s to chat %s failed: %s",
            asked.grant_id, entry.game.chat_id, error,
        )  # fmt: skip


def create_webapp(deps: Deps) -> web.Application:
    """The Mini App as a sub-application; mount it at ``PREFIX`` (``mount``)."""
    app = web.Application(middlewares=[authenticate])
    app[DEPS] = deps
    app.router.add_get("/", index)
    app.router.add_get("/static/{name}", static)
    app.router.add_get("/api/characters", characters)
    app.router.add_get("/api/sheet/{character_id}", sheet)
    app.router.add_post("/api/sheet/{character_id}/act", action)
    return app


def mount(root: web.Application, deps: Deps) -> None:
    async def to_prefix(request: web.Request) -> web.StreamResponse:
        raise web.HTTPPermanentRedirect(PREFIX)  # relative URLs of the page need the slash

    root.router.add_get(PREFIX.rstrip("/"), to_prefix)
    root.add_subapp(PREFIX, create_webapp(deps))
