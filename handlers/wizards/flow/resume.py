"""A wizard stored before its system used the flow resumes: its answers become the draft.

A hand-written wizard kept its answers at the top of ``dialog_data``; the flow keeps them under
``draft``. At the first press or redraw after the upgrade the old keys are read by the flow's
``upgrade`` (or the wizard starts over from an empty draft), and the old ones dropped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aiogram_dialog import DialogManager

from handlers.wizards.common import REFUSED_KEY, REVIEW_KEY

DRAFT = "draft"  # as ``flow.dialog.DRAFT``
_KEPT = (REVIEW_KEY, REFUSED_KEY)
Upgrade = Callable[[dict[str, Any], DialogManager], dict[str, Any]]
_UPGRADES: dict[str, Upgrade] = {}  # by the StatesGroup's name


def remember(group: str, upgrade: Upgrade) -> None:
    _UPGRADES[group] = upgrade


def upgrade_if_old(manager: DialogManager) -> None:
    data = manager.dialog_data
    if DRAFT in data or not manager.has_context():
        return
    old = {key: data.pop(key) for key in list(data) if key not in _KEPT}
    how = _UPGRADES.get(manager.current_context().state.group.__name__)
    data[DRAFT] = how(old, manager) if how is not None else {}
