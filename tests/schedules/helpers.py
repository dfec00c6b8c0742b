"""A fate table with a scheduled milestone, a controllable clock, and the jobs' context."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import text

from bot.i18n import I18n
from bot.jobs import JobContext
from db.database import create_session_factory
from db.uow import UnitOfWork
from engine.systems import fate
from handlers.views import job_notices
from tests.conftest import Harness
from tests.games.helpers import ALICE, GROUP
from tests.helpers.table import insert_character


@dataclass
class Clock:
    at: datetime

    def __call__(self) -> datetime:
        return self.at


async def set_timezone(h: Harness, zone: str) -> None:
    async with h.engine.begin() as conn:
        await conn.execute(
            text("UPDATE games SET timezone = :z WHERE chat_id = :chat"),
            {"z": zone, "chat": GROUP},
        )


async def insert_fate_character(h: Harness, *, fate_points: int, refresh: int) -> int:
    """An active character of ALICE, straight into the table."""
    sheet = fate.new_character("Мира").model_copy(
        update={"fate_points": fate_points, "refresh": refresh}
    )
    return await insert_character(h, "fate", sheet, owner=ALICE)


async def fate_points(h: Harness, character_id: int) -> int:
    async with h.engine.connect() as conn:
        row = await conn.execute(
            text("SELECT (sheet->>'fate_points')::int FROM characters WHERE id = :id"),
            {"id": character_id},
        )
        return int(row.scalar_one())


async def occurrences(h: Harness, schedule_id: int) -> list[tuple[datetime, str, int]]:
    from db.repositories.schedules import ScheduleRepo

    async with UnitOfWork(create_session_factory(h.engine)) as uow:
        return await ScheduleRepo(uow.session).occurrences(schedule_id)


def job_context(h: Harness, clock: Clock) -> JobContext:
    assert h.runtime is not None
    return JobContext(
        create_session_factory(h.engine), h.runtime.bot, I18n("ru"), clock, views=job_notices
    )
