"""Pieces an own window (a ``Screens`` step's, an own preview) is made of, so it says what it
shows and does, not how: a button is a state to go to or an ``Act`` on the manager (``go``); a
typed answer is cleaned and refused in the step's own words (``typed``); a list's entries are
tapped by index (``pick`` + ``indexed``, «❌ n» ``removers``); a value moves with ➖ / ➕
(``counter``); ``ERROR_LINE`` shows the last refusal (``flow.own``: ``own_fail``). A press
through these pieces that refuses nothing takes that refusal off its step (``settled``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from operator import itemgetter
from typing import Any

from aiogram.fsm.state import State
from aiogram.types import CallbackQuery, Message
from aiogram_dialog import DialogManager, ShowMode
from aiogram_dialog.widgets.input import TextInput
from aiogram_dialog.widgets.kbd import Button, Group, Keyboard, Row, Select, SwitchTo
from aiogram_dialog.widgets.text import Const, Format

from bot.i18n import Translator
from handlers.wizards.common import NAME_MAX, TEXT_MAX, T, clean_name, clean_text
from handlers.wizards.flow.dialog import ERROR
from handlers.wizards.flow.own import own_clear, own_fail

Act = Callable[[DialogManager], Awaitable[None]]
Handler = Callable[..., Awaitable[None]]
Store = Callable[[DialogManager, str], Awaitable[None]]  # keeps a typed answer
Entries = Callable[[DialogManager], list[Any]]  # a list in the draft, read from the manager
OnEntry = Callable[[DialogManager, int], Awaitable[None]]  # a tap on the entry at an index
ERROR_LINE = Format("\n{error}", when="error")  # the last refusal, under the window


def settled(handler: Handler) -> Handler:
    """``handler``, after which a refusal it did not say again is gone (it was shown once);
    a press that redraws nothing leaves the message, and its refusal, as they are."""

    async def run(event: Any, widget: Any, manager: DialogManager, *rest: Any) -> None:
        before = manager.dialog_data.get(ERROR)
        await handler(event, widget, manager, *rest)
        if (
            manager.show_mode is not ShowMode.NO_UPDATE
            and manager.dialog_data.get(ERROR) is before
        ):
            own_clear(manager)

    return run


def unchanged(manager: DialogManager) -> None:
    """Nothing changed: keep the message as it is."""
    manager.show_mode = ShowMode.NO_UPDATE


async def noop(callback: CallbackQuery, _: Any, manager: DialogManager) -> None:
    unchanged(manager)


def press(act: Act) -> Handler:
    """A button's handler that runs ``act``."""

    async def handler(callback: CallbackQuery, _: Any, manager: DialogManager) -> None:
        await act(manager)

    return settled(handler)


async def _leave(callback: CallbackQuery, _: Any, manager: DialogManager) -> None:
    own_clear(manager)


def go(label: str, wid: str, to: State | Act, when: Any = None) -> Keyboard:
    """A button (``label`` a msgid) to a state, or one that runs ``to``."""
    if isinstance(to, State):
        return SwitchTo(T(label), id=wid, state=to, when=when, on_click=_leave)
    return Button(T(label), id=wid, on_click=press(to), when=when)


def typed(wid: str, msgid: str, store: Store, long: bool = False) -> TextInput[str]:
    """A typed answer: one line of up to ``NAME_MAX`` (or ``long`` free text of up to
    ``TEXT_MAX``) for ``store``; unfit, refused with ``msgid`` (given its ``{limit}``)."""

    async def handler(message: Message, _: Any, manager: DialogManager, value: str) -> None:
        text = clean_text(value) if long else clean_name(value)
        if text is None:
            t: Translator = manager.middleware_data["t"]
            own_fail(manager, "⛔ " + t(msgid, limit=TEXT_MAX if long else NAME_MAX))
        else:
            await store(manager, text)

    return TextInput(id=wid, on_success=settled(handler))


def indexed(items: Entries, act: OnEntry) -> Handler:
    """A tap on one of a list's entries (``pick``); a stale index changes nothing."""

    async def handler(callback: CallbackQuery, _: Any, manager: DialogManager, index: int) -> None:
        if 0 <= index < len(items(manager)):
            await act(manager, index)
        else:
            unchanged(manager)

    return settled(handler)


def pick(text: str, wid: str, items: str, on_click: Handler) -> Select[int]:
    """One button per entry of the window data's ``items``, each a dict with its index ``i``."""
    return Select(
        Format(text), id=wid, item_id_getter=itemgetter("i"), items=items, type_factory=int,
        on_click=on_click,
    )  # fmt: skip


def removers(
    wid: str,
    items: str,
    entries: Entries,
    act: OnEntry,
    text: str = "❌ {item[n]}",
    width: int = 5,
) -> Group:
    """«❌ n» per entry of the window data's ``items`` (each with ``i`` and ``n``), five a row;
    ``text`` and ``width`` another label and row (a released «❌ name», two a row)."""
    return Group(pick(text, wid, items, indexed(entries, act)), width=width)


def counter(minus: str, label: Any, mid: str, plus: str, on_click: Handler) -> Row:
    """➖ label ➕ (the label does nothing); ``on_click`` reads the widget id pressed."""
    return Row(
        Button(Const("➖"), id=minus, on_click=settled(on_click)),
        Button(label, id=mid, on_click=noop),
        Button(Const("➕"), id=plus, on_click=settled(on_click)),
    )
