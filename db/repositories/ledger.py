"""The ledger of character changes (append; an undo only stamps ``undone_at``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
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
