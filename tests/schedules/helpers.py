"""A fate table with a scheduled milestone, a controllable clock, and the jobs' context."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import text

from bot.i18n import I18n
from bot.jobs import JobContext
from bot.systems import SYSTEMS
from db.database import create_session_factory
from db.uow import UnitOfWork
from engine.systems import fate
from tests.conftest import Harness
from tests.games.helpers import ALICE, GROUP


@dataclass
class Clock:
    at: datetime

    def __call__(self) -> datetime:
        return self.at


async def game_id(h: Harness) -> int:
    async with h.engine.connect() as conn:
        row = await conn.execute(
            text("SELECT id FROM games WHERE chat_id = :chat AND archived_at IS NULL"),
            {"chat": GROUP},
        )
        return int(row.scalar_one())


async def set_timezone(h: Harness, zone: str) -> None:
    async with h.engine.begin() as conn:
        await conn.execute(
            text("UPDATE games SET timezone = :z WHERE chat_id = :chat"),
            {"z": zone, "chat": GROUP},
        )


async def insert_fate_character(h: Harness, *, fate_points: int, refresh: int) -> int:
    """An active character of ALICE, straight into the table."""
    gid = await game_id(h)
    sheet = fate.new_character("Мира").model_copy(
        update={"fate_points": fate_points, "refresh": refresh}
    )
    async with h.engine.begin() as conn:
        await conn.execute(
            text(
                "INSERT INTO game_members (game_id, user_id, role) VALUES (:g, :u, 'player') "
                "ON CONFLICT DO NOTHING"
            ),
            {"g": gid, "u": ALICE},
        )
        row = await conn.execute(
            text(
                "INSERT INTO characters (game_id, owner_user_id, is_npc, system, name, status, "
                "sheet, schema_version, version) VALUES (:g, :u, false, 'fate', 'Мира', "
                "'active', CAST(:sheet AS jsonb), :schema, 1) RETURNING id"
            ),
            {
                "g": gid, "u": ALICE, "sheet": sheet.model_dump_json(),
                "schema": SYSTEMS["fate"].schema_version,
            },
        )  # fmt: skip
        return int(row.scalar_one())


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
    return JobContext(create_session_factory(h.engine), h.runtime.bot, I18n("ru"), clock)
