"""A toy flow of a test's own, played over the emulator: ``/<flow name>`` (``… npc`` for an
NPC) opens it in the table's first game, its dialog added to the bot's."""

from __future__ import annotations

from typing import Any

import pytest
from aiogram import Router
from aiogram.filters import Command
from aiogram.fsm.state import StatesGroup
from aiogram.types import Message
from aiogram_dialog import DialogManager, StartMode
from sqlalchemy import text

from handlers import wizards
from handlers.wizards.common import WizardStart
from handlers.wizards.flow import Flow, build_dialog
from tests.conftest import Harness
from tests.games.helpers import ALICE, create_game, seat_table
from tests.wizards.storyteller.driver import Player


def _opener(name: str, states: type[StatesGroup], options: dict[str, Any]) -> Router:
    router = Router(name=name)

    @router.message(Command(name))
    async def begin(message: Message, dialog_manager: DialogManager, uow: Any) -> None:
        game_id = (await uow.session.execute(text("SELECT min(id) FROM games"))).scalar()
        npc = (message.text or "").endswith("npc")
        start = WizardStart(int(game_id), "toy", options, npc=npc)
        await dialog_manager.start(
            states.__states__[0], data=start.as_data(), mode=StartMode.RESET_STACK
        )

    return router


async def play(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, flow: Flow, states: type[StatesGroup],
    options: dict[str, Any] | None = None,
) -> Player:  # fmt: skip
    dialogs = wizards.create_dialogs

    def extra() -> list[Router]:  # built anew at each (re)start
        return [_opener(flow.name, states, options or {}), build_dialog(flow, states), *dialogs()]

    monkeypatch.setattr(wizards, "create_dialogs", extra)
    await harness.start()
    seat_table(harness)
    await create_game(harness, "matter", "Toys")
    return Player(harness, ALICE)
