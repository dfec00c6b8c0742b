"""A toy dialog served by the running bot: its routers first, then every real one."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from aiogram import Router

from handlers import wizards
from tests.conftest import Harness
from tests.games.helpers import ALICE, create_game, seat_table
from tests.wizards.storyteller.driver import Player


async def serve(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, routers: Callable[[], list[Router]]
) -> Player:
    """Alice at a seated table with one game, the bot running with ``routers`` too."""
    real = wizards.create_dialogs
    monkeypatch.setattr(wizards, "create_dialogs", lambda: [*routers(), *real()])
    await harness.start()
    seat_table(harness)
    await create_game(harness, "matter", "Toys")
    return Player(harness, ALICE)
