"""A sheet upgrade step for the tests (a module of its own: the bot's worker process imports
it by name to run the step, and it imports nothing of the bot)."""

from __future__ import annotations

from typing import Any


def drop_legacy_notes(sheet: dict[str, Any]) -> dict[str, Any]:
    """Version 1 → 2 of a test schema: version 1 kept free-form notes the model no longer has."""
    return {k: v for k, v in sheet.items() if k != "legacy_notes"}
