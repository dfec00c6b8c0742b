"""A scheduled milestone is one transaction: its occurrence rows, its rolls, its sheets and
ledger entries and the occurrence's outcome commit together or not at all. A save that fails
midway leaves nothing behind, so the next run applies the milestone, once."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot import jobs
from bot.services import schedules as service
from db.database import create_session_factory
from db.uow import UnitOfWork
from engine.systems import cliche
from tests.conftest import Harness
from tests.games.helpers import ALICE, GM, GROUP, create_game, seat_table
from tests.helpers.table import insert_character
from tests.schedules.helpers import Clock, job_context

CREATED = datetime(2027, 5, 3, 12, tzinfo=UTC)  # a Monday
DUE = datetime(2027, 5, 4, 9, tzinfo=UTC)  # daily at 09:00 UTC (the game's default zone)


async def _count(engine: AsyncEngine, sql: str, **params: object) -> int:
    async with engine.connect() as conn:
        return int((await conn.execute(text(sql), params)).scalar_one())


async def _state(h: Harness, schedule_id: int, character_id: int) -> dict[str, object]:
    """Everything a scheduled milestone writes."""
    e = h.engine
    sid, cid = schedule_id, character_id
    return {
        "occurrences": await _count(
            e, "SELECT count(*) FROM schedule_occurrences WHERE schedule_id = :s", s=sid
        ),
        "applied": await _count(
            e,
            "SELECT count(*) FROM schedule_occurrences WHERE schedule_id = :s "
            "AND status = 'applied'",
            s=sid,
        ),
        "batched": await _count(
            e,
            "SELECT count(*) FROM schedule_occurrences WHERE schedule_id = :s "
            "AND batch IS NOT NULL",
            s=sid,
        ),
        "rolls": await _count(e, "SELECT count(*) FROM rolls WHERE roll_id LIKE 'ms:%'"),
        "ledger": await _count(e, "SELECT count(*) FROM ledger WHERE character_id = :c", c=cid),
        "version": await _count(e, "SELECT version FROM characters WHERE id = :c", c=cid),
    }


async def _cliche_table(h: Harness) -> tuple[int, int]:
    """A cliché game whose end-of-adventure milestone rolls one advancement (its dice go
    through the roll log: the schedule is run on its own, by ``service.run``)."""
    seat_table(h)
    await create_game(h, "cliche", "Одна транзакция")
    hero = cliche.Character(name="Кэп", cliches=(cliche.Cliche(name="Солдат", dice=2),))
    cid = await insert_character(h, "cliche", hero, owner=ALICE)
    async with UnitOfWork(create_session_factory(h.engine)) as uow:
        game = await uow.games.live_for_chat(GROUP)
        assert game is not None
        schedule = await service.create(
            uow, game, kind=cliche.MilestoneKind.END_OF_ADVENTURE.value, weekday=None,
            minute_of_day=9 * 60, remind_minutes=None, created_by=GM, now=lambda: CREATED,
        )  # fmt: skip
    return schedule.id, cid


async def _refuse_finishing(engine: AsyncEngine, *, on: bool) -> None:
    """The database refuses to record an occurrence's outcome: the last write of the run."""
    async with engine.begin() as conn:
        if on:
            await conn.execute(
                text(
                    "CREATE FUNCTION test_layout_fault() RETURNS trigger LANGUAGE plpgsql AS $$ "
                    "BEGIN RAISE EXCEPTION 'fault'; END $$"
                )
            )
            await conn.execute(
                text(
                    "CREATE TRIGGER test_layout_fault BEFORE UPDATE ON schedule_occurrences "
                    "FOR EACH ROW EXECUTE FUNCTION test_layout_fault()"
                )
            )
        else:
            await conn.execute(text("DROP TRIGGER test_layout_fault ON schedule_occurrences"))
            await conn.execute(text("DROP FUNCTION test_layout_fault()"))


async def test_a_scheduled_milestone_failing_midway_leaves_nothing(running: Harness) -> None:
    h = running
    sid, cid = await _cliche_table(h)
    before = await _state(h, sid, cid)
    assert before == {
        "occurrences": 0, "applied": 0, "batched": 0, "rolls": 0, "ledger": 0, "version": 1
    }  # fmt: skip
    ctx = job_context(h, Clock(DUE.replace(second=1)))
    sent = len(h.emu.bot_messages(GROUP))

    await _refuse_finishing(h.engine, on=True)
    try:
        await jobs.fire_schedules([sid], context=ctx)  # the failure is logged, not raised
    finally:
        await _refuse_finishing(h.engine, on=False)
    # The roll, the sheet, the ledger entry and the occurrence's claim were all written
    # before the refused update: none of them stayed, and no notice went out.
    assert await _state(h, sid, cid) == before
    assert len(h.emu.bot_messages(GROUP)) == sent

    # Nothing was claimed, so the next run (a restart's catch-up) applies it, once.
    await jobs.catch_up(context=ctx)
    await jobs.catch_up(context=ctx)
    after = await _state(h, sid, cid)
    assert after["occurrences"] == after["applied"] == after["rolls"] == 1
    # The roll advances the cliché or not (its dice are the log's): either way the sheet, its
    # ledger entry and the batch the occurrence names (the notice's undo) agree.
    assert after["ledger"] == after["batched"] == after["version"] - 1 in (0, 1)
    notices = h.emu.bot_messages(GROUP)[sent:]
    assert len(notices) == 1 and "Солдат" in notices[0].text
