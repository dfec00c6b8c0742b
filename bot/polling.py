"""Long polling that loses no update when the process is killed.

aiogram's polling confirms a batch (``getUpdates`` with the next offset) as soon as it has
handed the updates to tasks, so updates still running when the process dies would never be
served again. Here each batch is first written to ``update_inbox`` (one statement, the
response's own text when the session kept it) and only then confirmed; an update's claim
deletes its inbox row in the same commit as its effects
(``db/repositories/updates.py``). At start, whatever a killed process left in the inbox and
never committed is handled before polling resumes. If the inbox cannot be written (the
database is down) the batch is not confirmed and Telegram serves it again.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.methods import GetUpdates
from aiogram.types import Update
from aiogram.utils.backoff import Backoff, BackoffConfig
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.session import BotSession
from db.repositories.updates import DROP_DONE, STASH, STASH_POLLED, UNFINISHED

logger = logging.getLogger(__name__)

DEFAULT_BACKOFF = BackoffConfig(min_delay=1.0, max_delay=5.0, factor=1.3, jitter=0.1)
REPLAY_WINDOW_SECONDS = 3600  # older leftovers are dropped: the moment has passed
INBOX_ENGINE = "inbox_engine"  # workflow-data key: an autocommit engine (see build_runtime)


class InboxDispatcher(Dispatcher):
    async def _polling(
        self,
        bot: Bot,
        polling_timeout: int = 30,
        handle_as_tasks: bool = True,
        backoff_config: BackoffConfig = DEFAULT_BACKOFF,
        allowed_updates: list[str] | None = None,
        tasks_concurrency_limit: int | None = None,
        **kwargs: Any,
    ) -> None:
        engine: AsyncEngine = self[INBOX_ENGINE]
        slots = asyncio.Semaphore(tasks_concurrency_limit or 64)
        running: set[asyncio.Task[Any]] = set()
        for update in await _leftovers(engine, bot):
            await self._start(bot, update, slots, running, kwargs)
        backoff = Backoff(config=backoff_config)
        timeout = {"request_timeout": int((bot.session.timeout or 60) + polling_timeout)}
        offset: int | None = None
        while True:
            request = GetUpdates(
                offset=offset, timeout=polling_timeout, allowed_updates=allowed_updates
            )
            session = bot.session if isinstance(bot.session, BotSession) else None
            if session is not None:
                session.polled = None
            try:
                updates = await bot(request, **timeout)
                if updates:
                    polled = session.polled if session is not None else None
                    await _stash(engine, bot.id, updates, polled)
            except Exception as error:
                logger.error("polling: %s: %s; retrying", type(error).__name__, error)
                await backoff.asleep()
                continue
            backoff.reset()
            for update in updates:
                await self._start(bot, update, slots, running, kwargs)
                offset = update.update_id + 1

    async def _start(
        self,
        bot: Bot,
        update: Update,
        slots: asyncio.Semaphore,
        running: set[asyncio.Task[Any]],
        kwargs: dict[str, Any],
    ) -> None:
        await slots.acquire()
        task = asyncio.create_task(self._process_update(bot=bot, update=update, **kwargs))
        running.add(task)

        def finished(done: asyncio.Task[Any]) -> None:
            running.discard(done)
            slots.release()

        task.add_done_callback(finished)


async def _stash(
    engine: AsyncEngine, bot_id: int, updates: list[Update], polled: str | None
) -> None:
    """Write the batch to the inbox: ``polled``, the getUpdates response's text the updates
    were parsed from, goes as it is (dumping the parsed updates back to JSON was about 2% of
    a ``/r`` burst's CPU); without it (another session) the updates are dumped."""
    async with engine.begin() as conn:
        if polled is not None:
            await conn.execute(STASH_POLLED, {"bot": bot_id, "response": polled})
            return
        batch = [u.model_dump(mode="json", exclude_none=True, by_alias=True) for u in updates]
        await conn.execute(STASH, {"bot": bot_id, "batch": json.dumps(batch)})


async def _leftovers(engine: AsyncEngine, bot: Bot) -> list[Update]:
    """Updates a killed process received and never committed, oldest first."""
    params = {"bot": bot.id, "max_age": REPLAY_WINDOW_SECONDS}
    async with engine.begin() as conn:
        await conn.execute(DROP_DONE, params)
        rows = (await conn.execute(UNFINISHED, params)).scalars().all()
    if rows:
        logger.warning("handling %d update(s) left unfinished by the last run", len(rows))
    return [Update.model_validate(row, context={"bot": bot}) for row in rows]
