"""Character-creation wizards, one aiogram-dialog per rule system (see ``common``)."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from aiogram import Router
from aiogram.fsm.state import State

from bot.systems import SYSTEMS


def _module(system: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"handlers.wizards.{system}")
    except ModuleNotFoundError as error:
        if error.name != f"handlers.wizards.{system}":
            raise
        return None


def start_state(system: str) -> State | None:
    module = _module(system)
    return module.START_STATE if module is not None else None


async def setup_needed(system: str, uow: Any, game_id: int) -> str | None:
    """A msgid telling the GM what the system's wizard needs before players can use it (its
    module's optional ``SETUP``: lifegear's roles), or None when it is ready."""
    module = _module(system)
    setup = getattr(module, "SETUP", None) if module is not None else None
    return await setup(uow, game_id) if setup is not None else None


def create_dialogs() -> list[Router]:
    dialogs: list[Router] = []
    for system in SYSTEMS:
        module = _module(system)
        if module is not None:
            dialogs.extend(module.create_dialogs())
    return dialogs
