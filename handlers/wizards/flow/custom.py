"""A step no kind covers, drawn by its system (groups ranked by priority, crossings tied to
party members, a refresh traded for stunts).

The flow gives it what every step has: its header and question, «Back» / «Next», «Cancel»,
the step's check through the engine at «Next», the refusal line, the preview's jump to it.
The step brings ``widgets()``, put between its text and «Back» / «Next» (without a
``TextInput`` of its own a message to it is answered with ``Wording.buttons_only``);
``data(shown)``, its window data (``"lines"``, escaped HTML, shown under the question; the
rest for its widgets and the question's {placeholders}); and its widgets' handlers, which
change the draft (``draft``) and refuse or accept a press as the flow's own steps do
(``step_refused`` / ``step_fine``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from aiogram.types import Message
from aiogram_dialog import DialogManager, ShowMode
from aiogram_dialog.widgets.input import TextInput
from aiogram_dialog.widgets.kbd import Button

from engine.common import SheetModel
from handlers.wizards.common import T, WizardStart, esc, locale_of, refuse
from handlers.wizards.flow import stored
from handlers.wizards.flow.stored import ERROR


@dataclass(frozen=True)
class Shown:
    """What a ``Custom`` step's window data is made from: the sheet so far, the game's
    options, the translator and locale; ``manager`` for what the sheet does not hold (the
    draft's own keys, the party, its widgets' state)."""

    sheet: SheetModel
    options: Any
    t: Any
    locale: str
    manager: DialogManager


@dataclass(frozen=True)
class Custom:
    key: str
    title: str
    prompt: str
    widgets: Callable[[], Sequence[Any]]
    data: Callable[[Shown], dict[str, Any] | Awaitable[dict[str, Any]]]
    needs: str = ""  # a msgid said at «Next» while the step's value in the draft is empty


def draft(manager: DialogManager) -> stored.Draft:
    return stored.draft(manager)


def step_refused(manager: DialogManager, text: str) -> None:
    """``text`` (escaped) in the press's answer and on this step until the next good answer."""
    refuse(manager, text)
    error = {"at": manager.current_context().state.state, "text": text}
    if manager.dialog_data.get(ERROR) == error:  # on the screen already, press or message:
        manager.show_mode = ShowMode.NO_UPDATE  # Telegram refuses an edit to identical content
    manager.dialog_data[ERROR] = error  # a new value each time: ``own_widgets.settled`` sees it


def step_said(manager: DialogManager, msgid: str, **params: Any) -> None:
    """``step_refused`` with ``msgid`` translated (with ``params``) and escaped."""
    step_refused(manager, esc(manager.middleware_data["t"](msgid, **params)))


def sheet_so_far(manager: DialogManager) -> tuple[Any, Any]:
    """The sheet the draft builds now and the game's options (a step's handler asks the engine
    about them, as ``Shown`` gives them to its window data)."""
    flow = stored.flow_of(manager)
    options = flow.options(WizardStart.of(manager).options)
    return flow.build(draft(manager), options), options


def step_fine(manager: DialogManager) -> None:
    manager.dialog_data.pop(ERROR, None)


def remove_last(key: str, nothing: str) -> Callable[..., Awaitable[None]]:
    """«↩️ Remove last» of the draft's list ``key``; ``nothing`` (a msgid) when it is empty."""

    async def handler(callback: Any, widget: Any, manager: DialogManager) -> None:
        found = draft(manager)
        if not found.get(key):
            step_refused(manager, esc(manager.middleware_data["t"](nothing)))
            return
        found[key] = found[key][:-1]
        step_fine(manager)

    return handler


def remove_last_button(key: str, nothing: str) -> Button:
    """«↩️ Remove last» (``rm``) of the draft's list ``key`` (``remove_last``), put whatever
    the list holds, so no button moves from under the thumb."""
    return Button(T("↩️ Remove last"), id="rm", on_click=remove_last(key, nothing))


@dataclass(frozen=True)
class Typed:
    """A message to a ``Custom`` step (``typed_input``): its text, the sheet so far, the game's
    options, the translator and locale, and the manager (the draft, the party)."""

    text: str
    sheet: Any
    options: Any
    t: Any
    locale: str
    manager: DialogManager

    @property
    def draft(self) -> stored.Draft:
        return draft(self.manager)

    def said(self, msgid: str, **params: Any) -> str:
        """A refusal in the step's words: ``msgid`` translated (with ``params``), escaped."""
        return esc(self.t(msgid, **params))


def typed_input(take: Callable[[Typed], str | None], wid: str = "in") -> TextInput[str]:
    """The step's answer by message: ``take`` changes the draft as it takes it, or returns why
    not (escaped HTML), said as the step's refusal (as ``Allocate.rule`` does for a press)."""

    async def handler(message: Message, widget: Any, manager: DialogManager, text: str) -> None:
        sheet, options = sheet_so_far(manager)
        t, locale = manager.middleware_data["t"], locale_of(manager)
        refused = take(Typed(text, sheet, options, t, locale, manager))
        if refused:
            step_refused(manager, refused)
        else:
            step_fine(manager)

    return TextInput(id=wid, on_success=handler)
