"""Export and import: a game's whole ledger, the import claims (one per game and file), and
ledger rows carried over from a file with their own times."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.dialects.postgresql import insert
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from db.import_models import ImportRecord
from db.models import GameData, LedgerEntry
from db.schedule_models import Schedule

_CHUNK = 1000


def _entry(row: LedgerEntry) -> dict[str, Any]:
    return {
        "character": row.character_id, "actor_user_id": row.actor_user_id, "kind": row.kind,
        "reason": row.reason, "batch": row.batch, "diff": list(row.diff),
        "sheet_before": dict(row.sheet_before), "sheet_after": dict(row.sheet_after),
        "version_before": row.version_before, "version_after": row.version_after,
        "created_at": row.created_at.isoformat(), "undone": row.undone_at is not None,
    }  # fmt: skip


class TransferRepo:
    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def ledger(
        self, game_id: int, *, character_id: int | None = None, limit: int
    ) -> list[dict[str, Any]]:
        """The game's ledger (or one character's), oldest first, as export entries."""
        stmt = select(LedgerEntry).where(col(LedgerEntry.game_id) == game_id)
        if character_id is not None:
            stmt = stmt.where(col(LedgerEntry.character_id) == character_id)
        stmt = stmt.order_by(col(LedgerEntry.id)).limit(limit)
        return [_entry(r) for r in (await self._session.execute(stmt)).scalars()]

    async def claim(self, game_id: int, content_hash: str, kind: str, user_id: int) -> bool:
        """Record the file as imported into the game; False when it already was (the unique
        key decides, so two imports at once create one)."""
        stmt = (
            insert(ImportRecord)
            .values(game_id=game_id, content_hash=content_hash, kind=kind, user_id=user_id)
            .on_conflict_do_nothing(index_elements=["game_id", "content_hash"])
            .returning(col(ImportRecord.id))
        )
        return (await self._session.execute(stmt)).scalar_one_or_none() is not None

    async def game_data(self, game_id: int) -> dict[str, Any]:
        """The game's named documents (``game_data``), by key."""
        stmt = select(GameData).where(col(GameData.game_id) == game_id).order_by(col(GameData.key))
        return {row.key: row.value for row in (await self._session.execute(stmt)).scalars()}

    async def disable_schedule(self, schedule_id: int) -> None:
        await self._session.execute(
            update(Schedule).where(col(Schedule.id) == schedule_id).values(enabled=False)
        )

    async def add_ledger(self, game_id: int, rows: list[dict[str, Any]]) -> None:
        """Ledger entries from a file, character ids already mapped to this game's."""
        if not rows:
            return
        values = [
            {
                "game_id": game_id,
                "character_id": r["character"],
                "actor_user_id": r["actor_user_id"],
                "kind": r["kind"],
                "reason": r["reason"],
                "batch": r["batch"],
                "diff": r["diff"],
                "sheet_before": r["sheet_before"],
                "sheet_after": r["sheet_after"],
                "version_before": r["version_before"],
                "version_after": r["version_after"],
                "created_at": r["created_at"],
                "undone_at": r["created_at"] if r["undone"] else None,
            }
            for r in rows
        ]
        for start in range(0, len(values), _CHUNK):  # a statement holds at most 32,767 params
            await self._session.execute(insert(LedgerEntry).values(values[start : start + _CHUNK]))


def parse_time(text: str, default: datetime) -> datetime:
    """An ISO-8601 time from a file; ``default`` when it is not one (or has no zone)."""
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        return default
    return parsed if parsed.tzinfo is not None else default
