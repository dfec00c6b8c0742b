"""One poller per bot: a Postgres advisory lock held on its own connection for the whole run.

Two processes long-polling the same token split the updates between them (and Telegram answers
one of them 409). The second instance finds the lock taken and refuses to start, saying why;
when the first dies its connection closes and the lock is free again.
"""

from __future__ import annotations

import logging
from types import TracebackType

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

logger = logging.getLogger(__name__)

# A fixed namespace for our advisory locks (the second key is the bot id).
POLLING_NAMESPACE = 7_301_001


class AlreadyPolling(RuntimeError):
    """Another process is polling this bot already."""


class PollingLock:
    def __init__(self, engine: AsyncEngine, bot_id: int) -> None:
        self._engine = engine
        self._key = bot_id % 2**31
        self._conn: AsyncConnection | None = None

    async def __aenter__(self) -> PollingLock:
        conn = await self._engine.connect()
        taken = (
            await conn.execute(
                text("SELECT pg_try_advisory_lock(:ns, :key)"),
                {"ns": POLLING_NAMESPACE, "key": self._key},
            )
        ).scalar_one()
        await conn.commit()
        if not taken:
            await conn.close()
            raise AlreadyPolling(f"another instance is already polling bot {self._key}")
        self._conn = conn
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._conn is not None:
            # The connection goes back to the pool (its session lives on): unlock explicitly.
            await self._conn.execute(
                text("SELECT pg_advisory_unlock(:ns, :key)"),
                {"ns": POLLING_NAMESPACE, "key": self._key},
            )
            await self._conn.close()
            self._conn = None
