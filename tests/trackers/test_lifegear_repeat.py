"""Many fights one after another in one game (the database reuses its prepared statements)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from bot.services.trackers import core
from bot.services.trackers import lifegear as service
from db.database import create_session_factory
from db.uow import UnitOfWork

GM = 1000


async def test_ten_fights_in_a_row(clean_db: AsyncEngine) -> None:
    factory = create_session_factory(clean_db)
    async with UnitOfWork(factory) as uow:
        game = await uow.games.create(-100902, "lifegear", "Many fights", GM)
        await uow.commit()
    for n in range(10):
        async with UnitOfWork(factory) as uow:
            tracker = await service.open_combat(
                uow, game, user_id=GM, monster=f"Волк {n}", defence=5
            )
            await uow.commit()
        async with UnitOfWork(factory) as uow:
            ended = await service.end(
                uow, game, chat_id=game.chat_id, tracker_id=tracker.id, v=1, user_id=GM
            )
            await uow.commit()
        assert not ended.is_open
    async with UnitOfWork(factory) as uow:
        assert await core.current(uow, game) is None
