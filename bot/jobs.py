"""Scheduler jobs, referenced by import path with primitive arguments
(``"bot.jobs:fire_schedule"``, args ``(schedule_id,)``).

Each job opens its own unit of work, reloads the schedule by id and is safe to run twice (the
service's unique occurrence key). The singletons a job needs (session factory, bot, i18n,
clock) are installed here by the scheduler's leader when it starts leading; tests pass their
own ``context`` with a controlled clock.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError
from aiogram.types import InlineKeyboardMarkup
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.i18n import I18n, Translator, resolve_locale
from bot.services import request_deadlines as request_deadlines_service
from bot.services import schedules as service
from db.repositories.schedules import ScheduleRepo
from db.uow import UnitOfWork
from handlers.views import requests as request_views
from handlers.views import schedules as views

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class JobContext:
    session_factory: async_sessionmaker[AsyncSession]
    bot: Bot
    i18n: I18n
    now: Callable[[], datetime] = field(default=service.utcnow)


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
    locale = resolve_locale(
        chat_locale=chat.locale if chat else None, user_locale=None, language_code=None,
        default=ctx.i18n.default_locale, is_group=True,
    )  # fmt: skip
    return ctx.i18n.translator(locale), locale


async def _send(
    ctx: JobContext, chat_id: int, text: str | None, markup: InlineKeyboardMarkup | None = None
) -> None:
    if not text:
        return
    try:
        await ctx.bot.send_message(chat_id, text, reply_markup=markup)
    except TelegramAPIError:  # the bot left the chat, …: the milestone itself is applied
        logger.exception("schedule post to chat %s failed", chat_id)


async def fire_schedule(schedule_id: int, *, context: JobContext | None = None) -> None:
    """What is due of the schedule: apply (and post the notice), report skipped ones."""
    ctx = _context(context)
    async with UnitOfWork(ctx.session_factory) as uow:
        fired = await service.run(uow, schedule_id, now=ctx.now)
        if fired is None:
            return
        t, locale = await _translator(uow, ctx, fired.game.chat_id)
    chat_id = fired.game.chat_id
    await _send(ctx, chat_id, views.skipped(t, fired))
    await _send(ctx, chat_id, views.notice(t, locale, fired), views.notice_keyboard(t, fired))


async def remind_schedule(schedule_id: int, *, context: JobContext | None = None) -> None:
    """«Milestone in 1 hour», once per occurrence."""
    ctx = _context(context)
    async with UnitOfWork(ctx.session_factory) as uow:
        reminder = await service.remind(uow, schedule_id, now=ctx.now)
        if reminder is None:
            return
        t, _ = await _translator(uow, ctx, reminder.game.chat_id)
    await _send(ctx, reminder.game.chat_id, views.reminder(t, reminder))


async def request_deadlines(*, context: JobContext | None = None) -> None:
    """Roll requests: one nudge before the deadline, one word to the GM when it passes."""
    ctx = _context(context)
    async with UnitOfWork(ctx.session_factory) as uow:
        nudges, overdue = await request_deadlines_service.due(uow, ctx.now())
        notes: list[tuple[int, int | None, str]] = []
        for request, nudge in [(r, True) for r in nudges] + [(r, False) for r in overdue]:
            t, _ = await _translator(uow, ctx, request.chat_id)
            player = await uow.users.get(request.target_user_id)
            name = player.name if player else str(request.target_user_id)
            game = await uow.games.get(request.game_id)
            zone = game.timezone if game else "UTC"
            text = (
                request_views.nudge(t, request, name, zone)
                if nudge
                else request_views.overdue(t, request, name)
            )
            notes.append((request.chat_id, request.message_id, text))
    for chat_id, message_id, text in notes:
        try:
            await ctx.bot.send_message(chat_id, text, reply_to_message_id=message_id)
        except TelegramAPIError:
            logger.exception("deadline note to chat %s failed", chat_id)


async def catch_up(*, context: JobContext | None = None) -> None:
    """At start: every schedule's occurrences missed while down (applied once if within the
    grace, else reported as skipped)."""
    ctx = _context(context)
    async with UnitOfWork(ctx.session_factory) as uow:
        ids = [item.schedule.id for item in await ScheduleRepo(uow.session).active()]
    for schedule_id in ids:
        try:
            await fire_schedule(schedule_id, context=ctx)
        except Exception:  # one broken schedule must not stop the others
            logger.exception("catch-up of schedule %s failed", schedule_id)
