"""Schedules of a game and their occurrences. Never commits."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, select, text, update
from sqlalchemy.dialects.postgresql import insert
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Game
from db.repositories.games import GameDTO
from db.schedule_models import Schedule, ScheduleOccurrence

CHANNEL = "schedules_changed"  # NOTIFY channel: the scheduler's leader re-reads the schedules


@dataclass(frozen=True)
class ScheduleDTO:
    id: int
    game_id: int
    kind: str
    weekday: int | None  # 0 = Monday … 6 = Sunday; None: every day
    minute_of_day: int
    remind_minutes: int | None
    grace_hours: int
    enabled: bool
    created_by: int
    created_at: datetime


@dataclass(frozen=True)
class ScheduledGame:
    """A schedule with what the scheduler needs of its game."""

    schedule: ScheduleDTO
    timezone: str
    chat_id: int


def _dto(row: Schedule) -> ScheduleDTO:
    assert row.id is not None
    return ScheduleDTO(
        row.id, row.game_id, row.kind, row.weekday, row.minute_of_day, row.remind_minutes,
        row.grace_hours, row.enabled, row.created_by, row.created_at,
    )  # fmt: skip


class ScheduleRepo:
    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def add(
        self, *, game_id: int, kind: str, weekday: int | None, minute_of_day: int,
        remind_minutes: int | None, created_by: int, created_at: datetime,
        grace_hours: int = 6,
    ) -> ScheduleDTO:  # fmt: skip
        row = Schedule(
            game_id=game_id, kind=kind, weekday=weekday, minute_of_day=minute_of_day,
            remind_minutes=remind_minutes, created_by=created_by, created_at=created_at,
            grace_hours=grace_hours,
        )  # fmt: skip
        self._session.add(row)
        await self._session.flush()
        return _dto(row)

    async def get(self, schedule_id: int) -> ScheduleDTO | None:
        row = await self._session.get(Schedule, schedule_id)
        return _dto(row) if row else None

    async def for_game(self, game_id: int) -> list[ScheduleDTO]:
        stmt = select(Schedule).where(col(Schedule.game_id) == game_id).order_by(col(Schedule.id))
        return [_dto(r) for r in (await self._session.execute(stmt)).scalars()]

    async def set_grace(self, game_id: int, hours: int) -> None:
        await self._session.execute(
            update(Schedule).where(col(Schedule.game_id) == game_id).values(grace_hours=hours)
        )

    async def count_for_game(self, game_id: int) -> int:
        stmt = select(func.count()).select_from(Schedule).where(col(Schedule.game_id) == game_id)
        return int((await self._session.execute(stmt)).scalar_one())

    async def delete(self, schedule_id: int, game_id: int) -> bool:
        stmt = (
            delete(Schedule)
            .where(col(Schedule.id) == schedule_id, col(Schedule.game_id) == game_id)
            .returning(col(Schedule.id))
        )
        return (await self._session.execute(stmt)).scalar_one_or_none() is not None

    async def active(self) -> list[ScheduledGame]:
        """Every enabled schedule of a live game (what the scheduler registers)."""
        stmt = (
            select(Schedule, col(Game.timezone), col(Game.chat_id))
            .join(Game, col(Game.id) == col(Schedule.game_id))
            .where(col(Schedule.enabled).is_(True), col(Game.archived_at).is_(None))
            .order_by(col(Schedule.id))
        )
        rows = (await self._session.execute(stmt)).all()
        return [ScheduledGame(_dto(r[0]), r[1], r[2]) for r in rows]

    async def last_occurrence(self, schedule_id: int) -> datetime | None:
        stmt = select(func.max(ScheduleOccurrence.occurrence_at)).where(
            col(ScheduleOccurrence.schedule_id) == schedule_id
        )
        return (await self._session.execute(stmt)).scalar_one_or_none()

    async def claim(
        self, schedule_id: int, occurrence_at: datetime, *, status: str, skipped: int = 0
    ) -> int | None:
        """Insert the occurrence row; None when it exists already (handled by someone else —
        a concurrent claim waits here until the other transaction ends)."""
        stmt = (
            insert(ScheduleOccurrence)
            .values(
                schedule_id=schedule_id,
                occurrence_at=occurrence_at,
                status=status,
                skipped=skipped,
            )
            .on_conflict_do_nothing(constraint="schedule_occurrences_once")
            .returning(col(ScheduleOccurrence.id))
        )
        return (await self._session.execute(stmt)).scalar_one_or_none()

    async def finish(self, occurrence_id: int, *, status: str, batch: str | None) -> None:
        await self._session.execute(
            update(ScheduleOccurrence)
            .where(col(ScheduleOccurrence.id) == occurrence_id)
            .values(status=status, batch=batch)
        )

    async def occurrences(self, schedule_id: int) -> list[tuple[datetime, str, int]]:
        stmt = (
            select(
                col(ScheduleOccurrence.occurrence_at),
                col(ScheduleOccurrence.status),
                col(ScheduleOccurrence.skipped),
            )
            .where(col(ScheduleOccurrence.schedule_id) == schedule_id)
            .order_by(col(ScheduleOccurrence.occurrence_at))
        )
        return [(r[0], r[1], r[2]) for r in (await self._session.execute(stmt)).all()]

    async def claim_reminder(self, schedule_id: int, occurrence_at: datetime) -> bool:
        """Once per occurrence: a conditional update a second run finds done."""
        stmt = (
            update(Schedule)
            .where(
                col(Schedule.id) == schedule_id,
                col(Schedule.enabled).is_(True),
                (col(Schedule.reminded_for).is_(None))
                | (col(Schedule.reminded_for) < occurrence_at),
            )
            .values(reminded_for=occurrence_at)
            .returning(col(Schedule.id))
        )
        return (await self._session.execute(stmt)).scalar_one_or_none() is not None

    async def notify_changed(self) -> None:
        """Delivered at commit to the scheduler's leader (any process)."""
        await self._session.execute(text(f"NOTIFY {CHANNEL}"))


# --- many schedules at one tick (set-based: a statement per batch, not per game) ------------


@dataclass(frozen=True)
class DueScheduleRow:
    """A schedule with its game, the game's chat language and its last occurrence handled."""

    schedule: ScheduleDTO
    game: GameDTO
    chat_locale: str | None
    last_occurrence: datetime | None


@dataclass(frozen=True)
class NewOccurrence:
    schedule_id: int
    occurrence_at: datetime
    status: str
    skipped: int = 0


class ScheduleBatchRepo:
    """The statements of a scheduled tick over many games; each handles a whole batch."""

    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def due_rows(self, schedule_ids: list[int]) -> list[DueScheduleRow]:
        """The enabled schedules among ``schedule_ids`` of live games, in id order."""
        rows = await self._session.execute(
            text(
                "SELECT s.id, s.game_id, s.kind, s.weekday, s.minute_of_day, s.remind_minutes, "
                "s.grace_hours, s.enabled, s.created_by, s.created_at, "
                "g.chat_id, g.system, g.title, g.gm_user_id, g.options, g.timezone, c.locale, "
                "(SELECT max(o.occurrence_at) FROM schedule_occurrences o "
                " WHERE o.schedule_id = s.id), g.thread_id "
                "FROM schedules s JOIN games g ON g.id = s.game_id "
                "LEFT JOIN chats c ON c.id = g.chat_id "
                "WHERE s.id = ANY(CAST(:ids AS integer[])) AND s.enabled "
                # a held game's schedules wait (``bot/delivery.py``): what falls due
                # meanwhile is handled when it is released, as after downtime
                "AND g.archived_at IS NULL AND g.held IS NULL ORDER BY s.id"
            ),
            {"ids": schedule_ids},
        )
        return [
            DueScheduleRow(
                ScheduleDTO(*r[:10]),
                GameDTO(r[1], r[10], r[11], r[12], r[13], dict(r[14] or {}), r[15], False, r[18]),
                r[16],
                r[17],
            )
            for r in rows
        ]

    async def claim_many(self, claims: list[NewOccurrence]) -> dict[tuple[int, datetime], int]:
        """Insert the occurrence rows in one statement, in (schedule, instant) order so two
        concurrent claims of overlapping sets queue instead of deadlocking; an existing row
        (handled, or being handled, by someone else: the insert waits for that transaction)
        is left out. (schedule id, instant) → occurrence id of the rows inserted."""
        if not claims:
            return {}
        ordered = sorted(claims, key=lambda c: (c.schedule_id, c.occurrence_at))
        rows = await self._session.execute(
            text(
                "INSERT INTO schedule_occurrences (schedule_id, occurrence_at, status, skipped) "
                "SELECT v.schedule_id, v.occurrence_at, v.status, v.skipped "
                "FROM unnest(CAST(:sids AS integer[]), CAST(:ats AS timestamptz[]), "
                "CAST(:statuses AS text[]), CAST(:skipped AS integer[])) WITH ORDINALITY "
                "AS v(schedule_id, occurrence_at, status, skipped, n) ORDER BY n "
                "ON CONFLICT ON CONSTRAINT schedule_occurrences_once DO NOTHING "
                "RETURNING schedule_id, occurrence_at, id"
            ),
            {
                "sids": [c.schedule_id for c in ordered],
                "ats": [c.occurrence_at for c in ordered],
                "statuses": [c.status for c in ordered],
                "skipped": [c.skipped for c in ordered],
            },
        )
        return {(r[0], r[1]): r[2] for r in rows}

    async def release(self, occurrence_ids: list[int]) -> None:
        """Take back rows this transaction inserted (a schedule only partly claimed)."""
        if occurrence_ids:
            await self._session.execute(
                text("DELETE FROM schedule_occurrences WHERE id = ANY(CAST(:ids AS integer[]))"),
                {"ids": occurrence_ids},
            )

    async def finish_many(self, finished: list[tuple[int, str, str | None]]) -> None:
        """(occurrence id, status, ledger batch) for each applied occurrence, one statement."""
        if not finished:
            return
        await self._session.execute(
            text(
                "UPDATE schedule_occurrences AS o SET status = v.status, batch = v.batch "
                "FROM unnest(CAST(:ids AS integer[]), CAST(:statuses AS text[]), "
                "CAST(:batches AS text[])) AS v(id, status, batch) WHERE o.id = v.id"
            ),
            {
                "ids": [f[0] for f in finished],
                "statuses": [f[1] for f in finished],
                "batches": [f[2] for f in finished],
            },
        )
