"""The draft in ``dialog_data``, also for a wizard stored before its system's port.

A hand-written wizard kept its answers in ``dialog_data`` in a shape of its own; the state
names stayed, so such a wizard resumes on a flow step. The first time its draft is asked for
(a press or a redraw) the old keys are taken out and read into a draft by ``Flow.upgrade``,
or, for a sheet kept whole under one key (``Flow.legacy_key``), by the flow's ``load``; with
neither the wizard starts over from a fresh draft.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiogram.fsm.state import StatesGroup
from aiogram_dialog import DialogManager

from handlers.wizards.common import REFUSED_KEY, REVIEW_KEY, WizardStart

if TYPE_CHECKING:
    from handlers.wizards.flow.kinds import Flow

Draft = dict[str, Any]
DRAFT = "draft"
ERROR = "error"  # {"at": state name, "text": escaped HTML}: shown once on that step
_KEPT = (REVIEW_KEY, REFUSED_KEY)  # the same in the old shape and the flow's
_FLOWS: dict[str, Flow] = {}  # a StatesGroup's name → its flow


def register(flow: Flow, states: type[StatesGroup]) -> None:
    _FLOWS[states.__name__] = flow


def flow_of(manager: DialogManager) -> Flow:
    """The flow whose state the manager is in."""
    return _FLOWS[manager.current_context().state.group.__name__]


def draft(manager: DialogManager) -> Draft:
    """The flow's draft (read from a predecessor's shape the first time, if need be)."""
    data = manager.dialog_data
    if DRAFT not in data:
        data[DRAFT] = _upgraded(manager)
    found: Draft = data[DRAFT]
    return found


def _upgraded(manager: DialogManager) -> Draft:
    data = manager.dialog_data
    old = {key: data.pop(key) for key in list(data) if key not in _KEPT}
    flow = _FLOWS[manager.current_context().state.group.__name__]
    options = flow.options(WizardStart.of(manager).options)
    if flow.upgrade is not None:
        return flow.upgrade(old, options)
    return flow.load(old.get(flow.legacy_key) if flow.legacy_key else None, options)
