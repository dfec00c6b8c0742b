"""A released wizard's look kept on the standard steps (the ``Flow`` fields after
``own_preview``; its words are ``Flow.wording``'s): «To the preview» once it was reached, and
the game's options re-read at each redraw."""

from __future__ import annotations

from typing import Any

from aiogram.fsm.state import State
from aiogram_dialog import DialogManager
from aiogram_dialog.widgets.kbd import SwitchTo

from handlers.wizards.common import REVIEW_KEY, T
from handlers.wizards.flow.kinds import Flow
from handlers.wizards.flow.start import current_options


def preview_button(flow: Flow, preview: State) -> list[Any]:
    """«To the preview» (id ``tp``), shown once the preview was reached (``{review}``)."""
    if not flow.to_preview:
        return []
    return [SwitchTo(T(flow.to_preview), id="tp", state=preview, when="review")]


def reviewed(manager: DialogManager) -> dict[str, Any]:
    return {"review": bool(manager.dialog_data.get(REVIEW_KEY))}


async def refresh_options(flow: Flow, manager: DialogManager) -> None:
    """``Flow.live_options``: the game's options now, kept as the wizard's for its handlers."""
    data = manager.start_data
    if flow.live_options and isinstance(data, dict):
        data["options"] = await current_options(manager)
