"""A toy flow of a test's own, played over the emulator: ``/<command>`` (``… npc`` for an
NPC) opens it in the table's first game, its dialog served by the running bot beside the real
ones."""

from __future__ import annotations

from collections.abc import Callable
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
from handlers.wizards.flow import Flow, build_dialog, flow_states
from tests.conftest import Harness
from tests.games.helpers import ALICE, create_game, seat_table
from tests.wizards.storyteller.driver import Player


def opener(name: str, states: type[StatesGroup], options: dict[str, Any]) -> Router:
    """``/<name>`` starts the flow of ``states`` at its first step, with ``options``."""
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


async def serve(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, routers: Callable[[], list[Router]]
) -> Player:
    """Alice at a seated table with one game, the bot running with ``routers`` too (built anew
    at each (re)start)."""
    real = wizards.create_dialogs
    monkeypatch.setattr(wizards, "create_dialogs", lambda: [*routers(), *real()])
    await harness.start()
    seat_table(harness)
    await create_game(harness, "matter", "Toys")
    return Player(harness, ALICE)


def opened_by(command: str, flow: Flow, options: dict[str, Any]) -> Callable[[], list[Router]]:
    """The routers of ``flow`` opened by ``/<command>``, with ``options``."""
    states = flow_states(flow)
    return lambda: [opener(command, states, options), build_dialog(flow, states)]


async def play(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, flow: Flow, states: type[StatesGroup],
    options: dict[str, Any] | None = None,
) -> Player:  # fmt: skip
    def routers() -> list[Router]:
        return [opener(flow.name, states, options or {}), build_dialog(flow, states)]

    return await serve(harness, monkeypatch, routers)
