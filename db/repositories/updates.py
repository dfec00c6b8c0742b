from __future__ import annotations

from datetime import timedelta

from sqlalchemy import delete
from sqlalchemy.dialects.postgresql import insert
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import ProcessedUpdate, utcnow


class ProcessedUpdateRepo:
    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def claim(self, bot_id: int, update_id: int) -> bool:
        """Record the update inside the current transaction; False if it was already processed.

        A concurrent redelivery blocks on the primary key until the first transaction ends,
        then sees the conflict — so two deliveries can never both take effect.
        """
        stmt = (
            insert(ProcessedUpdate)
            .values(bot_id=bot_id, update_id=update_id)
            .on_conflict_do_nothing(index_elements=["bot_id", "update_id"])
            .returning(ProcessedUpdate.update_id)  # type: ignore[arg-type]
        )
        result = await self._session.execute(stmt)
        return result.scalar_one_or_none() is not None

    async def prune(self, older_than: timedelta) -> int:
        """Forget claims older than Telegram ever redelivers (it keeps updates for 24 hours)."""
        stmt = delete(ProcessedUpdate).where(
            col(ProcessedUpdate.processed_at) < utcnow() - older_than
        )
        result = await self._session.execute(stmt)
        return int(result.rowcount or 0)  # type: ignore[attr-defined]
