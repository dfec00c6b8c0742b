"""/schedule: the game's schedules, the add-a-schedule steps, and the scheduler's posts
(the notice of a scheduled milestone, the late line, the skipped line, the reminder)."""

from __future__ import annotations

from datetime import datetime
from html import escape
from typing import Final

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import N_, Translator
from bot.services import milestones
from bot.services import schedules as service
from db.repositories.schedules import ScheduleDTO
from engine import formats
from handlers.views import milestones as milestone_views

DAILY: Final = -1  # the "day" of a daily schedule in callback data

EVERY_DAY: Final = (
    N_("every Monday"),
    N_("every Tuesday"),
    N_("every Wednesday"),
    N_("every Thursday"),
    N_("every Friday"),
    N_("every Saturday"),
    N_("every Sunday"),
)
SHORT_DAYS: Final = (
    N_("Mon"),
    N_("Tue"),
    N_("Wed"),
    N_("Thu"),
    N_("Fri"),
    N_("Sat"),
    N_("Sun"),
)


# The lead may move these to handlers/callbacks.py (shared file, not ours to edit).
class ScheduleAddCD(CallbackData, prefix="sca"):
    """The GM starts adding a schedule: pick the milestone kind."""


class ScheduleKindCD(CallbackData, prefix="sck"):
    """Kind chosen: pick the day (every day or a weekday)."""

    kind: str


class ScheduleDayCD(CallbackData, prefix="scd"):
    """Day chosen (``day`` 0 = Monday … 6 = Sunday, -1 every day): pick the time."""

    kind: str
    day: int


class ScheduleTimeCD(CallbackData, prefix="sct"):
    """Time chosen (minutes after midnight): reminder or not."""

    kind: str
    day: int
    minute: int


class ScheduleSaveCD(CallbackData, prefix="scs"):
    """Save the schedule; ``remind`` minutes before (0: no reminder)."""

    kind: str
    day: int
    minute: int
    remind: int


class ScheduleDeleteCD(CallbackData, prefix="scx"):
    """Delete schedule ``schedule_id`` (of this chat's game; checked on the server)."""

    schedule_id: int


class ScheduleCloseCD(CallbackData, prefix="scq"):
    """Close the panel."""


def _button(text: str, data: CallbackData) -> InlineKeyboardButton:
    return InlineKeyboardButton(text=text, callback_data=data.pack())


def hhmm(minute_of_day: int) -> str:
    return f"{minute_of_day // 60:02d}:{minute_of_day % 60:02d}"


def _weekday(day: int | None) -> int | None:
    """A weekday 0..6, else every day (callback data is forgeable)."""
    return day if day is not None and 0 <= day <= 6 else None


def when(t: Translator, weekday: int | None, minute_of_day: int) -> str:
    weekday = _weekday(weekday)
    day = t("every day") if weekday is None else t(EVERY_DAY[weekday])
    return t("{day} at {time}", day=day, time=hhmm(minute_of_day))


def kind_title(t: Translator, system: str, kind: str) -> str:
    if kind not in milestones.kinds(system):  # forged or from another game: shown as sent
        return kind
    return t(milestones.kind_title(system, kind))


def describe(t: Translator, system: str, schedule: ScheduleDTO) -> str:
    day_and_time = when(t, schedule.weekday, schedule.minute_of_day)
    line = f"{day_and_time} — {escape(kind_title(t, system, schedule.kind))}"
    minutes = schedule.remind_minutes
    if minutes and minutes % 60 == 0:  # as the button offered it: «Remind 1 h before»
        line += ", " + t("reminder {n} h before", n=minutes // 60)
    elif minutes:
        line += ", " + t("reminder {n} min before", n=minutes)
    return line


# The panel lists at most this many schedules (their lines and their delete buttons): a
# game has at most ``MAX_PER_GAME``, and a message and a keyboard have limits of their own.
MAX_LISTED = 40


def panel(t: Translator, system: str, timezone: str, schedules: list[ScheduleDTO]) -> str:
    zone = escape(formats.zone_name(timezone))
    lines = [t("⏰ <b>Scheduled milestones</b> (time zone {zone})", zone=zone), ""]
    if not schedules:
        lines.append(t("No schedules yet."))
    lines += [f"{i}. {describe(t, system, s)}" for i, s in enumerate(schedules[:MAX_LISTED], 1)]
    if len(schedules) > MAX_LISTED:
        lines.append(t("… and {n} more", n=len(schedules) - MAX_LISTED))
    if schedules:
        lines += [
            "",
            t(
                "Missed while the bot was offline: applied up to {n} h late (/schedule grace N).",
                n=schedules[0].grace_hours,
            ),
        ]
    return "\n".join(lines)


def grace_usage(t: Translator) -> str:
    return t("Write the grace in hours, e.g. <code>/schedule grace 12</code> (0 to 168).")


def grace_set(t: Translator, hours: int) -> str:
    return t(
        "Missed milestones will be applied up to {n} h after they were due; older ones are "
        "skipped and reported.",
        n=hours,
    )


def panel_keyboard(t: Translator, schedules: list[ScheduleDTO]) -> InlineKeyboardMarkup:
    deletes = [
        _button(f"🗑 {i}", ScheduleDeleteCD(schedule_id=s.id))
        for i, s in enumerate(schedules[:MAX_LISTED], 1)
    ]
    rows = [deletes[i : i + 5] for i in range(0, len(deletes), 5)]
    if len(schedules) < service.MAX_PER_GAME:
        rows.append([_button("➕ " + t("Add"), ScheduleAddCD())])
    rows.append([_button(t("Close"), ScheduleCloseCD())])
    return InlineKeyboardMarkup(inline_keyboard=rows)


def kind_prompt(t: Translator) -> str:
    return t("⏰ New schedule: which milestone?")


def kind_keyboard(t: Translator, system: str) -> InlineKeyboardMarkup:
    rows = [
        [_button(kind_title(t, system, kind), ScheduleKindCD(kind=kind))]
        for kind in milestones.kinds(system)
    ]
    rows.append([_button(t("Cancel"), ScheduleCloseCD())])
    return InlineKeyboardMarkup(inline_keyboard=rows)


def day_prompt(t: Translator, system: str, kind: str) -> str:
    return t("⏰ {kind}: which day?", kind=escape(kind_title(t, system, kind)))


def day_keyboard(t: Translator, kind: str) -> InlineKeyboardMarkup:
    days = [_button(t(SHORT_DAYS[d]), ScheduleDayCD(kind=kind, day=d)) for d in range(7)]
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [_button(t("Every day"), ScheduleDayCD(kind=kind, day=DAILY))],
            days[:4],
            days[4:],
            [_button(t("Cancel"), ScheduleCloseCD())],
        ]
    )


def time_prompt(t: Translator, system: str, kind: str, day: int) -> str:
    weekday = _weekday(day)
    title = escape(kind_title(t, system, kind))
    day_text = t("every day") if weekday is None else t(EVERY_DAY[weekday])
    return t(
        "⏰ {kind}, {day}: at what time? Pick one or type it, like 20:30.",
        kind=title,
        day=day_text,
    )


def time_keyboard(t: Translator, kind: str, day: int) -> InlineKeyboardMarkup:
    presets = [
        _button(hhmm(m), ScheduleTimeCD(kind=kind, day=day, minute=m))
        for m in service.PRESET_MINUTES
    ]
    return InlineKeyboardMarkup(
        inline_keyboard=[presets, [_button(t("Cancel"), ScheduleCloseCD())]]
    )


def bad_time(t: Translator) -> str:
    return t("Write the time as HH:MM, like 20:30, or /cancel.")


def remind_prompt(t: Translator, system: str, kind: str, day: int, minute: int) -> str:
    weekday = _weekday(day)
    return t(
        "⏰ {kind}, {when}. Remind the table an hour before?",
        kind=escape(kind_title(t, system, kind)),
        when=when(t, weekday, minute),
    )


def remind_keyboard(t: Translator, kind: str, day: int, minute: int) -> InlineKeyboardMarkup:
    remind = service.REMIND_MINUTES
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                _button(
                    "🔔 " + t("Remind 1 h before"),
                    ScheduleSaveCD(kind=kind, day=day, minute=minute, remind=remind),
                ),
                _button(
                    t("No reminder"), ScheduleSaveCD(kind=kind, day=day, minute=minute, remind=0)
                ),
            ],
            [_button(t("Cancel"), ScheduleCloseCD())],
        ]
    )


def saved(t: Translator) -> str:
    return t("Schedule saved.")


def deleted(t: Translator) -> str:
    return t("Schedule deleted.")


def closed(t: Translator) -> str:
    return t("Schedules closed.")


# --- what the scheduler posts ----------------------------------------------------------------


def _local(at: datetime, timezone: str) -> str:
    return formats.moment(at, timezone, year=False)


def notice(t: Translator, locale: str, fired: service.Fired) -> str | None:
    """The notice of the applied milestone (None: nothing was applied)."""
    applied, at = fired.applied, fired.occurrence_at
    if applied is None or at is None:
        return None
    game = fired.game
    if applied.plan.empty:
        text = t(
            "⏰ {title}: nothing to change.",
            title=escape(kind_title(t, game.system, fired.schedule.kind)),
        )
    else:
        text = milestone_views.notice(t, locale, applied, service.ACTOR_NAME)
    if fired.late:
        text += "\n\n" + t(
            "⏰ Late: it was due {when} (the bot was offline).", when=_local(at, game.timezone)
        )
    return text


def notice_keyboard(t: Translator, fired: service.Fired) -> InlineKeyboardMarkup | None:
    if fired.applied is None:
        return None
    return milestone_views.notice_keyboard(t, fired.applied)


def skipped(t: Translator, fired: service.Fired) -> str | None:
    """One line: the occurrences missed while offline and too late to apply."""
    if not fired.skipped or fired.skipped_last is None:
        return None
    game = fired.game
    return t(
        "⏰ {title}: missed {n} time(s) while the bot was offline (last due {when}); "
        "skipped, too late to apply.",
        title=escape(kind_title(t, game.system, fired.schedule.kind)),
        n=fired.skipped,
        when=_local(fired.skipped_last, game.timezone),
    )


def reminder(t: Translator, reminder: service.Reminder) -> str:
    game, schedule = reminder.game, reminder.schedule
    title = escape(kind_title(t, game.system, schedule.kind))
    time = _local(reminder.occurrence_at, game.timezone)[-5:]
    if schedule.remind_minutes == service.REMIND_MINUTES:
        return t("⏰ In 1 hour: {title} at {time}.", title=title, time=time)
    return t(
        "⏰ In {n} min: {title} at {time}.", n=schedule.remind_minutes, title=title, time=time
    )
