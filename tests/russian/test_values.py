"""A sheet change (undo notes, proposals, /history) shows numbers as every surface does."""

from __future__ import annotations

from bot.i18n import I18n
from handlers.views.sheet_changes import describe


def test_a_sheet_change_shows_a_negative_number_with_a_real_minus() -> None:
    ru = I18n("ru").translator("ru")
    change = {"path": "skills.athletics", "before": 1, "after": -1}
    (line,) = describe(ru, "ru", "fate", [change])
    assert line.endswith("1 → −1"), line
