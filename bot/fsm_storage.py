"""aiogram FSM storage in Postgres, so wizards survive restarts and several workers.

Inside an update (``in_unit``, set by the unit-of-work middleware) every statement runs in the
update's own transaction, on its unit's connection: a wizard step's state commits with the
update's processed mark or not at all, so a process killed between the two can never apply a
press twice (the redelivery finds neither, or both). Outside an update (a scheduled job, the
error handler, aiogram-dialog's background manager) each write is one atomic statement in its
own short transaction (an upsert). ``update_data`` merges with JSONB ``||`` server-side, so two
concurrent partial updates both land.

Within one update (``update_scope``) the rows read are remembered: aiogram reads the state and
aiogram-dialog reads its stack on every update and writes the (usually empty) stack back at the
end. Both keys of the user are read with the update's claim (``prefetch_keys``/``prefetched``,
called by the unit of work), later reads hit the memo, and writing "nothing" over a row that
does not exist is skipped — for a plain ``/r`` the FSM then costs no query of its own instead
of three transactions. Updates of one chat and user never overlap (the isolation lock is taken
before the claim, ``bot/middlewares.py``), so the memo cannot hide a concurrent change to the
same key.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import replace
from typing import Any, Protocol

import asyncpg
from aiogram.fsm.state import State
from aiogram.fsm.storage.base import (
    BaseStorage,
    DefaultKeyBuilder,
    KeyBuilder,
    StateType,
    StorageKey,
)
from sqlalchemy import TextClause, text
from sqlalchemy.exc import DBAPIError
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
_GET_MANY = text("SELECT key, state, data FROM fsm_states WHERE key = ANY(:keys)")
# aiogram-dialog keeps the default stack under this destiny; it is read on every update.
DIALOG_STACK = "aiogd:stack:"

Row = tuple[str | None, dict[str, Any]] | None
_memo: ContextVar[dict[str, Row] | None] = ContextVar("fsm_memo", default=None)


@contextmanager
def update_scope() -> Iterator[None]:
    """Remember FSM rows for the duration of one update (see the module docstring)."""
    token = _memo.set({})
    try:
        yield
    finally:
        _memo.reset(token)


class Unit(Protocol):
    """The update's unit of work, as the storage uses it (``db.uow.UnitOfWork``)."""

    @property
    def open(self) -> bool:
        """Whether its connection is still checked out (a task the update spawned may
        outlive it)."""

    async def driver(self) -> asyncpg.Connection:
        """The unit's connection, inside its transaction (which claims the update first)."""


_unit: ContextVar[Unit | None] = ContextVar("fsm_unit", default=None)


@contextmanager
def in_unit(unit: Unit) -> Iterator[None]:
    """Run the storage's statements in ``unit``'s transaction while the update is handled."""
    token = _unit.set(unit)
    try:
        yield
    finally:
        _unit.reset(token)


_NAMED = re.compile(r"(?<![:\w]):([a-z_]+)")
_positional: dict[str, tuple[str, tuple[str, ...]]] = {}


def _on_driver(statement: TextClause, params: dict[str, Any]) -> tuple[str, list[Any]]:
    """``statement`` for asyncpg: ``$n`` in place of each ``:name``, and its arguments."""
    sql = statement.text
    known = _positional.get(sql)
    if known is None:
        names: list[str] = []

        def number(match: re.Match[str]) -> str:
            if match[1] not in names:
                names.append(match[1])
            return f"${names.index(match[1]) + 1}"

        known = _positional[sql] = (_NAMED.sub(number, sql), tuple(names))
    return known[0], [params[name] for name in known[1]]


def _known_empty(key: str) -> bool:
    """True when this update knows the key holds nothing (no row, or no state and no data)."""
    memo = _memo.get()
    return memo is not None and key in memo and (memo[key] is None or memo[key] == (None, {}))


_PRUNE = text("DELETE FROM fsm_states WHERE key = :key AND state IS NULL AND data = '{}'::jsonb")
# Emptying the data is what aiogram-dialog does after most updates: one round trip, no insert.
_CLEAR_DATA = text(
    "WITH kept AS (UPDATE fsm_states SET data = '{}'::jsonb, updated_at = now() "
    "WHERE key = :key AND state IS NOT NULL RETURNING 1) "
    "DELETE FROM fsm_states WHERE key = :key AND state IS NULL"
)


def _forget(key: str) -> None:
    memo = _memo.get()
    if memo is not None:
        memo.pop(key, None)


def _state_name(state: StateType) -> str | None:
    return state.state if isinstance(state, State) else state


class PostgresStorage(BaseStorage):
    def __init__(self, engine: AsyncEngine, key_builder: KeyBuilder | None = None) -> None:
        self._engine = engine
        self._keys = key_builder or DefaultKeyBuilder(with_bot_id=True, with_destiny=True)

    async def _run(self, *statements: tuple[TextClause, dict[str, Any]]) -> Any:
        """Run the statements in one transaction; the last one's result rows come back.

        Inside an update, that is the update's transaction (``in_unit``): they commit with its
        processed mark, and a failure is the update's (its unit rolls back, the update is
        tried again). Otherwise their own, on the FSM pool.

        The pool does not ping (see ``build_runtime``): a connection the server dropped fails
        here and the statements run once more on a fresh one — each is an idempotent upsert,
        delete or read, so running one twice changes nothing."""
        unit = _unit.get()
        if unit is not None and unit.open:
            conn = await unit.driver()
            rows: list[asyncpg.Record] = []
            for statement, params in statements:
                sql, args = _on_driver(statement, params)
                rows = await conn.fetch(sql, *args)
            return rows
        for attempt in (1, 2):
            try:
                async with self._engine.begin() as conn:
                    result = None
                    for statement, params in statements:
                        result = await conn.execute(statement, params)
                    assert result is not None
                    return result.all() if result.returns_rows else None
            except DBAPIError as error:
                if attempt == 2 or not error.connection_invalidated:
                    raise
        raise AssertionError("unreachable")

    async def set_state(self, key: StorageKey, state: StateType = None) -> None:
        storage_key = self._keys.build(key)
        name = _state_name(state)
        if name is None and _known_empty(storage_key):
            return
        await self._run(
            (_UPSERT_STATE, {"key": storage_key, "state": name}), (_PRUNE, {"key": storage_key})
        )
        _forget(storage_key)

    async def get_state(self, key: StorageKey) -> str | None:
        row = await self._fetch(key)
        return row[0] if row else None

    async def set_data(self, key: StorageKey, data: Mapping[str, Any]) -> None:
        storage_key = self._keys.build(key)
        if not data:
            if not _known_empty(storage_key):
                await self._run((_CLEAR_DATA, {"key": storage_key}))
        else:
            await self._run(
                (_UPSERT_DATA, {"key": storage_key, "data": json.dumps(dict(data))}),
                (_PRUNE, {"key": storage_key}),
            )
        _forget(storage_key)

    async def get_data(self, key: StorageKey) -> dict[str, Any]:
        row = await self._fetch(key)
        return dict(row[1]) if row else {}

    async def update_data(self, key: StorageKey, data: Mapping[str, Any]) -> dict[str, Any]:
        storage_key = self._keys.build(key)
        rows = await self._run((_MERGE_DATA, {"key": storage_key, "data": json.dumps(dict(data))}))
        _forget(storage_key)
        return dict(rows[0][0])

    async def close(self) -> None:
        # The engine belongs to the composition root, which disposes of it.
        return None

    def _siblings(self, key: StorageKey) -> tuple[str, ...]:
        """For aiogram's state key, the key aiogram-dialog keeps the same user's default stack
        under (mirrors ``aiogram_dialog.context.storage.StorageProxy._stack_key``)."""
        if key.destiny != "default":
            return ()
        private = key.user_id == key.chat_id and key.business_connection_id is None
        stack = DIALOG_STACK if private else f"{DIALOG_STACK}<{key.user_id}>"
        return (self._keys.build(replace(key, user_id=key.chat_id, destiny=stack)),)

    def prefetch_keys(self, key: StorageKey) -> list[str]:
        """The rows an update under ``key`` reads: the user's state and dialog stack (both
        are read on most updates)."""
        return sorted({self._keys.build(key), *self._siblings(key)})

    def prefetched(
        self, keys: list[str], rows: Iterable[tuple[str, str | None, Mapping[str, Any]]]
    ) -> None:
        """Remember, for this update, the rows read under ``keys`` elsewhere (the unit of
        work reads them with its claim); keys without a row are remembered as empty. What was
        remembered of them before is replaced: a read is never older than the memo (a write
        forgets its key), and an update handled again reads its rows again."""
        memo = _memo.get()
        if memo is None:
            return
        found = {key: (state, dict(data)) for key, state, data in rows}
        for key in keys:
            memo[key] = found.get(key)

    async def _fetch(self, key: StorageKey) -> Row:
        storage_key = self._keys.build(key)
        memo = _memo.get()
        if memo is None:
            rows = await self._run((_GET, {"key": storage_key}))
            return (rows[0][0], dict(rows[0][1])) if rows else None
        if storage_key not in memo:
            keys = self.prefetch_keys(key)
            self.prefetched(keys, await self._run((_GET_MANY, {"keys": keys})))
        return memo[storage_key]
