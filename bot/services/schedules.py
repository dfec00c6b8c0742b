"""Scheduled milestones: the GM's schedules, and what a job does when one comes due.

The schedules table is the source of truth; the scheduler's jobs only say "look at schedule N
now". ``run`` finds the occurrences due since the last one handled (or since the schedule was
made) with the same ``CronTrigger`` the job runs on, in the game's time zone, and

* applies the latest one if it is within the schedule's grace (late if it is not fresh),
* records the older ones (or all, past the grace) as one "skipped" row to report in one line.

The occurrence rows are inserted in the same transaction as the milestone's changes, under a
unique key (schedule, instant): a second run — a restart, a misfire, another process — waits
for the first at the insert and then finds the occurrence taken, so it is applied exactly once.
The clock is injected (``now``) so tests control time.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Final
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from apscheduler.triggers.cron import CronTrigger

from bot.i18n import N_
from bot.services import milestones
from db.repositories.deferred import DEFERRED, DeferredRepo
from db.repositories.games import GameDTO
from db.repositories.schedules import (
    DueScheduleRow,
    NewOccurrence,
    ScheduleBatchRepo,
    ScheduleDTO,
    ScheduleRepo,
)
from db.uow import UnitOfWork

logger = logging.getLogger(__name__)

Clock = Callable[[], datetime]

ACTOR_NAME: Final = "⏰"
LATE_AFTER: Final = timedelta(minutes=5)  # a run later than this says so in the notice
MAX_SCAN: Final = 10_000  # occurrences looked at after a very long downtime
MAX_PER_GAME: Final = 10
PRESET_MINUTES: Final = (9 * 60, 12 * 60, 18 * 60, 21 * 60)
REMIND_MINUTES: Final = 60
CRON_DAYS: Final = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
APPLY_ATTEMPTS: Final = 3


def utcnow() -> datetime:
    return datetime.now(UTC)


class ScheduleRefused(Exception):
    """A refused schedule action; ``reason`` is a msgid."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        logger.warning("unknown time zone %r: using UTC", name)
        return ZoneInfo("UTC")


def trigger(schedule: ScheduleDTO, timezone: str) -> CronTrigger:
    """The schedule's cron trigger in the game's time zone (DST-correct wall-clock times)."""
    hour, minute = divmod(schedule.minute_of_day, 60)
    day = "*" if schedule.weekday is None else CRON_DAYS[schedule.weekday]
    return CronTrigger(day_of_week=day, hour=hour, minute=minute, timezone=zone(timezone))


def _repeated(at: datetime) -> bool:
    """The second pass of a wall-clock time when the clocks go back: not a new occurrence."""
    return at.fold == 1 and at.replace(fold=0).utcoffset() != at.utcoffset()


def occurrences(
    cron: CronTrigger, after: datetime, until: datetime, *, limit: int = MAX_SCAN
) -> list[datetime]:
    """The trigger's fire times in (after, until], in UTC, oldest first."""
    found: list[datetime] = []
    current = cron.get_next_fire_time(None, after + timedelta(microseconds=1))
    while current is not None and current <= until and len(found) < limit:
        if not _repeated(current):
            found.append(current.astimezone(UTC))
        current = cron.get_next_fire_time(current, current)
    return found


def next_occurrence(schedule: ScheduleDTO, timezone: str, now: datetime) -> datetime | None:
    found = occurrences(trigger(schedule, timezone), now, now + timedelta(days=8), limit=1)
    return found[0] if found else None


# --- the GM's schedules ----------------------------------------------------------------------


MAX_GRACE_HOURS = 168
DEFAULT_GRACE_HOURS = 6


async def set_grace(uow: UnitOfWork, game: GameDTO, hours: int) -> int:
    """How late a missed milestone may still be applied after downtime, for all the game's
    schedules (0..168 hours); commits."""
    hours = max(0, min(MAX_GRACE_HOURS, hours))
    await ScheduleRepo(uow.session).set_grace(game.id, hours)
    await uow.commit()
    return hours


async def list_for(uow: UnitOfWork, game: GameDTO) -> list[ScheduleDTO]:
    return await ScheduleRepo(uow.session).for_game(game.id)


async def create(
    uow: UnitOfWork, game: GameDTO, *, kind: str, weekday: int | None, minute_of_day: int,
    remind_minutes: int | None, created_by: int, now: Clock = utcnow,
) -> ScheduleDTO:  # fmt: skip
    """A new schedule; commits (and wakes the scheduler's leader, in whatever process)."""
    if kind not in milestones.kinds(game.system):
        raise ScheduleRefused(N_("No such milestone in this game."))
    if (weekday is not None and not 0 <= weekday <= 6) or not 0 <= minute_of_day < 24 * 60:
        raise ScheduleRefused(N_("This button is no longer active."))
    if remind_minutes is not None and not 1 <= remind_minutes <= 24 * 60:
        raise ScheduleRefused(N_("This button is no longer active."))
    repo = ScheduleRepo(uow.session)
    if await repo.count_for_game(game.id) >= MAX_PER_GAME:
        raise ScheduleRefused(N_("A game can have at most 10 schedules; delete one first."))
    existing = await repo.for_game(game.id)
    grace = existing[0].grace_hours if existing else DEFAULT_GRACE_HOURS  # the game's setting
    schedule = await repo.add(
        game_id=game.id, kind=kind, weekday=weekday, minute_of_day=minute_of_day,
        remind_minutes=remind_minutes, created_by=created_by, created_at=now(),
        grace_hours=grace,
    )  # fmt: skip
    await repo.notify_changed()
    await uow.commit()
    return schedule


async def delete(uow: UnitOfWork, game: GameDTO, schedule_id: int) -> None:
    """Only a schedule of this game; commits."""
    repo = ScheduleRepo(uow.session)
    if not await repo.delete(schedule_id, game.id):
        raise ScheduleRefused(N_("This schedule is already deleted."))
    await repo.notify_changed()
    await uow.commit()


# --- firing ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fired:
    """What one run did: the milestone applied (maybe late) and the occurrences skipped."""

    game: GameDTO
    schedule: ScheduleDTO
    occurrence_at: datetime | None  # the one applied (None: all were past the grace)
    applied: milestones.Applied | None
    late: bool
    skipped: int
    skipped_last: datetime | None
    chat_locale: str | None = None  # the chat's language, when read with the schedule
    # Waiting for the game's open fight or scene to end (claimed, not applied yet).
    deferred: bool = False
    # Applied now, after waiting for a fight or scene to end.
    resumed: bool = False

    @property
    def empty(self) -> bool:
        return self.applied is not None and self.applied.plan.empty


@dataclass(frozen=True)
class Reminder:
    game: GameDTO
    schedule: ScheduleDTO
    occurrence_at: datetime


async def run(uow: UnitOfWork, schedule_id: int, *, now: Clock = utcnow) -> Fired | None:
    """Handle what is due of the schedule (see the module's docstring); safe to run any
    number of times, concurrently too. Commits once: the occurrences claimed, the milestone
    and the occurrence's outcome together, or nothing. None: nothing to do."""
    repo = ScheduleRepo(uow.session)
    schedule = await repo.get(schedule_id)
    if schedule is None or not schedule.enabled:
        return None
    game = await uow.games.get(schedule.game_id)
    if game is None or game.archived or game.held is not None:
        return None  # held (``bot/delivery.py``): handled when released, as after downtime
    at = now()
    since = max(
        schedule.created_at, await repo.last_occurrence(schedule.id) or schedule.created_at
    )
    due = occurrences(trigger(schedule, game.timezone), since, at)
    if not due:
        return None
    latest = due[-1]
    grace = max(timedelta(hours=schedule.grace_hours), LATE_AFTER)
    in_grace = at - latest <= grace
    skipped = due[:-1] if in_grace else due
    if skipped:
        claimed = await repo.claim(
            schedule.id, skipped[-1], status="skipped", skipped=len(skipped)
        )
        if claimed is None:  # another run handled these
            await uow.rollback()
            return None
    applied: milestones.Applied | None = None
    # A fight or scene is open: the milestone waits for its end (it would clear stress and
    # consequences mid-fight); claimed now, so it still happens once.
    deferred = in_grace and bool(await DeferredRepo(uow.session).busy_games([game.id]))
    if in_grace:
        status = DEFERRED if deferred else "applied"
        occurrence_id = await repo.claim(schedule.id, latest, status=status)
        if occurrence_id is None:
            await uow.rollback()
            return None
    if in_grace and not deferred:
        assert occurrence_id is not None
        try:
            applied = await _apply(uow, game, schedule, occurrence_id)
        except milestones.MilestoneRefused as refused:
            logger.warning("schedule %s: milestone refused: %s", schedule.id, refused.reason)
            await uow.rollback()
            return None
        await repo.finish(
            occurrence_id, status="empty" if applied.plan.empty else "applied", batch=applied.batch
        )
    chat = await uow.chats.get(game.chat_id)  # the notice's language, read before the commit
    await uow.commit()
    return Fired(
        game, schedule, latest if in_grace else None, applied,
        in_grace and at - latest > LATE_AFTER, len(skipped), skipped[-1] if skipped else None,
        chat.locale if chat else None,
        deferred=deferred,
    )  # fmt: skip


@dataclass(frozen=True)
class Tick:
    """What ``run_batch`` did: ``fired`` (in schedule order), and the schedules it left to
    ``run`` one by one (cliché advancement: its dice go through the roll log)."""

    fired: list[Fired]
    one_by_one: list[int]


@dataclass(frozen=True)
class _Due:
    row: DueScheduleRow
    latest: datetime
    in_grace: bool
    skipped: list[datetime]
    deferred: bool = False  # the game's fight or scene is open: claimed, applied at its end

    def claims(self) -> list[NewOccurrence]:
        sid = self.row.schedule.id
        found = []
        if self.skipped:
            found.append(NewOccurrence(sid, self.skipped[-1], "skipped", len(self.skipped)))
        if self.in_grace:
            status = DEFERRED if self.deferred else "applied"
            found.append(NewOccurrence(sid, self.latest, status))
        return found


def _due(row: DueScheduleRow, at: datetime) -> _Due | None:
    schedule, game = row.schedule, row.game
    since = max(schedule.created_at, row.last_occurrence or schedule.created_at)
    due = occurrences(trigger(schedule, game.timezone), since, at)
    if not due:
        return None
    latest = due[-1]
    in_grace = at - latest <= max(timedelta(hours=schedule.grace_hours), LATE_AFTER)
    return _Due(row, latest, in_grace, due[:-1] if in_grace else due)


async def run_batch(uow: UnitOfWork, schedule_ids: list[int], *, now: Clock = utcnow) -> Tick:
    """``run`` for many schedules (of many games) in ONE transaction and a fixed number of
    statements: their due occurrences claimed in one insert (the same unique key: a concurrent
    or repeated run waits there and then finds them taken), the milestones applied by
    ``milestones.apply_many``, the occurrences finished in one update. Commits; raises (and
    writes nothing) when any part fails — the caller retries smaller batches."""
    repo = ScheduleBatchRepo(uow.session)
    at = now()
    todo: list[_Due] = []
    one_by_one: list[int] = []
    for row in await repo.due_rows(sorted(set(schedule_ids))):
        if row.schedule.kind not in milestones.kinds(row.game.system):
            logger.warning("schedule %s: no milestone %r here", row.schedule.id, row.schedule.kind)
        elif milestones.rolls_dice(row.game, row.schedule.kind):
            one_by_one.append(row.schedule.id)
        elif (found := _due(row, at)) is not None:
            todo.append(found)
    busy = await DeferredRepo(uow.session).busy_games(sorted({d.row.game.id for d in todo}))
    todo = [replace(d, deferred=d.in_grace and d.row.game.id in busy) for d in todo]
    claimed = await repo.claim_many([c for d in todo for c in d.claims()])
    won: list[tuple[_Due, int | None]] = []
    partly: list[int] = []
    for d in todo:
        ids = [claimed.get((c.schedule_id, c.occurrence_at)) for c in d.claims()]
        if all(ids):
            won.append((d, ids[-1] if d.in_grace else None))
        else:  # another run has some of them: it handles this schedule, as ``run`` would
            partly += [i for i in ids if i is not None]
    await repo.release(partly)
    items = [
        milestones.Scheduled(occurrence_id, d.row.game, d.row.schedule.kind)
        for d, occurrence_id in won
        if occurrence_id is not None and not d.deferred
    ]
    applied = await milestones.apply_many(uow, items) if items else {}
    await repo.finish_many(
        [
            (key, "empty" if result.plan.empty else "applied", result.batch)
            for key, result in applied.items()
        ]
    )
    await uow.commit()
    fired = [
        Fired(
            d.row.game,
            d.row.schedule,
            d.latest if d.in_grace else None,
            applied.get(occurrence_id) if occurrence_id is not None else None,
            d.in_grace and at - d.latest > LATE_AFTER,
            len(d.skipped),
            d.skipped[-1] if d.skipped else None,
            d.row.chat_locale,
            deferred=d.deferred,
        )
        for d, occurrence_id in won
    ]
    return Tick(fired, one_by_one)


async def _apply(
    uow: UnitOfWork, game: GameDTO, schedule: ScheduleDTO, occurrence_id: int
) -> milestones.Applied:
    """The milestone as the GM's would be, by the system actor, not committed: ``run``
    commits it with the occurrence's row, so a failure on the way leaves neither (and the
    next run applies it). A sheet changed between the preview and the locks: preview
    again."""
    plan = await milestones.preview(uow, game, schedule.kind)
    for _ in range(APPLY_ATTEMPTS - 1):
        try:
            return await _apply_plan(uow, game, schedule, occurrence_id, plan)
        except milestones.MilestoneStale as stale:
            plan = stale.plan
    return await _apply_plan(uow, game, schedule, occurrence_id, plan)


async def _apply_plan(
    uow: UnitOfWork, game: GameDTO, schedule: ScheduleDTO, occurrence_id: int,
    plan: milestones.Plan,
) -> milestones.Applied:  # fmt: skip
    return await milestones.apply_uncommitted(
        uow, game, schedule.kind, fingerprint=plan.fingerprint,
        actor_user_id=game.gm_user_id, actor_name=ACTOR_NAME,
        preview_message_id=-occurrence_id,  # unique per occurrence: never a real message id
    )  # fmt: skip


async def remind(uow: UnitOfWork, schedule_id: int, *, now: Clock = utcnow) -> Reminder | None:
    """The reminder for the schedule's next occurrence, once; commits. None: not due or
    already sent."""
    repo = ScheduleRepo(uow.session)
    schedule = await repo.get(schedule_id)
    if schedule is None or not schedule.enabled or schedule.remind_minutes is None:
        return None
    game = await uow.games.get(schedule.game_id)
    if game is None or game.archived or game.held is not None:
        return None
    at = now()
    window = timedelta(minutes=schedule.remind_minutes + 1)
    upcoming = occurrences(trigger(schedule, game.timezone), at, at + window, limit=1)
    if not upcoming or not await repo.claim_reminder(schedule.id, upcoming[0]):
        await uow.rollback()
        return None
    await uow.commit()
    return Reminder(game, schedule, upcoming[0])
