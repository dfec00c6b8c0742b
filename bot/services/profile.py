from __future__ import annotations

import re
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from db.uow import UnitOfWork

MAX_NAME = 64
_OFFSET = re.compile(r"^(?:utc|gmt)?\s*([+-])(\d{1,2})$", re.IGNORECASE)


def clean_name(raw: str) -> str | None:
    """A display name: one line, 1..64 visible characters."""
    name = " ".join(raw.split())
    if not name or len(name) > MAX_NAME or name.startswith("/"):
        return None
    return name


def parse_timezone(raw: str) -> str | None:
    """An IANA zone ("Europe/Moscow") or a whole-hour offset ("+3", "UTC-5")."""
    text = raw.strip()
    match = _OFFSET.match(text)
    if match:
        hours = int(match.group(2))
        if hours > 14:
            return None
        # POSIX Etc/GMT zones have the sign inverted: UTC+3 is Etc/GMT-3 (and only
        # UTC-12..UTC+14 exist).
        sign = "-" if match.group(1) == "+" else "+"
        zone = "Etc/UTC" if hours == 0 else f"Etc/GMT{sign}{hours}"
        return zone if zone in available_timezones() else None
    if len(text) > 64 or "/" not in text:
        return None
    for zone in (text, _canonical(text)):
        if zone is None:
            continue
        try:
            ZoneInfo(zone)
        except (ZoneInfoNotFoundError, ValueError):
            continue
        return zone
    return None


def _canonical(text: str) -> str | None:
    lowered = text.lower()
    return next((z for z in available_timezones() if z.lower() == lowered), None)


async def save_profile(uow: UnitOfWork, user_id: int, *, name: str, timezone: str) -> None:
    await uow.users.set_profile(user_id, display_name=name, timezone=timezone)
    await uow.commit()
