"""The Postgres FSM storage: round trips, atomic concurrent merges, survives a new instance."""

from __future__ import annotations

import asyncio

from aiogram.fsm.state import State, StatesGroup
from aiogram.fsm.storage.base import StorageKey
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.fsm_storage import PostgresStorage


class DemoSG(StatesGroup):
    first = State()
    second = State()


KEY = StorageKey(bot_id=1, chat_id=10, user_id=20)


async def test_state_and_data_round_trip_and_survive_a_new_instance(clean_db: AsyncEngine) -> None:
    storage = PostgresStorage(clean_db)
    await storage.set_state(KEY, DemoSG.second)
    await storage.set_data(KEY, {"name": "Алиса", "dots": [1, 2, 3]})
    fresh = PostgresStorage(clean_db)
    assert await fresh.get_state(KEY) == DemoSG.second.state
    assert await fresh.get_data(KEY) == {"name": "Алиса", "dots": [1, 2, 3]}


async def test_keys_are_isolated_by_chat_user_and_destiny(clean_db: AsyncEngine) -> None:
    storage = PostgresStorage(clean_db)
    other = StorageKey(bot_id=1, chat_id=10, user_id=20, destiny="aiogd_stack")
    await storage.set_state(KEY, "a:b")
    await storage.set_data(other, {"x": 1})
    assert await storage.get_state(other) is None
    assert await storage.get_data(KEY) == {}


async def test_concurrent_partial_updates_all_land(clean_db: AsyncEngine) -> None:
    storage = PostgresStorage(clean_db)
    await asyncio.gather(*(storage.update_data(KEY, {f"k{i}": i}) for i in range(20)))
    assert await storage.get_data(KEY) == {f"k{i}": i for i in range(20)}


async def test_clearing_removes_the_row(clean_db: AsyncEngine) -> None:
    storage = PostgresStorage(clean_db)
    await storage.set_state(KEY, DemoSG.first)
    await storage.set_data(KEY, {"a": 1})
    await storage.set_state(KEY, None)
    await storage.set_data(KEY, {})
    async with clean_db.connect() as conn:
        count = (await conn.execute(text("SELECT count(*) FROM fsm_states"))).scalar_one()
    assert count == 0


async def test_emptying_data_keeps_the_state(clean_db: AsyncEngine) -> None:
    storage = PostgresStorage(clean_db)
    await storage.set_state(KEY, DemoSG.second)
    await storage.set_data(KEY, {"a": 1})
    await storage.set_data(KEY, {})
    assert await storage.get_state(KEY) == DemoSG.second.state
    assert await storage.get_data(KEY) == {}
