"""Long polling that confirms an update only once it has been handled.

aiogram's polling confirms a batch (``getUpdates`` with the next offset) as soon as it has
handed the updates to tasks, so the updates still running when the process is killed are
never served again. Here the offset stops at the oldest update still in flight: Telegram keeps
serving it (and everything after it) until it is done. Updates already running are not started
twice; one that finished is absorbed by its processed-update claim if it comes again. When a
batch brings nothing new the loop waits for a running update to finish instead of asking again
at once.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.methods import GetUpdates
from aiogram.types import Update
from aiogram.utils.backoff import Backoff, BackoffConfig

logger = logging.getLogger(__name__)

DEFAULT_BACKOFF = BackoffConfig(min_delay=1.0, max_delay=5.0, factor=1.3, jitter=0.1)
IDLE_WAIT_SECONDS = 0.5


class SafeOffsetDispatcher(Dispatcher):
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
        user = await bot.me()
        logger.info("polling as @%s id=%d (offsets confirmed once handled)", user.username, bot.id)
        running: dict[int, asyncio.Task[Any]] = {}
        slots = asyncio.Semaphore(tasks_concurrency_limit or 64)
        backoff = Backoff(config=backoff_config)
        timeout = {"request_timeout": int((bot.session.timeout or 60) + polling_timeout)}
        next_offset: int | None = None
        while True:
            offset = min(running) if running else next_offset
            request = GetUpdates(
                offset=offset, timeout=polling_timeout, allowed_updates=allowed_updates
            )
            try:
                updates = await bot(request, **timeout)
            except Exception as error:
                logger.error("failed to fetch updates (%s): retrying", error)
                await backoff.asleep()
                continue
            backoff.reset()
            fresh = [u for u in updates if u.update_id not in running]
            for update in fresh:
                await slots.acquire()
                running[update.update_id] = self._start(bot, update, running, slots, kwargs)
                next_offset = max(next_offset or 0, update.update_id + 1)
            if updates and not fresh and running:
                # Only updates we are still handling came back: wait for one to finish.
                await asyncio.wait(
                    list(running.values()), timeout=IDLE_WAIT_SECONDS,
                    return_when=asyncio.FIRST_COMPLETED,
                )  # fmt: skip

    def _start(
        self,
        bot: Bot,
        update: Update,
        running: dict[int, asyncio.Task[Any]],
        slots: asyncio.Semaphore,
        kwargs: dict[str, Any],
    ) -> asyncio.Task[Any]:
        task = asyncio.create_task(self._process_update(bot=bot, update=update, **kwargs))

        def finished(_: asyncio.Task[Any]) -> None:
            running.pop(update.update_id, None)
            slots.release()

        task.add_done_callback(finished)
        return task
