"""Scheduled milestones: the schedules (the source of truth for the scheduler's jobs) and one
row per occurrence handled, unique per (schedule, instant) — the exactly-once key."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    SmallInteger,
    String,
    UniqueConstraint,
    func,
    text,
)
from sqlmodel import Field, SQLModel


class Schedule(SQLModel, table=True):
    __tablename__ = "schedules"
    __table_args__ = (
        CheckConstraint("weekday IS NULL OR weekday BETWEEN 0 AND 6", name="schedules_weekday"),
        CheckConstraint("minute_of_day BETWEEN 0 AND 1439", name="schedules_minute"),
        CheckConstraint(
            "remind_minutes IS NULL OR remind_minutes BETWEEN 1 AND 1440", name="schedules_remind"
        ),
        CheckConstraint("grace_hours BETWEEN 0 AND 168", name="schedules_grace"),
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(
        sa_column=Column(Integer, ForeignKey("games.id"), nullable=False, index=True)
    )
    kind: str = Field(sa_column=Column(String(32), nullable=False))
    weekday: int | None = Field(default=None, sa_column=Column(SmallInteger))  # None: daily
    minute_of_day: int = Field(sa_column=Column(Integer, nullable=False))
    remind_minutes: int | None = Field(default=None, sa_column=Column(Integer))
    grace_hours: int = Field(
        default=6, sa_column=Column(Integer, nullable=False, server_default=text("6"))
    )
    enabled: bool = Field(
        default=True, sa_column=Column(Boolean, nullable=False, server_default=text("true"))
    )
    created_by: int = Field(sa_column=Column(BigInteger, nullable=False))
    created_at: datetime = Field(
        sa_column=Column(DateTime(timezone=True), nullable=False, server_default=func.now())
    )
    # The occurrence the last reminder was posted for (a reminder goes out once).
    reminded_for: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True)))


class ScheduleOccurrence(SQLModel, table=True):
    __tablename__ = "schedule_occurrences"
    __table_args__ = (
        UniqueConstraint("schedule_id", "occurrence_at", name="schedule_occurrences_once"),
        CheckConstraint(
            "status IN ('applied', 'empty', 'skipped', 'failed', 'deferred')",
            name="schedule_occurrences_status",
        ),
        Index(
            "schedule_occurrences_deferred",
            "id",
            postgresql_where=text("status = 'deferred'"),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    schedule_id: int = Field(
        sa_column=Column(Integer, ForeignKey("schedules.id", ondelete="CASCADE"), nullable=False)
    )
    occurrence_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
    status: str = Field(sa_column=Column(String(16), nullable=False))
    skipped: int = Field(
        default=0, sa_column=Column(Integer, nullable=False, server_default=text("0"))
    )
    batch: str | None = Field(default=None, sa_column=Column(String(64)))
    created_at: datetime = Field(
        sa_column=Column(DateTime(timezone=True), nullable=False, server_default=func.now())
    )
