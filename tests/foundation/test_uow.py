"""The unit of work's driver connection shares the session's one transaction.

``UnitOfWork.driver`` begins the transaction through SQLAlchemy's asyncpg adapter (a private
method and attribute) when the driver's statement is the unit's first, and a unit that never
made a session ends it straight on asyncpg: these tests fail if an SQLAlchemy upgrade changes
that, before a driver statement could commit on its own or a second BEGIN be sent.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlmodel.ext.asyncio.session import AsyncSession

from db.database import create_session_factory
from db.uow import StaleConnection, UnitOfWork


@pytest.fixture
async def one_connection(clean_db: AsyncEngine) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    """Units on a pool of one connection: each unit gets the connection the last one left."""
    engine = create_async_engine(clean_db.url, pool_size=1, max_overflow=0)
    yield create_session_factory(engine)
    await engine.dispose()


async def _chats(engine: AsyncEngine) -> list[int]:
    async with engine.connect() as conn:
        rows = (await conn.execute(text("SELECT id FROM chats ORDER BY id"))).all()
    return [r[0] for r in rows]


async def test_driver_first_statements_roll_back_with_the_unit(clean_db: AsyncEngine) -> None:
    async with UnitOfWork(create_session_factory(clean_db)) as uow:
        conn = await uow.driver()
        await conn.execute("INSERT INTO chats (id, type) VALUES (-1, 'group')")
        await uow.session.execute(text("INSERT INTO chats (id, type) VALUES (-2, 'group')"))
        assert await _chats(clean_db) == []  # nothing committed yet, on either path
        await uow.rollback()
    assert await _chats(clean_db) == []


async def test_driver_and_session_statements_commit_together(clean_db: AsyncEngine) -> None:
    factory = create_session_factory(clean_db)
    async with UnitOfWork(factory) as uow:
        conn = await uow.driver()
        assert conn.is_in_transaction()
        await conn.execute("INSERT INTO chats (id, type) VALUES (-1, 'group')")
        await uow.session.execute(text("INSERT INTO chats (id, type) VALUES (-2, 'group')"))
        await uow.commit()
        # After a commit the unit starts a new transaction, on the driver as well.
        again = await uow.driver()
        await again.execute("INSERT INTO chats (id, type) VALUES (-3, 'group')")
    # Leaving without a commit ends the new transaction unfinished: -3 is not kept.
    assert await _chats(clean_db) == [-2, -1]


async def test_a_connection_the_server_dropped_is_reported_and_not_pooled_again(
    clean_db: AsyncEngine, one_connection: async_sessionmaker[AsyncSession]
) -> None:
    factory = one_connection
    async with UnitOfWork(factory) as uow:
        assert await uow.claim_update(1, 1, user_id=None, chat_id=None) is not None
        pid = await (await uow.driver()).fetchval("SELECT pg_backend_pid()")
        await uow.commit()
    async with clean_db.connect() as admin:
        await admin.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
    await asyncio.sleep(0.1)
    with pytest.raises(StaleConnection):
        async with UnitOfWork(factory) as uow:
            await uow.claim_update(1, 2, user_id=None, chat_id=None)
    async with UnitOfWork(factory) as uow:  # a fresh connection, not the dead one
        assert await uow.claim_update(1, 2, user_id=None, chat_id=None) is not None
        await uow.commit()
    async with clean_db.connect() as conn:
        claimed = (await conn.execute(text("SELECT update_id FROM processed_updates"))).all()
    assert sorted(r[0] for r in claimed) == [1, 2]


@pytest.mark.parametrize("session_first", [False, True])
async def test_driver_and_session_run_in_one_transaction(
    clean_db: AsyncEngine, session_first: bool
) -> None:
    async with UnitOfWork(create_session_factory(clean_db)) as uow:
        if session_first:
            via_session = (await uow.session.execute(text("SELECT txid_current()"))).scalar()
            via_driver = await (await uow.driver()).fetchval("SELECT txid_current()")
        else:
            via_driver = await (await uow.driver()).fetchval("SELECT txid_current()")
            via_session = (await uow.session.execute(text("SELECT txid_current()"))).scalar()
        assert via_driver == via_session
        await uow.commit()


async def test_a_driver_only_unit_commits_or_rolls_back_and_leaves_its_connection_clean(
    clean_db: AsyncEngine, one_connection: async_sessionmaker[AsyncSession]
) -> None:
    factory = one_connection
    async with UnitOfWork(factory) as uow:
        await (await uow.driver()).execute("INSERT INTO chats (id, type) VALUES (-1, 'group')")
        await uow.commit()
        raw = await uow.driver()  # a new transaction after the commit, as before
        assert raw.is_in_transaction()
    assert not raw.is_in_transaction()  # left unfinished: rolled back on the way out
    async with UnitOfWork(factory) as uow:  # the same (only) connection, clean
        again = await uow.driver()
        assert again is raw
        await again.execute("INSERT INTO chats (id, type) VALUES (-2, 'group')")
    with pytest.raises(RuntimeError):
        async with UnitOfWork(factory) as uow:
            await (await uow.driver()).execute("INSERT INTO chats (id, type) VALUES (-3, 'group')")
            raise RuntimeError("the handler failed")
    assert await _chats(clean_db) == [-1]


async def test_a_commit_on_a_dropped_connection_fails_and_is_not_pooled_again(
    clean_db: AsyncEngine, one_connection: async_sessionmaker[AsyncSession]
) -> None:
    factory = one_connection
    with pytest.raises(Exception):  # noqa: B017 - asyncpg's own error for a lost connection
        async with UnitOfWork(factory) as uow:
            raw = await uow.driver()
            await raw.execute("INSERT INTO chats (id, type) VALUES (-1, 'group')")
            pid = await raw.fetchval("SELECT pg_backend_pid()")
            async with clean_db.connect() as admin:
                await admin.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
            await asyncio.sleep(0.1)
            await uow.commit()
    async with UnitOfWork(factory) as uow:  # a fresh connection, not the dead one
        fresh = await uow.driver()
        assert await fresh.fetchval("SELECT pg_backend_pid()") != pid
        await fresh.execute("INSERT INTO chats (id, type) VALUES (-2, 'group')")
        await uow.commit()
    assert await _chats(clean_db) == [-2]
