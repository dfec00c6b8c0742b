"""What the scheduler's jobs post (``bot.jobs.JobViews``): the composition root hands this
module to the scheduler, so ``bot/`` renders through it without importing ``handlers/``."""

from __future__ import annotations

from handlers.views.deferred import resumed, waiting
from handlers.views.requests import nudge, overdue
from handlers.views.resources import live_panel
from handlers.views.schedules import notice, notice_keyboard, reminder, skipped

__all__ = [
    "live_panel",
    "notice",
    "notice_keyboard",
    "nudge",
    "overdue",
    "reminder",
    "resumed",
    "skipped",
    "waiting",
]
