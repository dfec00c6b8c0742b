"""The frame of an own window (a ``Screens`` step's, an own preview), written once: its widgets,
the last refusal under them, a typed answer cleaned or refused with the window's own words,
anything else refused with a hint (the window stays, with its keyboard); a window with a
typed answer of its own (``own_widgets.typed``) asks anything else for text. «To the preview» is
``flow.look.preview_button``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiogram.fsm.state import State
from aiogram.types import ContentType, Message
from aiogram_dialog import DialogManager, Window
from aiogram_dialog.widgets.input import MessageInput, TextInput

from handlers.wizards.flow.own import own_fail
from handlers.wizards.flow.own_widgets import ERROR_LINE


@dataclass(frozen=True)
class Typed:
    """A typed answer: the input's id, ``clean(raw)`` (None: it does not fit), what takes the
    cleaned answer, the words for one that does not fit (a msgid, may use {limit})."""

    id: str
    clean: Callable[[str], str | None]
    taken: Any  # (message, widget, manager, cleaned answer) → awaitable
    unfit: str
    limit: int = 64


def own_window(
    *widgets: Any, state: State, typed: Typed | None = None, getter: Any = None
) -> Window:
    inputs: list[Any] = [MessageInput(buttons_only, content_types=ContentType.ANY)]
    if typed:
        inputs = [
            TextInput(
                id=typed.id, type_factory=_parse(typed), on_success=typed.taken,
                on_error=_unfit(typed),
            ),
            MessageInput(_not_text, content_types=ContentType.ANY),
        ]  # fmt: skip
    elif any(isinstance(w, TextInput) for w in widgets):  # its own (``own_widgets.typed``)
        inputs = [MessageInput(_not_text, content_types=ContentType.ANY)]
    return Window(*widgets, ERROR_LINE, *inputs, state=state, getter=getter)


def _parse(typed: Typed) -> Callable[[str], str]:
    def parse(raw: str) -> str:
        cleaned = typed.clean(raw)
        if cleaned is None:
            raise ValueError("unfit")
        return cleaned

    return parse


def _unfit(typed: Typed) -> Any:
    async def handler(message: Message, widget: Any, manager: DialogManager, error: Any) -> None:
        own_fail(manager, manager.middleware_data["t"](typed.unfit, limit=typed.limit))

    return handler


async def _not_text(message: Message, widget: Any, manager: DialogManager) -> None:
    own_fail(manager, manager.middleware_data["t"]("Please answer with text, or /cancel."))


async def buttons_only(message: Message, widget: Any, manager: DialogManager) -> None:
    """A message to an own window that takes none: say what it takes."""
    own_fail(manager, manager.middleware_data["t"]("Please use the buttons, or /cancel."))
