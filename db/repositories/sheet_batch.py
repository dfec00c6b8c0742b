"""Characters of many games changed through the ledger in one statement each (a scheduled
tick over a thousand tables). Sheets travel as JSON text: the caller decodes and encodes them
one game at a time, between its other work. Never commits."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import text
from sqlmodel.ext.asyncio.session import AsyncSession


@dataclass(frozen=True)
class LockedSheet:
    id: int
    game_id: int
    name: str
    sheet_json: str  # as stored
    version: int
    schema_version: int


@dataclass(frozen=True)
class SheetChange:
    """A character's new sheet and its ledger entry (the sheet before and the versions are
    taken from the row itself)."""

    character_id: int
    game_id: int
    actor_user_id: int
    kind: str
    reason: str | None
    batch: str
    diff_json: str
    sheet_json: str  # the sheet after
    schema_version: int


class SheetBatchRepo:
    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def lock_games(self, game_ids: list[int]) -> None:
        """The games' rows, in id order (a GM's milestone locks its game first, too)."""
        if game_ids:
            await self._session.execute(
                text(
                    "SELECT id FROM games WHERE id = ANY(CAST(:ids AS integer[])) "
                    "ORDER BY id FOR UPDATE"
                ),
                {"ids": sorted(game_ids)},
            )

    async def lock_active(self, game_ids: list[int]) -> list[LockedSheet]:
        """Every active character (NPCs too) of the games, locked, in id order (the order
        every other path locks characters in)."""
        if not game_ids:
            return []
        rows = await self._session.execute(
            text(
                "SELECT id, game_id, name, sheet::text, version, schema_version FROM characters "
                "WHERE game_id = ANY(CAST(:ids AS integer[])) AND status = 'active' "
                "ORDER BY id FOR UPDATE"
            ),
            {"ids": sorted(game_ids)},
        )
        return [LockedSheet(*r) for r in rows]

    async def change(self, changes: list[SheetChange]) -> None:
        """Write the sheets and their ledger entries in ONE statement: the update's new
        sheets are the entries' ``sheet_after``, and the rows as they were before it (the
        statement's snapshot) give ``sheet_before`` and the versions — so each sheet crosses
        the network and is parsed once. At most one change per character (several changes of
        one character: one call each, in order)."""
        if not changes:
            return
        await self._session.execute(
            text(
                "WITH v AS (SELECT * FROM unnest(CAST(:ids AS integer[]), "
                "CAST(:games AS integer[]), CAST(:actors AS bigint[]), CAST(:kinds AS text[]), "
                "CAST(:reasons AS text[]), CAST(:batches AS text[]), CAST(:diffs AS text[]), "
                "CAST(:sheets AS text[]), CAST(:schemas AS integer[])) WITH ORDINALITY "
                "AS v(id, game_id, actor_user_id, kind, reason, batch, diff, sheet, "
                "schema_version, n)), "
                "written AS (UPDATE characters AS c SET sheet = CAST(v.sheet AS jsonb), "
                "version = c.version + 1, schema_version = v.schema_version, updated_at = now() "
                "FROM v WHERE c.id = v.id RETURNING c.id, c.sheet, c.version) "
                "INSERT INTO ledger (game_id, character_id, actor_user_id, kind, reason, batch, "
                "diff, sheet_before, sheet_after, version_before, version_after) "
                "SELECT v.game_id, v.id, v.actor_user_id, v.kind, v.reason, v.batch, "
                "CAST(v.diff AS jsonb), prior.sheet, written.sheet, prior.version, "
                "written.version FROM v JOIN written ON written.id = v.id "
                "JOIN characters AS prior ON prior.id = v.id "
                "ORDER BY v.n"
            ),
            {
                "ids": [c.character_id for c in changes],
                "games": [c.game_id for c in changes],
                "actors": [c.actor_user_id for c in changes],
                "kinds": [c.kind for c in changes],
                "reasons": [c.reason for c in changes],
                "batches": [c.batch for c in changes],
                "diffs": [c.diff_json for c in changes],
                "sheets": [c.sheet_json for c in changes],
                "schemas": [c.schema_version for c in changes],
            },
        )

    async def set_game_data(self, key: str, values: Mapping[int, Any]) -> None:
        """``key`` of each game (game id → JSON value), upserted in one statement."""
        if not values:
            return
        await self._session.execute(
            text(
                "INSERT INTO game_data (game_id, key, value) "
                "SELECT v.game_id, :key, CAST(v.value AS jsonb) "
                "FROM unnest(CAST(:ids AS integer[]), CAST(:values AS text[])) "
                "AS v(game_id, value) "
                "ON CONFLICT (game_id, key) DO UPDATE "
                "SET value = excluded.value, updated_at = now()"
            ),
            {
                "key": key,
                "ids": list(values),
                "values": [json.dumps(v, ensure_ascii=False) for v in values.values()],
            },
        )
