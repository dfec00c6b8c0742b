"""A step that reopens earlier steps in a mode: a second budget spent on the same pages at
other costs (storyteller's freebies), the same traits, another rule.

Its buttons open a target step with the mode on (``mode(manager)``, passed to an
``Allocate.rule`` as ``DotPress.mode``) and the target's question for that mode; «Next» and
«Back» there come back to the reopening step, the mode off.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from aiogram.types import CallbackQuery
from aiogram_dialog import DialogManager
from aiogram_dialog.widgets.kbd import Button, Group

from engine.common import SheetModel
from handlers.wizards.common import T
from handlers.wizards.flow.custom import Custom, Shown
from handlers.wizards.flow.kinds import Step

REOPENED = "reopened"  # dialog_data: {"back": state name, "mode": mode, "ask": msgid}


def reopen(
    key: str, title: str, prompt: str, targets: Sequence[Step], *, mode: str,
    lines: Callable[[SheetModel, Any, Any, str], str], asks: Callable[[str], str],
    ids: str = "o",
) -> Custom:  # fmt: skip
    """``targets``' buttons (ids ``<ids><step key>``, labels their titles); ``lines`` the
    step's own text (as ``Info.lines``); ``asks(target key)`` the target's question (msgid)."""

    def widgets() -> list[Any]:
        buttons = [
            Button(T(s.title), id=f"{ids}{s.key}", on_click=_open(s.key, mode, asks(s.key)))
            for s in targets
        ]
        return [Group(*buttons, width=2)]

    def data(shown: Shown) -> dict[str, Any]:
        return {"lines": [lines(shown.sheet, shown.options, shown.t, shown.locale)]}

    return Custom(key, title, prompt, widgets, data)


def _open(target: str, mode: str, ask: str) -> Callable[..., Awaitable[None]]:
    async def handler(callback: CallbackQuery, button: Any, manager: DialogManager) -> None:
        here = manager.current_context().state
        manager.dialog_data[REOPENED] = {"back": here.state, "mode": mode, "ask": ask}
        await manager.switch_to(getattr(here.group, target))

    return handler


def mode(manager: DialogManager) -> str:
    return str((manager.dialog_data.get(REOPENED) or {}).get("mode", ""))


def question(manager: DialogManager) -> str:
    """The reopened step's question in its mode ("" when not reopened)."""
    return str((manager.dialog_data.get(REOPENED) or {}).get("ask", ""))


async def back(manager: DialogManager) -> bool:
    """«Next»/«Back» on a reopened step: back to the step that reopened it (True), mode off."""
    was = manager.dialog_data.pop(REOPENED, None)
    if not was:
        return False
    group = manager.current_context().state.group
    await manager.switch_to(next(s for s in group.__states__ if s.state == was["back"]))
    return True
