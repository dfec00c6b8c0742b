"""aiogram FSM storage in Postgres, so wizards survive restarts and several workers.

Each write is one atomic statement in its own short transaction (an upsert); ``update_data``
merges with JSONB ``||`` server-side, so two concurrent partial updates both land.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from aiogram.fsm.state import State
from aiogram.fsm.storage.base import (
    BaseStorage,
    DefaultKeyBuilder,
    KeyBuilder,
    StateType,
    StorageKey,
)
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

_UPSERT_STATE = text(
    "INSERT INTO fsm_states (key, state) VALUES (:key, :state) "
    "ON CONFLICT (key) DO UPDATE SET state = EXCLUDED.state, updated_at = now()"
)
_UPSERT_DATA = text(
    "INSERT INTO fsm_states (key, data) VALUES (:key, CAST(:data AS jsonb)) "
    "ON CONFLICT (key) DO UPDATE SET data = EXCLUDED.data, updated_at = now()"
)
_MERGE_DATA = text(
    "INSERT INTO fsm_states (key, data) VALUES (:key, CAST(:data AS jsonb)) "
    "ON CONFLICT (key) DO UPDATE SET data = fsm_states.data || EXCLUDED.data, "
    "updated_at = now() RETURNING data"
)
_GET = text("SELECT state, data FROM fsm_states WHERE key = :key")
_PRUNE = text("DELETE FROM fsm_states WHERE key = :key AND state IS NULL AND data = '{}'::jsonb")
# Emptying the data is what aiogram-dialog does after most updates: one round trip, no insert.
_CLEAR_DATA = text(
    "WITH kept AS (UPDATE fsm_states SET data = '{}'::jsonb, updated_at = now() "
    "WHERE key = :key AND state IS NOT NULL RETURNING 1) "
    "DELETE FROM fsm_states WHERE key = :key AND state IS NULL"
)


def _state_name(state: StateType) -> str | None:
    return state.state if isinstance(state, State) else state


class PostgresStorage(BaseStorage):
    def __init__(self, engine: AsyncEngine, key_builder: KeyBuilder | None = None) -> None:
        self._engine = engine
        self._keys = key_builder or DefaultKeyBuilder(with_bot_id=True, with_destiny=True)

    async def set_state(self, key: StorageKey, state: StateType = None) -> None:
        storage_key = self._keys.build(key)
        async with self._engine.begin() as conn:
            await conn.execute(_UPSERT_STATE, {"key": storage_key, "state": _state_name(state)})
            await conn.execute(_PRUNE, {"key": storage_key})

    async def get_state(self, key: StorageKey) -> str | None:
        row = await self._fetch(key)
        return row[0] if row else None

    async def set_data(self, key: StorageKey, data: Mapping[str, Any]) -> None:
        storage_key = self._keys.build(key)
        if not data:
            async with self._engine.begin() as conn:
                await conn.execute(_CLEAR_DATA, {"key": storage_key})
            return
        async with self._engine.begin() as conn:
            await conn.execute(_UPSERT_DATA, {"key": storage_key, "data": json.dumps(dict(data))})
            await conn.execute(_PRUNE, {"key": storage_key})

    async def get_data(self, key: StorageKey) -> dict[str, Any]:
        row = await self._fetch(key)
        return dict(row[1]) if row else {}

    async def update_data(self, key: StorageKey, data: Mapping[str, Any]) -> dict[str, Any]:
        storage_key = self._keys.build(key)
        async with self._engine.begin() as conn:
            result = await conn.execute(
                _MERGE_DATA, {"key": storage_key, "data": json.dumps(dict(data))}
            )
            merged: dict[str, Any] = dict(result.scalar_one())
        return merged

    async def close(self) -> None:
        # The engine belongs to the composition root, which disposes of it.
        return None

    async def _fetch(self, key: StorageKey) -> Any:
        async with self._engine.connect() as conn:
            result = await conn.execute(_GET, {"key": self._keys.build(key)})
            return result.first()
