"""The shared tracker use case against real Postgres: one open fight per game, a step per
version however many concurrent presses, undo restores the state and the sheets."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.services import ledger
from bot.services.trackers import core
from db.database import create_session_factory
from db.repositories.games import GameDTO
from db.uow import UnitOfWork
from engine.systems import fate

GM, ALICE = 1000, 1001


async def _game(factory, chat_id: int = -100901) -> GameDTO:  # type: ignore[no-untyped-def]
    async with UnitOfWork(factory) as uow:
        game = await uow.games.create(chat_id, "fate", "Tracked", GM)
        await uow.commit()
    return game


async def test_one_open_fight_per_game_even_opened_concurrently(clean_db: AsyncEngine) -> None:
    factory = create_session_factory(clean_db)
    game = await _game(factory)

    async def open_one(n: int) -> bool:
        async with UnitOfWork(factory) as uow:
            try:
                await core.open_tracker(
                    uow, game, kind="fate_conflict", state={"n": n}, actor_user_id=GM
                )
            except core.TrackerRefused:
                return False
            await uow.commit()
            return True

    results = await asyncio.gather(*(open_one(n) for n in range(10)))
    assert results.count(True) == 1
    # Cards are not exclusive: they open next to the fight.
    async with UnitOfWork(factory) as uow:
        card = await core.open_tracker(
            uow, game, kind="card_opposed", state={}, actor_user_id=GM, exclusive=False
        )
        await uow.commit()
        assert (await core.current(uow, game)).kind == "fate_conflict"  # type: ignore[union-attr]
    assert card.is_open


async def test_concurrent_steps_on_one_version_make_one_step(clean_db: AsyncEngine) -> None:
    factory = create_session_factory(clean_db)
    game = await _game(factory)
    async with UnitOfWork(factory) as uow:
        tracker = await core.open_tracker(
            uow, game, kind="fate_conflict", state={"round": 1}, actor_user_id=GM
        )
        await uow.commit()

    async def press(n: int) -> bool:
        async with UnitOfWork(factory) as uow:
            try:
                loaded = await core.load(uow, tracker.id, chat_id=game.chat_id)
                await core.step(
                    uow, loaded, expected_version=1, actor_user_id=ALICE, action=f"p{n}",
                    state={"round": 2, "by": n},
                )  # fmt: skip
            except core.TrackerRefused as refused:
                assert refused.reason == core.STALE
                return False
            await uow.commit()
            return True

    # 12 sessions: within the test engine's pool (10 + 10), so none waits for a connection
    assert (await asyncio.gather(*(press(n) for n in range(12)))).count(True) == 1
    async with clean_db.connect() as conn:
        steps = (await conn.execute(text("SELECT count(*) FROM tracker_steps"))).scalar_one()
        version = (await conn.execute(text("SELECT version FROM trackers"))).scalar_one()
    assert (steps, version) == (1, 2)
    # A forged id from another chat is refused before anything is read into a step.
    async with UnitOfWork(factory) as uow:
        with pytest.raises(core.TrackerRefused):
            await core.load(uow, tracker.id, chat_id=-1)


async def test_undo_restores_state_and_sheets_and_only_for_the_gm(clean_db: AsyncEngine) -> None:
    factory = create_session_factory(clean_db)
    game = await _game(factory)
    sheet = fate.new_character("Герой").model_copy(update={"fate_points": 3})
    async with UnitOfWork(factory) as uow:
        hero = await uow.characters.add(
            game_id=game.id, owner_user_id=ALICE, is_npc=False, system="fate", name="Герой",
            status="active", sheet=sheet.model_dump(mode="json"), schema_version=1,
        )  # fmt: skip
        tracker = await core.open_tracker(
            uow, game, kind="fate_conflict", state={"hit": False}, actor_user_id=GM
        )
        await uow.commit()
    async with UnitOfWork(factory) as uow:
        batch = ledger.new_batch()
        await ledger.change_sheets(
            uow, game=game, actor_user_id=ALICE, kind="stress", batch=batch,
            changes={hero.id: lambda s: s.model_copy(update={"fate_points": 2})},
        )  # fmt: skip
        loaded = await core.load(uow, tracker.id, chat_id=game.chat_id)
        await core.step(
            uow, loaded, expected_version=1, actor_user_id=ALICE, action="hit",
            state={"hit": True}, batch=batch,
        )  # fmt: skip
        await uow.commit()
    async with UnitOfWork(factory) as uow:
        loaded = await core.load(uow, tracker.id, chat_id=game.chat_id)
        with pytest.raises(core.TrackerRefused):
            await core.undo(uow, game, loaded, actor_user_id=ALICE, shown=2)
    async with UnitOfWork(factory) as uow:
        loaded = await core.load(uow, tracker.id, chat_id=game.chat_id)
        undone, action = await core.undo(uow, game, loaded, actor_user_id=GM, shown=2)
        await uow.commit()
    assert (undone.state, undone.version, action) == ({"hit": False}, 3, "hit")
    async with UnitOfWork(factory) as uow:
        row = await uow.characters.get(hero.id)
        assert row is not None and row.sheet["fate_points"] == 3
        loaded = await core.load(uow, tracker.id, chat_id=game.chat_id)
        with pytest.raises(core.TrackerRefused):  # nothing left to undo
            await core.undo(uow, game, loaded, actor_user_id=GM, shown=3)
