"""The ledger of character changes (append; an undo only stamps ``undone_at``)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select, text, update
from sqlalchemy.dialects.postgresql import insert
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import LedgerEntry, utcnow


@dataclass(frozen=True)
class LedgerDTO:
    id: int
    game_id: int
    character_id: int
    actor_user_id: int
    kind: str
    reason: str | None
    batch: str
    diff: list[Any]
    sheet_before: dict[str, Any]
    sheet_after: dict[str, Any]
    version_before: int
    version_after: int
    created_at: datetime
    undone: bool


@dataclass(frozen=True)
class NewEntry:
    game_id: int
    character_id: int
    actor_user_id: int
    kind: str
    reason: str | None
    batch: str
    diff: list[Any]
    sheet_before: dict[str, Any]
    sheet_after: dict[str, Any]
    version_before: int
    version_after: int


def _dto(row: LedgerEntry) -> LedgerDTO:
    assert row.id is not None
    return LedgerDTO(
        row.id, row.game_id, row.character_id, row.actor_user_id, row.kind, row.reason,
        row.batch, list(row.diff), dict(row.sheet_before), dict(row.sheet_after),
        row.version_before, row.version_after, row.created_at, row.undone_at is not None,
    )  # fmt: skip


class LedgerRepo:
    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def add_many(self, entries: list[NewEntry]) -> None:
        """One INSERT for any number of entries (milestones write a whole table at once)."""
        if not entries:
            return
        await self._session.execute(insert(LedgerEntry).values([e.__dict__ for e in entries]))

    async def last_batch(self, game_id: int) -> list[LedgerDTO]:
        """The newest batch of the game that is not undone yet."""
        newest = (
            select(LedgerEntry.batch)
            .where(
                col(LedgerEntry.game_id) == game_id,
                col(LedgerEntry.undone_at).is_(None),
                col(LedgerEntry.kind) != "undo",
            )
            .order_by(col(LedgerEntry.id).desc())
            .limit(1)
            .scalar_subquery()
        )
        stmt = (
            select(LedgerEntry)
            .where(col(LedgerEntry.game_id) == game_id, col(LedgerEntry.batch) == newest)
            .order_by(col(LedgerEntry.id))
        )
        return [_dto(r) for r in (await self._session.execute(stmt)).scalars()]

    async def batch_entries(self, game_id: int, batch: str) -> list[LedgerDTO]:
        """The entries of one batch that are not undone yet (empty if undone or unknown)."""
        stmt = (
            select(LedgerEntry)
            .where(
                col(LedgerEntry.game_id) == game_id,
                col(LedgerEntry.batch) == batch,
                col(LedgerEntry.undone_at).is_(None),
            )
            .order_by(col(LedgerEntry.id))
        )
        return [_dto(r) for r in (await self._session.execute(stmt)).scalars()]

    async def mark_undone(self, batch: str) -> int:
        stmt = (
            update(LedgerEntry)
            .where(col(LedgerEntry.batch) == batch, col(LedgerEntry.undone_at).is_(None))
            .values(undone_at=utcnow())
        )
        result = await self._session.execute(stmt)
        return int(result.rowcount or 0)  # type: ignore[attr-defined]

    async def for_character(self, character_id: int, *, limit: int = 20) -> list[LedgerDTO]:
        stmt = (
            select(LedgerEntry)
            .where(col(LedgerEntry.character_id) == character_id)
            .order_by(col(LedgerEntry.id).desc())
            .limit(limit)
        )
        return [_dto(r) for r in (await self._session.execute(stmt)).scalars()]

    async def add_bulk(self, entries: list[NewEntry]) -> None:
        """Any number of entries in one statement of fixed shape (arrays, not a VALUES row
        per entry): a scheduled tick writes thousands at once."""
        if not entries:
            return
        dumps = json.dumps
        await self._session.execute(
            text(
                "INSERT INTO ledger (game_id, character_id, actor_user_id, kind, reason, batch, "
                "diff, sheet_before, sheet_after, version_before, version_after) "
                "SELECT v.game_id, v.character_id, v.actor_user_id, v.kind, v.reason, v.batch, "
                "CAST(v.diff AS jsonb), CAST(v.sheet_before AS jsonb), "
                "CAST(v.sheet_after AS jsonb), v.version_before, v.version_after "
                "FROM unnest(CAST(:game_ids AS integer[]), CAST(:character_ids AS integer[]), "
                "CAST(:actors AS bigint[]), CAST(:kinds AS text[]), CAST(:reasons AS text[]), "
                "CAST(:batches AS text[]), CAST(:diffs AS text[]), CAST(:befores AS text[]), "
                "CAST(:afters AS text[]), CAST(:versions_before AS integer[]), "
                "CAST(:versions_after AS integer[])) WITH ORDINALITY AS v(game_id, "
                "character_id, actor_user_id, kind, reason, batch, diff, sheet_before, "
                "sheet_after, version_before, version_after, n) ORDER BY v.n"
            ),
            {
                "game_ids": [e.game_id for e in entries],
                "character_ids": [e.character_id for e in entries],
                "actors": [e.actor_user_id for e in entries],
                "kinds": [e.kind for e in entries],
                "reasons": [e.reason for e in entries],
                "batches": [e.batch for e in entries],
                "diffs": [dumps(e.diff, ensure_ascii=False) for e in entries],
                "befores": [dumps(e.sheet_before, ensure_ascii=False) for e in entries],
                "afters": [dumps(e.sheet_after, ensure_ascii=False) for e in entries],
                "versions_before": [e.version_before for e in entries],
                "versions_after": [e.version_after for e in entries],
            },
        )
