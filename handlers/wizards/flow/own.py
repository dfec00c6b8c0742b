"""What the handlers of an own window (a ``Screens`` step's, an own preview) use: the flow's
draft, a refusal shown as the standard steps show theirs, and a move to another step."""

from __future__ import annotations

from aiogram_dialog import DialogManager

from handlers.wizards.common import REVIEW_KEY
from handlers.wizards.flow.custom import step_refused
from handlers.wizards.flow.dialog import ERROR, _draft
from handlers.wizards.flow.kinds import Draft


def own_draft(manager: DialogManager) -> Draft:
    """The draft, for an own window's getter and handlers (changed in place, or replaced); a
    wizard stored before its system's port is read first (``Flow.upgrade``)."""
    return _draft(manager)


def own_fail(manager: DialogManager, text: str) -> None:
    """Refuse on an own window: the press's answer and the message. The same refusal again,
    pressed or typed, redraws nothing (``step_refused``)."""
    step_refused(manager, text)


async def own_switch(manager: DialogManager, key: str, *, onward: bool = False) -> None:
    """From an own window to the flow's state ``key`` (``onward``: straight back to the preview
    instead once it was reached, as «Next» does), the last refusal left behind."""
    manager.dialog_data.pop(ERROR, None)
    states = manager.current_context().state.group
    review = onward and manager.dialog_data.get(REVIEW_KEY)
    await manager.switch_to(getattr(states, "preview" if review else key))


def own_clear(manager: DialogManager) -> None:
    """The last refusal is answered: it is shown no more."""
    manager.dialog_data.pop(ERROR, None)
