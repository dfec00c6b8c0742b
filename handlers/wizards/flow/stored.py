"""The draft in ``dialog_data``, also for a wizard started before its system's port.

A hand-written wizard kept its sheet under a key of its own (``Flow.legacy_key``); the state
names stayed, so such a wizard resumes after the upgrade on a flow step: its old sheet is read
through the flow's ``load`` the first time the draft is asked for, and the wizard goes on.
"""

from __future__ import annotations

from aiogram.fsm.state import StatesGroup
from aiogram_dialog import DialogManager

from handlers.wizards.common import WizardStart
from handlers.wizards.flow.kinds import Draft, Flow

DRAFT = "draft"  # the key ``flow.dialog`` keeps the draft under
_FLOWS: dict[str, Flow] = {}  # a StatesGroup's name → its flow, for the old sheets' key


def register(flow: Flow, states: type[StatesGroup]) -> None:
    if flow.legacy_key:
        _FLOWS[states.__name__] = flow


def draft(manager: DialogManager) -> Draft:
    """The flow's draft (read from the predecessor's sheet the first time, if need be)."""
    if DRAFT not in manager.dialog_data:
        group = manager.current_context().state.group
        flow = _FLOWS.get(group.__name__)
        old = manager.dialog_data.get(flow.legacy_key) if flow else None
        options = flow.options(WizardStart.of(manager).options) if flow else None
        manager.dialog_data[DRAFT] = flow.load(old, options) if flow else {}
    found: Draft = manager.dialog_data[DRAFT]
    return found
