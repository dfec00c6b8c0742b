"""Container health check: the database answers (Telegram being down is not our ill health)."""

from __future__ import annotations

import asyncio
import sys

import asyncpg

from bot.config import load_settings
from db.database import to_async_url


async def check() -> bool:
    settings = load_settings()
    if settings.database_url is None:
        return True
    url = to_async_url(settings.database_url.get_secret_value()).replace(
        "postgresql+asyncpg://", "postgresql://", 1
    )
    try:
        conn = await asyncpg.connect(url, timeout=3)
        await conn.execute("SELECT 1")
        await conn.close()
    except (OSError, asyncpg.PostgresError, TimeoutError):
        return False
    return True


if __name__ == "__main__":
    sys.exit(0 if asyncio.run(check()) else 1)
