"""Scheduled milestones that wait for a fight or scene to end (issue 24 item 4). Never
commits."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import text
from sqlmodel.ext.asyncio.session import AsyncSession

from db.repositories.games import GameDTO
from db.repositories.schedules import ScheduleDTO

DEFERRED = "deferred"


@dataclass(frozen=True)
class Waiting:
    """A deferred occurrence whose game's fight or scene has ended."""

    occurrence_id: int
    occurrence_at: datetime
    schedule: ScheduleDTO
    game: GameDTO
    chat_locale: str | None


class DeferredRepo:
    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def busy_games(self, game_ids: list[int]) -> set[int]:
        """The games among ``game_ids`` with an open fight, conflict or scene."""
        if not game_ids:
            return set()
        rows = await self._session.execute(
            text(
                "SELECT DISTINCT game_id FROM trackers WHERE status = 'open' AND exclusive "
                "AND game_id = ANY(CAST(:ids AS integer[]))"
            ),
            {"ids": game_ids},
        )
        return {int(r[0]) for r in rows}

    async def ready(self, limit: int) -> list[Waiting]:
        """Deferred occurrences of live games with no open fight or scene, oldest first."""
        rows = await self._session.execute(
            text(
                "SELECT o.id, o.occurrence_at, s.id, s.game_id, s.kind, s.weekday, "
                "s.minute_of_day, s.remind_minutes, s.grace_hours, s.enabled, s.created_by, "
                "s.created_at, g.chat_id, g.system, g.title, g.gm_user_id, g.options, "
                "g.timezone, c.locale, g.thread_id "
                "FROM schedule_occurrences o JOIN schedules s ON s.id = o.schedule_id "
                "JOIN games g ON g.id = s.game_id LEFT JOIN chats c ON c.id = g.chat_id "
                "WHERE o.status = 'deferred' AND g.archived_at IS NULL AND g.held IS NULL "
                "AND NOT EXISTS ("
                " SELECT 1 FROM trackers t WHERE t.game_id = g.id AND t.status = 'open' "
                " AND t.exclusive) "
                "ORDER BY o.id LIMIT :limit"
            ),
            {"limit": limit},
        )
        return [
            Waiting(
                r[0], r[1], ScheduleDTO(*r[2:12]),
                GameDTO(
                    r[3], r[12], r[13], r[14], r[15], dict(r[16] or {}), r[17], False, r[19]
                ),
                r[18],
            )
            for r in rows
        ]  # fmt: skip

    async def take(self, occurrence_id: int) -> bool:
        """Deferred → applied, once however many runs: the winner applies the milestone in
        this transaction (a concurrent run waits on the row, then finds it taken)."""
        row = await self._session.execute(
            text(
                "UPDATE schedule_occurrences SET status = 'applied' "
                "WHERE id = :id AND status = 'deferred' RETURNING id"
            ),
            {"id": occurrence_id},
        )
        return row.scalar_one_or_none() is not None

    async def give_up(self, occurrence_id: int) -> None:
        await self._session.execute(
            text("UPDATE schedule_occurrences SET status = 'failed' WHERE id = :id"),
            {"id": occurrence_id},
        )
