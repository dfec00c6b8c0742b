"""The one formatter per kind of value (issue 36, item 10): exact texts, both locales."""

from __future__ import annotations

from datetime import UTC, datetime
from fractions import Fraction
from zoneinfo import ZoneInfo

import pytest

from engine import formats
from engine.formats import ValueKind


@pytest.mark.parametrize(("value", "shown"), [(3, "+3"), (0, "0"), (-2, "−2")])
def test_signed_uses_a_real_minus(value: int, shown: str) -> None:
    assert formats.signed(value) == shown
    assert "-" not in formats.number(value)


def test_tracks_pools_and_dots() -> None:
    assert formats.stress_track([False, True, False]) == "☐☒☐"
    assert formats.stress_notation("0x0") == "☐☒☐"
    assert formats.pool(3, 4) == "3/4"
    assert formats.dots(3) == "●●●○○" and formats.dots(7, 10) == "7"
    assert formats.rating_with_temporary(3, 0, "ru") == "3"
    assert formats.rating_with_temporary(3, 2, "ru") == "3 (временных 2)"
    assert formats.changed_value(ValueKind.STRESS, "x0") == "☒☐"
    assert formats.changed_value(ValueKind.PLAIN, -1) == "−1"


def test_percentages_follow_the_locale() -> None:
    assert formats.percent(Fraction(1, 8), "ru") == "12,5\u00a0%"
    assert formats.percent(Fraction(1, 8), "en") == "12.5%"
    assert formats.percent(Fraction(1, 10_000), "ru") == "<0,1\u00a0%"


def test_a_moment_is_shown_in_the_games_time_zone() -> None:
    when = datetime(2026, 12, 4, 21, 30, tzinfo=UTC)
    assert formats.moment(when, ZoneInfo("Europe/Moscow")) == "05.12.2026 00:30"


@pytest.mark.parametrize(
    ("stored", "shown"),
    [
        ("Etc/GMT-5", "UTC+5"),  # «/timezone +5» answered «Etc/GMT-5»: minus, read as UTC−5
        ("Etc/GMT+3", "UTC\u22123"),
        ("Etc/UTC", "UTC"),
        ("Europe/Moscow", "Europe/Moscow"),
        ("America/Argentina/Buenos_Aires", "America/Argentina/Buenos_Aires"),
    ],
)
def test_a_zone_reads_as_people_write_it(stored: str, shown: str) -> None:
    assert formats.zone_name(stored) == shown
