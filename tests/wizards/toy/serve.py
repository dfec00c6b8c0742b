"""A toy dialog served by the running bot: its routers first, then every real one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from aiogram import Router
from aiogram.filters import Command
from aiogram.types import Message
from aiogram_dialog import DialogManager, StartMode
from sqlalchemy import text

from handlers import wizards
from handlers.wizards.common import WizardStart
from handlers.wizards.flow import Flow, build_dialog, flow_states
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


def opened_by(command: str, flow: Flow, options: dict[str, Any]) -> Callable[[], list[Router]]:
    """The routers of ``flow`` opened by ``/<command>`` in the table's game, with ``options``."""
    states = flow_states(flow)

    def routers() -> list[Router]:
        router = Router(name=command)

        @router.message(Command(command))
        async def start(message: Message, dialog_manager: DialogManager, uow: Any) -> None:
            found = await uow.session.execute(text("SELECT min(id) FROM games"))
            start = WizardStart(int(found.scalar()), flow.name, options)
            await dialog_manager.start(states.__states__[0], data=start.as_data(),
                                       mode=StartMode.RESET_STACK)  # fmt: skip

        return [router, build_dialog(flow, states)]

    return routers
