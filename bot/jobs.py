"""Scheduler jobs, referenced by import path with primitive arguments
(``"bot.jobs:fire_schedule"``, args ``(schedule_id,)``).

Each job opens its own unit of work, reloads the schedule by id and is safe to run twice (the
service's unique occurrence key). The singletons a job needs (session factory, bot, i18n,
clock, the views that render the notices) are installed here by the scheduler's leader when
it starts leading; tests pass their own ``context`` with a controlled clock. The views come
from the composition root (``JobViews``): ``bot/`` never imports ``handlers/``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Final, Protocol

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError
from aiogram.types import InlineKeyboardMarkup, ReplyParameters
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.delivery import Delivery
from bot.i18n import I18n, Translator
from bot.panels import PanelRedraw
from bot.services import deferred_milestones as deferred_service
from bot.services import request_deadlines as request_deadlines_service
from bot.services import schedules as service
from db.repositories.games import CharacterDTO, GameDTO
from db.repositories.requests import RequestDTO
from db.repositories.schedules import ScheduleRepo
from db.uow import UnitOfWork
from engine.common import SheetModel

logger = logging.getLogger(__name__)


BATCH_GAMES: Final = 150  # schedules per transaction: a failure loses little, locks are short
NOTICE_SENDERS: Final = 4  # notices in flight at once (the outbound layer paces them)
TICK_WINDOW: Final = 0.05  # seconds: the jobs of one tick gather this long into one run


class JobViews(Protocol):
    """The texts the jobs post (``handlers.views.job_notices`` is the one the bot uses)."""

    def notice(self, t: Translator, locale: str, fired: service.Fired) -> str | None: ...

    def notice_keyboard(
        self, t: Translator, fired: service.Fired
    ) -> InlineKeyboardMarkup | None: ...

    def skipped(self, t: Translator, fired: service.Fired) -> str | None: ...

    def waiting(self, t: Translator, fired: service.Fired) -> str | None: ...

    def resumed(self, t: Translator, fired: service.Fired, notice: str | None) -> str | None: ...

    def reminder(self, t: Translator, reminder: service.Reminder) -> str: ...

    def nudge(
        self, t: Translator, request: RequestDTO, player: str, zone: str, system: str
    ) -> str: ...

    def overdue(self, t: Translator, request: RequestDTO, player: str, system: str) -> str: ...

    def live_panel(
        self, t: Translator, locale: str, character: CharacterDTO, sheet: SheetModel, asks: bool
    ) -> tuple[str, InlineKeyboardMarkup]: ...


class _Tick:
    """The ``fire_schedule`` jobs of one instant, run together by ``fire_schedules``: the
    scheduler starts a thousand jobs due at 21:00 within one pass of its loop."""

    def __init__(self) -> None:
        self.waiting: dict[int, asyncio.Future[None]] = {}
        self.task: asyncio.Task[None] | None = None


@dataclass(frozen=True)
class JobContext:
    session_factory: async_sessionmaker[AsyncSession]
    bot: Bot
    i18n: I18n
    now: Callable[[], datetime] = field(default=service.utcnow)
    views: JobViews = field(kw_only=True)
    _gathering: list[_Tick] = field(default_factory=list, repr=False, compare=False)

    @property
    def delivery(self) -> Delivery:
        return Delivery(self.session_factory, self.i18n)


_installed: JobContext | None = None


def install(context: JobContext) -> None:
    global _installed
    _installed = context


def uninstall(context: JobContext) -> None:
    global _installed
    if _installed is context:
        _installed = None


def _context(context: JobContext | None) -> JobContext:
    found = context or _installed
    if found is None:
        raise RuntimeError("bot.jobs: no job context installed (is the scheduler leading?)")
    return found


async def _translator(uow: UnitOfWork, ctx: JobContext, chat_id: int) -> tuple[Translator, str]:
    chat = await uow.chats.get(chat_id)
    return _translator_for(ctx, chat.locale if chat else None)


def _translator_for(ctx: JobContext, chat_locale: str | None) -> tuple[Translator, str]:
    t = ctx.i18n.of_group(chat_locale)
    return t, t.locale


async def _send(
    ctx: JobContext, game: GameDTO, text: str | None, markup: InlineKeyboardMarkup | None = None
) -> None:
    """Into the game's topic (``bot/delivery.py``: a closed topic or a removed bot holds
    the game instead of failing on every post)."""
    if not text:
        return
    try:
        await ctx.delivery.post(ctx.bot, game, text, reply_markup=markup)
    except TelegramAPIError:  # …: the milestone itself is applied
        logger.exception("schedule post to chat %s failed", game.chat_id)


Notice = tuple[service.Fired, tuple[Translator, str]]


class _Notices:
    """Posts sent after their transaction committed, by a few background senders: a
    thousand notices go out at the outbound layer's pace (30/s in all) while the next
    batches are applied, and leave room for everyone else's replies. Each is rendered by its
    sender, just before it goes; a game's posts stay in order (one sender takes them all)."""

    def __init__(self, ctx: JobContext, senders: int = NOTICE_SENDERS) -> None:
        self._ctx = ctx
        self._queue: asyncio.Queue[Notice | None] = asyncio.Queue()
        self._senders = [asyncio.create_task(self._send()) for _ in range(senders)]

    def put(self, fired: service.Fired, translated: tuple[Translator, str]) -> None:
        self._queue.put_nowait((fired, translated))

    async def _send(self) -> None:
        while (notice := await self._queue.get()) is not None:
            fired, (t, locale) = notice
            game = fired.game
            try:
                views = self._ctx.views
                await _send(self._ctx, game, views.skipped(t, fired))
                await _send(self._ctx, game, views.waiting(t, fired))
                markup = views.notice_keyboard(t, fired)
                text = views.resumed(t, fired, views.notice(t, locale, fired))
                await _send(self._ctx, game, text, markup)
            except Exception:  # one broken notice must not stop the others
                logger.exception("schedule notice to chat %s failed", game.chat_id)

    async def close(self) -> None:
        """Wait until every notice put is sent."""
        for _ in self._senders:
            self._queue.put_nowait(None)
        await asyncio.gather(*self._senders)

    def cancel(self) -> None:
        """Stopping: what is not sent yet is dropped (the milestones are applied)."""
        for task in self._senders:
            task.cancel()


async def fire_schedule(schedule_id: int, *, context: JobContext | None = None) -> None:
    """What is due of the schedule: apply (and post the notice), report skipped ones. The
    jobs due at the same instant are run together (``fire_schedules``); returns when this
    one's notice is sent."""
    ctx = _context(context)
    tick = ctx._gathering[-1] if ctx._gathering else None
    if tick is None:
        tick = _Tick()
        ctx._gathering.append(tick)
        tick.task = asyncio.create_task(_run_tick(ctx, tick))
    waiting = tick.waiting.get(schedule_id)
    if waiting is None:
        waiting = tick.waiting[schedule_id] = asyncio.get_running_loop().create_future()
    await asyncio.shield(waiting)


async def _run_tick(ctx: JobContext, tick: _Tick) -> None:
    try:
        await asyncio.sleep(TICK_WINDOW)
    finally:
        ctx._gathering.remove(tick)
    try:
        await fire_schedules(list(tick.waiting), context=ctx)
    finally:
        for waiting in tick.waiting.values():
            if not waiting.done():
                waiting.set_result(None)


async def fire_schedules(schedule_ids: list[int], *, context: JobContext | None = None) -> None:
    """What is due of each schedule, in transactions of ``BATCH_GAMES`` schedules (a batch
    that fails is rolled back alone and tried again schedule by schedule); each batch's
    notices are sent once it committed, in the background, while the next one is applied."""
    ctx = _context(context)
    ids = sorted(set(schedule_ids))
    notices = _Notices(ctx)
    try:
        for start in range(0, len(ids), BATCH_GAMES):
            batch = ids[start : start + BATCH_GAMES]
            try:
                await _fire_batch(ctx, batch, notices)
            except Exception:
                logger.exception("schedules %s..%s: batch failed, one by one", batch[0], batch[-1])
                for schedule_id in batch:
                    try:
                        await _fire_batch(ctx, [schedule_id], notices)
                    except Exception:  # left for the next run (catch-up) to try again
                        logger.exception("schedule %s failed", schedule_id)
    except BaseException:  # cancelled: stopping
        notices.cancel()
        raise
    await notices.close()


async def _fire_batch(ctx: JobContext, schedule_ids: list[int], notices: _Notices) -> None:
    async with UnitOfWork(ctx.session_factory) as uow:
        tick = await service.run_batch(uow, schedule_ids, now=ctx.now)
    changed = set(uow.ledger.changed)
    for fired in tick.fired:
        notices.put(fired, _translator_for(ctx, fired.chat_locale))
    for schedule_id in tick.one_by_one:  # one transaction each (``service.run``)
        async with UnitOfWork(ctx.session_factory) as uow:
            one = await service.run(uow, schedule_id, now=ctx.now)
        changed |= uow.ledger.changed
        if one is not None:
            notices.put(one, _translator_for(ctx, one.chat_locale))
    await _redraw_panels(ctx, changed)


async def _redraw_panels(ctx: JobContext, changed: set[int]) -> None:
    """The open /res panels of the characters a milestone changed (``bot.panels``)."""
    if changed:
        await PanelRedraw(ctx.i18n, ctx.session_factory, ctx.views.live_panel)(ctx.bot, changed)


async def resume_deferred(*, context: JobContext | None = None) -> None:
    """Scheduled milestones that waited for a fight or scene, applied once it has ended (each
    exactly once, in its own transaction), with their notices."""
    ctx = _context(context)
    async with UnitOfWork(ctx.session_factory) as uow:
        waiting = await deferred_service.ready(uow)
    if not waiting:
        return
    notices = _Notices(ctx, senders=1)
    try:
        for item in waiting:
            try:
                async with UnitOfWork(ctx.session_factory) as uow:
                    fired = await deferred_service.resume_one(uow, item)
            except Exception:  # left deferred: the next run tries again
                logger.exception("deferred occurrence %s failed", item.occurrence_id)
                continue
            await _redraw_panels(ctx, set(uow.ledger.changed))
            if fired is not None:
                notices.put(fired, _translator_for(ctx, fired.chat_locale))
    except BaseException:
        notices.cancel()
        raise
    await notices.close()


async def remind_schedule(schedule_id: int, *, context: JobContext | None = None) -> None:
    """«Milestone in 1 hour», once per occurrence."""
    ctx = _context(context)
    async with UnitOfWork(ctx.session_factory) as uow:
        reminder = await service.remind(uow, schedule_id, now=ctx.now)
        if reminder is None:
            return
        t, _ = await _translator(uow, ctx, reminder.game.chat_id)
    await _send(ctx, reminder.game, ctx.views.reminder(t, reminder))


async def request_deadlines(*, context: JobContext | None = None) -> None:
    """Roll requests: one nudge before the deadline, one word to the GM when it passes."""
    ctx = _context(context)
    async with UnitOfWork(ctx.session_factory) as uow:
        nudges, overdue = await request_deadlines_service.due(uow, ctx.now())
        notes: list[tuple[GameDTO, int | None, str]] = []
        for request, nudge in [(r, True) for r in nudges] + [(r, False) for r in overdue]:
            t, _ = await _translator(uow, ctx, request.chat_id)
            player = await uow.users.get(request.target_user_id)
            name = player.name if player else str(request.target_user_id)
            game = await uow.games.get(request.game_id)
            if game is None:
                continue
            zone = game.timezone
            text = (
                ctx.views.nudge(t, request, name, zone, game.system)
                if nudge
                else ctx.views.overdue(t, request, name, game.system)
            )
            notes.append((game, request.message_id, text))
    for game, message_id, text in notes:
        try:
            await ctx.delivery.post(
                ctx.bot, game, text, reply_parameters=ReplyParameters(message_id=message_id)
            )
        except TelegramAPIError:
            logger.exception("deadline note to chat %s failed", game.chat_id)


async def catch_up(*, context: JobContext | None = None) -> None:
    """At start: every schedule's occurrences missed while down (applied once if within the
    grace, else reported as skipped)."""
    ctx = _context(context)
    async with UnitOfWork(ctx.session_factory) as uow:
        ids = [item.schedule.id for item in await ScheduleRepo(uow.session).active()]
    await fire_schedules(ids, context=ctx)
