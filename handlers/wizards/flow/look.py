"""A released wizard's look kept on the standard steps (the ``Flow`` fields after
``own_preview``): questions with their own heading, «To the preview» once it was reached, own
words for a message on a buttons-only step, and the game's options re-read at each redraw."""

from __future__ import annotations

from typing import Any

from aiogram.fsm.state import State
from aiogram_dialog import DialogManager
from aiogram_dialog.widgets.kbd import SwitchTo

from handlers.wizards.common import REVIEW_KEY, T
from handlers.wizards.flow.kinds import Flow, Items, Step, Text
from handlers.wizards.flow.start import current_options

NOT_TEXT = "Please answer with text, or use the buttons."


def heading(flow: Flow, head: str, question: str) -> str:
    """The step's first lines: «Step n of N: Title» and its question, or the question alone."""
    return question if flow.headless else f"<b>{head}</b>\n{question}"


def preview_button(flow: Flow, preview: State) -> list[Any]:
    """«To the preview» (id ``tp``), shown once the preview was reached (``{review}``)."""
    if not flow.to_preview:
        return []
    return [SwitchTo(T(flow.to_preview), id="tp", state=preview, when="review")]


def reviewed(manager: DialogManager) -> dict[str, Any]:
    return {"review": bool(manager.dialog_data.get(REVIEW_KEY))}


def not_text_words(flow: Flow, step: Step) -> str:
    """What a message gets on this step: the flow's own words where no text is taken."""
    takes_text = isinstance(step, Text | Items) or getattr(step, "typed", False)
    return flow.buttons_only if flow.buttons_only and not takes_text else NOT_TEXT


async def refresh_options(flow: Flow, manager: DialogManager) -> None:
    """``Flow.live_options``: the game's options now, kept as the wizard's for its handlers."""
    data = manager.start_data
    if flow.live_options and isinstance(data, dict):
        data["options"] = await current_options(manager)
