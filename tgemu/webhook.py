"""Telegram's side of webhook mode: queued updates are POSTed to the bot.

While a webhook is set (``setWebhook``) the emulator POSTs each update as JSON to it, with the
``X-Telegram-Bot-Api-Secret-Token`` header when a secret was given, up to ``max_connections``
at once (Telegram's default is 40), oldest first. A 2xx answer takes the update off the queue;
any other answer, or no answer, leaves it to be POSTed again after ``retry_delay`` — so, as
with Telegram, a bot that fails an update gets it again.

``targets`` stands for a load-balancing proxy in front of several workers: when set, the POSTs
go round-robin to those URLs instead of the registered one (the benchmarks use it).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from typing import Any

import aiohttp

from tgemu.state import EmuState

logger = logging.getLogger(__name__)

DEFAULT_MAX_CONNECTIONS = 40
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


class WebhookPusher:
    def __init__(self, state: EmuState, *, retry_delay: float = 0.2) -> None:
        self._state = state
        self.retry_delay = retry_delay
        self.targets: list[str] | None = None
        self._task: asyncio.Task[None] | None = None
        self._session: aiohttp.ClientSession | None = None
        self._deliveries: set[asyncio.Task[None]] = set()
        self._in_flight = 0  # counted apart from the tasks: see _deliver
        self._turn = itertools.count()

    def start(self) -> None:
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60))
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        for delivery in list(self._deliveries):
            delivery.cancel()
        await asyncio.gather(*self._deliveries, return_exceptions=True)
        if self._session is not None:
            await self._session.close()

    def _urls(self) -> list[str]:
        url = self._state.webhook.get("url") or ""
        return (self.targets or [url]) if url else []

    def _limit(self) -> int:
        return int(self._state.webhook.get("max_connections") or DEFAULT_MAX_CONNECTIONS)

    async def _run(self) -> None:
        queue = self._state.queue
        while True:
            arrival = queue.arrival
            urls = self._urls()
            item = queue.push_next() if urls and self._in_flight < self._limit() else None
            if item is None:
                await arrival.wait()
                continue
            url = urls[next(self._turn) % len(urls)]
            self._in_flight += 1
            delivery = asyncio.create_task(self._deliver(url, *item))
            self._deliveries.add(delivery)
            delivery.add_done_callback(self._deliveries.discard)

    async def _deliver(self, url: str, update_id: int, update: dict[str, Any]) -> None:
        assert self._session is not None
        secret = self._state.webhook.get("secret_token")
        headers = {SECRET_HEADER: str(secret)} if secret else {}
        ok = False
        try:
            async with self._session.post(url, json=update, headers=headers) as response:
                ok = 200 <= response.status < 300
                if not ok:
                    logger.info("webhook answered %s to update %s", response.status, update_id)
        except (aiohttp.ClientError, TimeoutError) as error:
            logger.info("webhook unreachable for update %s: %s", update_id, error)
        if not ok:
            await asyncio.sleep(self.retry_delay)
        # The slot is free before the queue wakes the loop: counted by the task's done
        # callback instead, the loop could look while every slot still seemed taken and then
        # sleep with nothing left to wake it (seen with 40 refused POSTs at once).
        self._in_flight -= 1
        self._state.queue.pushed(update_id, ok=ok)
