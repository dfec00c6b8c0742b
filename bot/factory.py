"""Factories called by the composition root (``tabletop.app``); nothing here runs at import
time. The routers and the roll hint come from there too: ``bot/`` never imports ``handlers/``."""

from __future__ import annotations

from collections.abc import Sequence

from aiogram import Bot, Dispatcher, Router
from aiogram.client.default import DefaultBotProperties
from aiogram.client.telegram import TelegramAPIServer
from aiogram.enums import ParseMode
from aiogram.fsm.middleware import FSMContextMiddleware
from aiogram.fsm.storage.memory import DisabledEventIsolation
from aiogram.types import LinkPreviewOptions
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.answers import PressAnswerMiddleware, PressFirstIsolation
from bot.cpu import CpuPool
from bot.express import ExpressCache
from bot.fsm_storage import PostgresStorage
from bot.i18n import I18n
from bot.metrics import Metrics
from bot.middlewares import (
    ContextMiddleware,
    InFlightMiddleware,
    IsolationMiddleware,
    RollHint,
    UnitOfWorkMiddleware,
)
from bot.outbound import Limits, OutboundLimiter, ResilienceMiddleware
from bot.panels import PanelRedraw, PanelView
from bot.polling import INBOX_ENGINE, METRICS, InboxDispatcher
from bot.replay import ReplayGuard
from bot.runner import UpdateRunner
from bot.session import BotSession
from bot.text_limits import TextLimitMiddleware


def create_bot(
    token: str, *, api_url: str | None, limits: Limits | None = None,
    metrics: Metrics | None = None,
) -> Bot:  # fmt: skip
    session = BotSession(api=TelegramAPIServer.from_base(api_url)) if api_url else BotSession()
    bot = Bot(
        token=token,
        session=session,
        # A reply whose original was deleted meanwhile is still sent (as a plain message):
        # the roll it reports is already in the log. No link previews, set as the current
        # ``link_preview_options`` only: aiogram's ``link_preview_is_disabled`` default also
        # fills the deprecated ``disable_web_page_preview`` of every sendMessage and
        # editMessageText, a parameter the Bot API no longer has.
        default=DefaultBotProperties(
            parse_mode=ParseMode.HTML,
            link_preview=LinkPreviewOptions(is_disabled=True),
            allow_sending_without_reply=True,
        ),
    )
    # Outermost: a call an earlier attempt of the same update made is not made again
    # (bot/replay.py), nor paced; then every text cut to Telegram's limits (bot/text_limits.py).
    bot.session.middleware(ReplayGuard())
    bot.session.middleware(TextLimitMiddleware())
    bot.session.middleware(ResilienceMiddleware(OutboundLimiter(limits or Limits()), metrics))
    return bot


def create_dispatcher(
    *,
    fsm_engine: AsyncEngine,
    session_factory: async_sessionmaker[AsyncSession],
    i18n: I18n,
    routers: Sequence[Router],
    roll_hint: RollHint | None = None,
    metrics: Metrics | None = None,
    panel_view: PanelView | None = None,
) -> Dispatcher:
    """``routers`` in their order (``handlers.routers()``); ``roll_hint`` tells from an update
    alone that it will roll (``handlers.dice.roll_hint``: its unit then claims nothing up
    front); ``panel_view`` draws a live /res panel redrawn after a change made elsewhere
    (``handlers.views.resources.live_panel``)."""
    # One update at a time per chat and user (wizard steps must not overtake each other);
    # different users and chats still run concurrently. A press queued behind an update that
    # waits for pacing is answered meanwhile (bot/answers.py).
    storage = PostgresStorage(fsm_engine)
    dp = InboxDispatcher(
        storage=storage,
        events_isolation=PressFirstIsolation(),
        disable_fsm=True,  # registered below: the lock before the claim, the state after it
    )
    in_flight = InFlightMiddleware()
    dp.update.outer_middleware(in_flight)
    # A press's one answer, before the isolation lock it may have to queue for.
    dp.update.outer_middleware(PressAnswerMiddleware())
    dp.update.outer_middleware(IsolationMiddleware(dp.fsm))
    # Inside the chat's lock (a retry keeps the chat's order), around the unit of work.
    metrics = metrics or Metrics()
    dp.update.outer_middleware(UpdateRunner(fsm_engine, i18n, metrics))
    panels = PanelRedraw(i18n, session_factory, panel_view) if panel_view else None
    dp.update.outer_middleware(
        UnitOfWorkMiddleware(
            session_factory, storage, roll_hint=roll_hint, express=ExpressCache(), panels=panels
        )
    )
    dp.update.outer_middleware(
        FSMContextMiddleware(storage, DisabledEventIsolation(), dp.fsm.strategy)
    )
    dp.update.outer_middleware(ContextMiddleware(i18n))
    dp["i18n"] = i18n
    # Present from the start (the FSM middleware sets it only once reached): aiogram-dialog's
    # error middleware reads it for an update that failed before, e.g. in its claim.
    dp["fsm_storage"] = storage
    dp[INBOX_ENGINE] = fsm_engine  # autocommit, small: one INSERT per polled batch
    dp[METRICS] = metrics
    dp["in_flight"] = in_flight
    dp["cpu"] = CpuPool()  # no process until the first heavy job; closed by ``build_runtime``
    dp.include_routers(*routers)  # aiogram-dialog is mounted inside them
    return dp
