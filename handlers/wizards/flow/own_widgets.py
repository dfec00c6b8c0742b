"""The pieces a flow's own step (``flow.custom``) is made of, so its window says what it shows
and does, not how: a refusal is shown once under the step's question (``say``; the window reads
it with ``take_refusal``); a button is a state to go to or an ``Act`` on the manager (``go``); a
typed answer is cleaned and refused in the step's own words (``typed``); a list's entries are
tapped by index (``pick`` + ``indexed``, «❌ n» ``removers``); a value moves with ➖ / ➕
(``counter``)."""

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
from engine.common import Violation
from handlers.wizards.common import (
    NAME_MAX,
    TEXT_MAX,
    T,
    clean_name,
    clean_text,
    locale_of,
    refuse,
    violations_text,
)

Act = Callable[[DialogManager], Awaitable[None]]
Handler = Callable[..., Awaitable[None]]
Store = Callable[[DialogManager, str], Awaitable[None]]  # keeps a typed answer
Entries = Callable[[DialogManager], list[Any]]  # a list in the draft, read from the manager
OnEntry = Callable[[DialogManager, int], Awaitable[None]]  # a tap on the entry at an index
PROBLEM, SHOWN = "problem", "shown"  # dialog_data: the refusal to show, the one on screen


def say(manager: DialogManager, text: str) -> None:
    """Show ``text`` (escaped HTML) once, under the current step's question, and in the
    press's answer.

    A button pressed again while the window already shows exactly this text re-renders nothing:
    the identical edit would be «message is not modified», which the outbound layer turns into
    ``True`` and aiogram-dialog cannot take instead of a message. (A typed answer always gets a
    new message that repeats the question.)
    """
    refuse(manager, text)
    if isinstance(manager.event, CallbackQuery) and text == manager.dialog_data.get(SHOWN):
        unchanged(manager)
    else:
        manager.dialog_data[PROBLEM] = text


def refused(manager: DialogManager, problems: list[Violation]) -> bool:
    """Say the engine's ``problems`` (if any); whether there were any."""
    if problems:
        say(manager, violations_text(problems, locale_of(manager)))
    return bool(problems)


def take_refusal(manager: DialogManager) -> str:
    """The window's refusal line, shown this once (see ``say``)."""
    problem = str(manager.dialog_data.pop(PROBLEM, ""))
    manager.dialog_data[SHOWN] = problem
    return problem


def refusal_line() -> Format:
    return Format("\n{problem}", when="problem")


def unchanged(manager: DialogManager) -> None:
    """Nothing changed: keep the message as it is (see ``say``)."""
    manager.show_mode = ShowMode.NO_UPDATE


async def noop(callback: CallbackQuery, _: Any, manager: DialogManager) -> None:
    unchanged(manager)


def press(act: Act) -> Handler:
    """A button's handler that runs ``act``."""

    async def handler(callback: CallbackQuery, _: Any, manager: DialogManager) -> None:
        await act(manager)

    return handler


def go(label: str, wid: str, to: State | Act, when: Any = None) -> Keyboard:
    """A button (``label`` a msgid) to a state, or one that runs ``to``."""
    if isinstance(to, State):
        return SwitchTo(T(label), id=wid, state=to, when=when)
    return Button(T(label), id=wid, on_click=press(to), when=when)


def typed(wid: str, msgid: str, store: Store, long: bool = False) -> TextInput[str]:
    """A typed answer: one line of up to ``NAME_MAX`` (or ``long`` free text of up to
    ``TEXT_MAX``) for ``store``; unfit, refused with ``msgid`` (given its ``{limit}``)."""

    async def handler(message: Message, _: Any, manager: DialogManager, value: str) -> None:
        text = clean_text(value) if long else clean_name(value)
        if text is None:
            t: Translator = manager.middleware_data["t"]
            say(manager, "⛔ " + t(msgid, limit=TEXT_MAX if long else NAME_MAX))
        else:
            await store(manager, text)

    return TextInput(id=wid, on_success=handler)


def indexed(items: Entries, act: OnEntry) -> Handler:
    """A tap on one of a list's entries (``pick``); a stale index changes nothing."""

    async def handler(callback: CallbackQuery, _: Any, manager: DialogManager, index: int) -> None:
        if 0 <= index < len(items(manager)):
            await act(manager, index)
        else:
            unchanged(manager)

    return handler


def pick(text: str, wid: str, items: str, on_click: Handler) -> Select[int]:
    """One button per entry of the window data's ``items``, each a dict with its index ``i``."""
    return Select(
        Format(text), id=wid, item_id_getter=itemgetter("i"), items=items, type_factory=int,
        on_click=on_click,
    )  # fmt: skip


def removers(wid: str, items: str, entries: Entries, act: OnEntry) -> Group:
    """«❌ n» per entry of the window data's ``items`` (each with ``i`` and ``n``), five a row."""
    return Group(pick("❌ {item[n]}", wid, items, indexed(entries, act)), width=5)


def counter(minus: str, label: Any, mid: str, plus: str, on_click: Handler) -> Row:
    """➖ label ➕ (the label does nothing); ``on_click`` reads the widget id pressed."""
    return Row(
        Button(Const("➖"), id=minus, on_click=on_click),
        Button(label, id=mid, on_click=noop),
        Button(Const("➕"), id=plus, on_click=on_click),
    )
