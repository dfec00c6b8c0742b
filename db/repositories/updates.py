from __future__ import annotations

from sqlalchemy.dialects.postgresql import insert
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import ProcessedUpdate


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
