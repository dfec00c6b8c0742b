"""Roll-request deadlines: nudge the player once before, tell the GM once when it passes.

Run by the scheduler's leader every minute (``bot.jobs:request_deadlines``); each nudge and
each overdue notice is claimed with a conditional update, so a restart, a second process or a
repeated run never sends one twice.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from db.repositories.requests import RequestDTO
from db.uow import UnitOfWork

NUDGE_BEFORE = timedelta(hours=1)


async def due(uow: UnitOfWork, now: datetime) -> tuple[list[RequestDTO], list[RequestDTO]]:
    """(requests to nudge, requests now overdue), both claimed; commits."""
    nudges = await uow.requests.claim_nudges(now, NUDGE_BEFORE)
    overdue = await uow.requests.claim_overdue(now)
    await uow.commit()
    return nudges, overdue
