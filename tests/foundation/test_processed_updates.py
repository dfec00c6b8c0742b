"""Processed-update claims are kept long enough for any redelivery, then forgotten."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from db.database import create_session_factory
from db.uow import UnitOfWork


async def test_old_processed_update_claims_are_pruned(clean_db: AsyncEngine) -> None:
    async with clean_db.begin() as conn:
        await conn.execute(
            text(
                "INSERT INTO processed_updates (bot_id, update_id, processed_at) VALUES "
                "(1, 1, now() - interval '8 days'), (1, 2, now())"
            )
        )
    async with UnitOfWork(create_session_factory(clean_db)) as uow:
        assert await uow.updates.prune(timedelta(days=7)) == 1
        await uow.commit()
    async with clean_db.connect() as conn:
        left = (await conn.execute(text("SELECT update_id FROM processed_updates"))).all()
    assert [r[0] for r in left] == [2]
