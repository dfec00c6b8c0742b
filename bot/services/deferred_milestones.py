"""Scheduled milestones that waited for a fight or scene (issue 24 item 4).

``schedules.run``/``run_batch`` claim an occurrence as ``deferred`` while the game has an open
fight, conflict or scene (a milestone would clear stress and consequences mid-fight). Once it
has ended, ``resume`` applies each such occurrence exactly once: a conditional update takes it
(deferred → applied) in the transaction that applies the milestone, so two runs, or a run
repeated after a crash, cannot apply it twice.
"""

from __future__ import annotations

import logging
from typing import Final

from bot.services import milestones
from bot.services.schedules import Fired, _apply
from db.repositories.deferred import DeferredRepo, Waiting
from db.repositories.schedules import ScheduleRepo
from db.uow import UnitOfWork

logger = logging.getLogger(__name__)

BATCH: Final = 50  # occurrences looked at per run (each is its own transaction)


async def ready(uow: UnitOfWork) -> list[Waiting]:
    """The deferred occurrences whose fight or scene has ended."""
    found = await DeferredRepo(uow.session).ready(BATCH)
    await uow.rollback()  # a read only: the applies below each take their own transaction
    return found


async def resume_one(uow: UnitOfWork, waiting: Waiting) -> Fired | None:
    """Apply one waiting occurrence, once; commits. None: another run took it."""
    repo = DeferredRepo(uow.session)
    taken = await repo.take(waiting.occurrence_id)
    if not taken or await repo.busy_games([waiting.game.id]):  # taken, or a new fight began
        await uow.rollback()
        return None
    try:
        applied = await _apply(uow, waiting.game, waiting.schedule, waiting.occurrence_id)
    except milestones.MilestoneRefused as refused:
        logger.warning("deferred occurrence %s refused: %s", waiting.occurrence_id, refused)
        await uow.rollback()
        await repo.give_up(waiting.occurrence_id)
        await uow.commit()
        return None
    await ScheduleRepo(uow.session).finish(
        waiting.occurrence_id, status="empty" if applied.plan.empty else "applied",
        batch=applied.batch,
    )  # fmt: skip
    await uow.commit()
    return Fired(
        waiting.game, waiting.schedule, waiting.occurrence_at, applied, False, 0, None,
        waiting.chat_locale, resumed=True,
    )  # fmt: skip
