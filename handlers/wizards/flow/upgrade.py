"""A wizard stored before its system was ported to the flow is resumed, not broken: its old
``dialog_data`` has no draft, so the flow's ``upgrade`` reads one from it (or it starts empty)."""

from __future__ import annotations

from typing import Any

from aiogram_dialog import DialogManager

from handlers.wizards.flow.kinds import Draft

ERROR = "error"  # the flow keeps {"at", "text"} there; a hand-written wizard kept a string


def upgraded(manager: DialogManager) -> Draft:
    data: dict[str, Any] = manager.dialog_data
    if not isinstance(data.get(ERROR), dict):
        data.pop(ERROR, None)
    root = getattr(manager, "manager", manager)  # a list row's press has a SubManager
    flow = getattr(root.dialog(), "flow", None)  # set by ``build_dialog``
    upgrade = getattr(flow, "upgrade", None)
    return upgrade(dict(data)) if upgrade is not None else {}
