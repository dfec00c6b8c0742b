"""``python -m db.migrate_cli upgrade head`` / ``downgrade -1`` / ``revision -m MSG``.

Uses DATABASE_URL; the bot itself migrates on start, so this is for operators and developers.
"""

from __future__ import annotations

import asyncio
import sys

from alembic import command
from sqlalchemy import Connection

from bot.config import load_settings
from db.database import alembic_config, create_engine, migrate


def _autogenerate(connection: Connection, message: str) -> None:
    cfg = alembic_config()
    cfg.attributes["connection"] = connection
    command.revision(cfg, message=message, autogenerate=True)


async def main(argv: list[str]) -> None:
    settings = load_settings()
    if settings.database_url is None:
        raise SystemExit("DATABASE_URL is not set")
    engine = create_engine(settings.database_url.get_secret_value())
    try:
        if argv[0] == "revision":
            async with engine.begin() as conn:
                await conn.run_sync(_autogenerate, argv[-1])
        else:
            await migrate(engine, action=argv[0], revision=argv[1] if len(argv) > 1 else "head")
    finally:
        await engine.dispose()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:] or ["upgrade", "head"]))
