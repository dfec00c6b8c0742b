"""How `/request` reads its argument: the expression, an optional target, an optional note."""

from __future__ import annotations

import pytest

from bot.services.requests import RequestSpec, parse_spec


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1d20-2 vs 15", RequestSpec("1d20-2", 15, None)),  # "-" is arithmetic, not a note
        ("2d6-1", RequestSpec("2d6-1", None, None)),
        ("4dF-1: уклониться", RequestSpec("4dF-1", None, "уклониться")),
        ("3d6+2 vs 12: взлом замка", RequestSpec("3d6+2", 12, "взлом замка")),
        ("2d6 — атака", RequestSpec("2d6", None, "атака")),
        ("d% против 50", RequestSpec("1d100", 50, None)),
        ("3к6 vs -2", RequestSpec("3d6", -2, None)),
    ],
)
def test_request_spec(text: str, expected: RequestSpec) -> None:
    assert parse_spec(text) == expected
