"""The ledger of character changes (append; an undo only stamps ``undone_at``)."""

from __future__ import annotations

from collections.abc import Iterable
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
    asked_by_user_id: int | None = None  # a granted request: who asked


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
    asked_by_user_id: int | None = None  # a granted request: who asked


def _dto(row: LedgerEntry) -> LedgerDTO:
    assert row.id is not None
    return LedgerDTO(
        row.id, row.game_id, row.character_id, row.actor_user_id, row.kind, row.reason,
        row.batch, list(row.diff), dict(row.sheet_before), dict(row.sheet_after),
        row.version_before, row.version_after, row.created_at, row.undone_at is not None,
        row.asked_by_user_id,
    )  # fmt: skip


class LedgerRepo:
    def __init__(self, session: AsyncSession) -> None:
        self._session = session
        # the characters this unit's entries changed: once it commits, their live panels
        # are redrawn (``bot.panels``)
        self.changed: set[int] = set()

    def note_changed(self, character_ids: Iterable[int]) -> None:
        """Entries written past this repository (``SheetBatchRepo``) changed these too."""
        self.changed.update(character_ids)

    async def add_many(self, entries: list[NewEntry]) -> None:
        """One INSERT for any number of entries (milestones write a whole table at once)."""
        if not entries:
            return
        self.changed.update(e.character_id for e in entries)
        await self._session.execute(insert(LedgerEntry).values([e.__dict__ for e in entries]))

    async def batch_entries(self, game_id: int, batch: str) -> list[LedgerDTO]:
        """Every entry of one batch of the game, undone or not (empty if unknown); read afresh,
        not from the session's identity map, so a second read sees a concurrent undo."""
        stmt = (
            select(LedgerEntry)
            .where(col(LedgerEntry.game_id) == game_id, col(LedgerEntry.batch) == batch)
            .order_by(col(LedgerEntry.id))
        )
        result = await self._session.execute(stmt, execution_options={"populate_existing": True})
        return [_dto(r) for r in result.scalars()]

    async def produced(self, game_id: int, character_id: int, version: int) -> LedgerDTO | None:
        """The entry that made ``version`` of the character (None: no ledger change did)."""
        stmt = select(LedgerEntry).where(
            col(LedgerEntry.game_id) == game_id,
            col(LedgerEntry.character_id) == character_id,
            col(LedgerEntry.version_after) == version,
        )
        row = (await self._session.execute(stmt.limit(1))).scalar_one_or_none()
        return _dto(row) if row is not None else None

    async def claim_undo(self, game_id: int, batch: str) -> int:
        """Stamp the batch undone unless it already is; how many entries this call stamped.
        Concurrent claims of one batch queue on its rows and the later one stamps none."""
        stmt = (
            update(LedgerEntry)
            .where(
                col(LedgerEntry.game_id) == game_id,
                col(LedgerEntry.batch) == batch,
                col(LedgerEntry.undone_at).is_(None),
                col(LedgerEntry.kind) != "undo",
            )
            .values(undone_at=utcnow())
            .returning(col(LedgerEntry.id))
        )
        return len((await self._session.execute(stmt)).all())

    async def for_character(self, character_id: int, *, limit: int = 20) -> list[LedgerDTO]:
        stmt = (
            select(LedgerEntry)
            .where(col(LedgerEntry.character_id) == character_id)
            .order_by(col(LedgerEntry.id).desc())
            .limit(limit)
        )
        return [_dto(r) for r in (await self._session.execute(stmt)).scalars()]
