"""What a wizard starts from and reads again at each step: the returned (or edited) sheet and
the game's current options."""

from __future__ import annotations

import logging
from typing import Any, TypeVar

from aiogram_dialog import DialogManager
from pydantic import ValidationError

from db.uow import UnitOfWork
from engine.common import SheetModel
from handlers.wizards.common import WizardStart

logger = logging.getLogger(__name__)
_Sheet = TypeVar("_Sheet", bound=SheetModel)
_Empty = TypeVar("_Empty")


def returned_sheet(
    model: type[_Sheet], draft: dict[str, Any] | None, empty: _Empty
) -> _Sheet | _Empty:
    """The sheet a wizard starts from: the returned (or edited) one, else ``empty``; a stored
    sheet that no longer loads starts afresh (the GM still has the one they returned)."""
    if draft:
        try:
            return model.model_validate(draft)
        except ValidationError:
            logger.warning("a returned %s does not load: the wizard starts afresh", model)
    return empty


async def current_options(manager: DialogManager) -> dict[str, Any]:
    """The game's options now (the GM may change them while a wizard is open: the next step
    applies them at once), else those the wizard was started with."""
    start = WizardStart.of(manager)
    uow: UnitOfWork | None = manager.middleware_data.get("uow")
    game = await uow.games.get(start.game_id) if uow is not None else None
    return dict(game.options) if game is not None else start.options
