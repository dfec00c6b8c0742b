"""Characters and game data of many games in one statement each (a scheduled tick over a
thousand tables). Never commits."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, text
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Character
from db.repositories.games import CharacterDTO


@dataclass(frozen=True)
class SheetWrite:
    character_id: int
    sheet: dict[str, Any]
    version: int  # the version it gets (one up per change applied in the batch)
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

    async def lock_active(self, game_ids: list[int]) -> list[CharacterDTO]:
        """Every active character (NPCs too) of the games, locked, in id order (the order
        every other path locks characters in)."""
        if not game_ids:
            return []
        table = Character.__table__  # type: ignore[attr-defined]
        stmt = (
            select(table)
            .where(col(Character.game_id).in_(game_ids), col(Character.status) == "active")
            .order_by(col(Character.id))
            .with_for_update()
        )
        rows = (await self._session.execute(stmt)).mappings()
        return [
            CharacterDTO(
                r["id"],
                r["game_id"],
                r["owner_user_id"],
                r["is_npc"],
                r["system"],
                r["name"],
                r["status"],
                dict(r["sheet"]),
                r["version"],
                r["review_comment"],
                r["schema_version"],
            )
            for r in rows
        ]

    async def write_sheets(self, writes: list[SheetWrite]) -> None:
        """New sheets, versions and schema versions of any number of characters."""
        if not writes:
            return
        await self._session.execute(
            text(
                "UPDATE characters AS c SET sheet = CAST(v.sheet AS jsonb), version = v.version, "
                "schema_version = v.schema_version, updated_at = now() "
                "FROM unnest(CAST(:ids AS integer[]), CAST(:sheets AS text[]), "
                "CAST(:versions AS integer[]), CAST(:schemas AS integer[])) "
                "AS v(id, sheet, version, schema_version) WHERE c.id = v.id"
            ),
            {
                "ids": [w.character_id for w in writes],
                "sheets": [json.dumps(w.sheet, ensure_ascii=False) for w in writes],
                "versions": [w.version for w in writes],
                "schemas": [w.schema_version for w in writes],
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
