"""A fight opened and ended many times on one connection: the partial unique index that keeps
one open fight per game must still be found once the insert's prepared statement goes to a
generic plan (Postgres does that from the sixth execution)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from bot.services.trackers import core
from db.database import create_session_factory
from db.uow import UnitOfWork

GM = 1000


async def test_a_fight_opens_again_and_again_on_one_connection(clean_db: AsyncEngine) -> None:
    factory = create_session_factory(clean_db)
    async with UnitOfWork(factory) as uow:
        game = await uow.games.create(-100902, "cliche", "Again", GM)
        for n in range(10):
            tracker = await core.open_tracker(
                uow, game, kind="cliche_fight", state={"n": n}, actor_user_id=GM
            )
            try:
                await core.open_tracker(uow, game, kind="cliche_fight", state={}, actor_user_id=GM)
            except core.TrackerRefused:
                pass
            else:
                raise AssertionError("two open fights in one game")
            await core.step(
                uow, tracker, expected_version=tracker.version, actor_user_id=GM,
                action="end", state={"n": n}, end=True,
            )  # fmt: skip
        await uow.commit()
