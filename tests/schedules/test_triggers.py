"""Cron triggers in the game's time zone: the right UTC instants across DST changes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.scheduler import ReminderTrigger
from bot.services import schedules as service
from db.repositories.schedules import ScheduleDTO

BERLIN = "Europe/Berlin"


def _schedule(weekday: int | None, minute_of_day: int) -> ScheduleDTO:
    created = datetime(2027, 1, 1, tzinfo=UTC)
    return ScheduleDTO(1, 1, "minor", weekday, minute_of_day, 60, 6, True, 1, created)


def _fires(trigger, start: datetime, n: int) -> list[datetime]:  # type: ignore[no-untyped-def]
    found, previous, now = [], None, start
    for _ in range(n):
        nxt = trigger.get_next_fire_time(previous, now)
        found.append(nxt.astimezone(UTC))
        previous = now = nxt
    return found


def _utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def test_weekly_sunday_21_berlin_across_spring_forward() -> None:
    cron = service.trigger(_schedule(6, 21 * 60), BERLIN)
    fires = _fires(cron, _utc(2027, 3, 20), 3)
    # 21:00 CET is 20:00 UTC; from March 28 (last Sunday) 21:00 CEST is 19:00 UTC.
    assert fires == [_utc(2027, 3, 21, 20), _utc(2027, 3, 28, 19), _utc(2027, 4, 4, 19)]


def test_weekly_sunday_21_berlin_across_fall_back() -> None:
    cron = service.trigger(_schedule(6, 21 * 60), BERLIN)
    fires = _fires(cron, _utc(2027, 10, 20), 3)
    assert fires == [_utc(2027, 10, 24, 19), _utc(2027, 10, 31, 20), _utc(2027, 11, 7, 20)]


def test_daily_at_a_repeated_wall_time_is_one_occurrence() -> None:
    # 02:30 happens twice on 2027-10-31 in Berlin; the milestone happens once.
    cron = service.trigger(_schedule(None, 2 * 60 + 30), BERLIN)
    found = service.occurrences(cron, _utc(2027, 10, 30, 12), _utc(2027, 11, 1, 12))
    assert found == [_utc(2027, 10, 31, 0, 30), _utc(2027, 11, 1, 1, 30)]


def test_reminder_is_an_hour_before_in_real_time() -> None:
    cron = service.trigger(_schedule(6, 21 * 60), BERLIN)
    reminder = ReminderTrigger(cron, timedelta(hours=1))
    fires = _fires(reminder, _utc(2027, 3, 20), 2)
    assert fires == [_utc(2027, 3, 21, 19), _utc(2027, 3, 28, 18)]


def test_occurrences_between() -> None:
    cron = service.trigger(_schedule(None, 9 * 60), BERLIN)
    # (after, until]: an occurrence exactly at ``after`` is the one already handled.
    found = service.occurrences(cron, _utc(2027, 1, 5, 8), _utc(2027, 1, 7, 8))
    assert found == [_utc(2027, 1, 6, 8), _utc(2027, 1, 7, 8)]
