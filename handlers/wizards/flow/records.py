"""A list of entries in the draft, each asked part by part (``Records``): a ``Screens`` step
whose window lists the entries, one ``more`` window per part of an entry (a typed name, a
counter or a choice, an optional typed text …) and, optionally, the entry's card.

«➕ Add» (``add``) is refused with the engine's reason at the engine's cap; the new entry is
then asked part by part, each part's answer leading on to the next (``onward``), the last back
to the list. Once added, a tap on it in the list opens its card (``opener``), whose buttons open
one part's window; that part's answer, or its «Back», comes back to the card. «🗑 Delete»
(``delete``) takes it out, back to the list. Without a card a part comes back to the list.

The system lays out the windows in its own words and widget ids (``own_widgets``: ``go``,
``typed``, ``counter``, ``pick``); this piece keeps which entry is at hand and whether it is
being added in ``dialog_data`` (``CUR``, ``ADDING``: stored with a resumable wizard, so keep
them) and moves between the windows by their state keys (``own_switch``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiogram.types import CallbackQuery
from aiogram_dialog import DialogManager

from engine.common import Violation
from handlers.wizards.common import locale_of, violations_text
from handlers.wizards.flow.own import own_draft, own_fail, own_switch
from handlers.wizards.flow.own_widgets import (
    Act,
    Entries,
    Handler,
    OnEntry,
    Store,
    indexed,
    settled,
)

CUR, ADDING = "cur", "adding"
Explain = Callable[[Violation, str], str]
Naming = Callable[[DialogManager, int, str], list[Violation]]  # (manager, index or -1, name)
Stepping = Callable[[DialogManager, int, int], list[Violation]]  # (manager, index, ±1)


def refused(
    manager: DialogManager, problems: list[Violation], explain: Explain | None = None
) -> bool:
    """Say the engine's ``problems`` (if any) on the window; whether there were any."""
    if problems:
        own_fail(manager, violations_text(problems, locale_of(manager), explain))
    return bool(problems)


def answered(key: str, then: str, onward: bool = False) -> Store:
    """A typed answer kept in the draft as ``key``, then on to the step ``then`` (``onward``:
    back to the preview instead once it was reached, ``own_switch``)."""

    async def store(manager: DialogManager, value: str) -> None:
        own_draft(manager)[key] = value
        await own_switch(manager, then, onward=onward)

    return store


def appender(
    entries: Entries, full: Callable[[DialogManager], list[Violation]], make: Any = str
) -> Store:
    """A typed answer added to a list as ``make(answer)``, unless ``full`` (the engine's
    reasons against one more) refuses it."""

    async def store(manager: DialogManager, value: str) -> None:
        if not refused(manager, full(manager)):
            entries(manager).append(make(value))

    return store


def remover(entries: Entries) -> OnEntry:
    """A tap that takes a list's entry out (``own_widgets.removers``: «❌ n»)."""

    async def drop(manager: DialogManager, index: int) -> None:
        entries(manager).pop(index)

    return drop


def taken(store: Store) -> Handler:
    """``store`` as the handler of an answer (an ``own_window.Typed``'s cleaned text, the id
    of a ``Select``'s choice)."""

    async def handler(event: Any, widget: Any, manager: DialogManager, value: str) -> None:
        await store(manager, value)

    return settled(handler)


@dataclass(frozen=True)
class Records:
    """The draft's list ``entries``, listed on the step ``key``; an entry is asked on the
    ``parts`` states in order, its first part a name (``named``: ``new(name)`` makes the
    entry), then shown on ``card`` ("": the list). ``full(manager)``: the engine's reasons
    against one more entry; ``explain`` says a violation in the system's words."""

    key: str
    parts: tuple[str, ...]
    entries: Entries
    new: Callable[[str], dict[str, Any]]
    full: Callable[[DialogManager], list[Violation]]
    card: str = ""
    explain: Explain | None = None

    def at(self, manager: DialogManager) -> int:
        return int(manager.dialog_data.get(CUR, -1))

    def current(self, manager: DialogManager) -> dict[str, Any] | None:
        """The entry at hand, or None (a new one not named yet, or a stale index)."""
        index, items = self.at(manager), self.entries(manager)
        found: dict[str, Any] | None = items[index] if 0 <= index < len(items) else None
        return found

    async def open(self, manager: DialogManager, index: int, key: str, **marks: Any) -> None:
        manager.dialog_data.update({CUR: index, **marks})
        await own_switch(manager, key)

    def within(self, field: str) -> Entries:
        """The list ``field`` of the entry at hand (a cliché's tools): none without one."""
        return lambda manager: (self.current(manager) or {}).get(field, [])

    def opener(self, key: str = "", **marks: Any) -> Handler:
        """A tap on an entry in a list (``pick``): its card (or the window ``key``), no longer
        adding."""

        async def act(manager: DialogManager, index: int) -> None:
            await self.open(manager, index, key or self.card, **{ADDING: False, **marks})

        return indexed(self.entries, act)

    def remover(self) -> Handler:
        """A tap on an entry in a list that takes it out (a list without cards: «✖ name»)."""
        return indexed(self.entries, remover(self.entries))

    def onward(self, part: str = "") -> Act:
        """On (or back) from a part: to ``part`` ("": the list) while the entry is being
        added, else to its card; the list once the entry is gone (which ends the adding)."""

        async def act(manager: DialogManager) -> None:
            here = self.current(manager) is not None
            adding = here and bool(manager.dialog_data.get(ADDING))
            target = (part if adding else self.card if here else "") or self.key
            manager.dialog_data[ADDING] = adding and target != self.key
            await own_switch(manager, target)

        return act

    async def add(self, manager: DialogManager) -> None:
        """«➕ Add»: the first part of a new entry, unless the engine refuses one more."""
        if not refused(manager, self.full(manager), self.explain):
            await self.open(manager, -1, self.parts[0], **{ADDING: True})

    def named(self, refusal: Naming | None = None) -> Store:
        """The first part's answer, a name (``refusal``: the engine's reasons against it): a
        new entry goes on to the next part, a renamed one back to its card."""

        async def store(manager: DialogManager, name: str) -> None:
            index, items = self.at(manager), self.entries(manager)
            if refusal and refused(manager, refusal(manager, index, name), self.explain):
                return
            if index < 0:
                items.append(self.new(name))
                manager.dialog_data[CUR] = len(items) - 1
                return await self.onward((*self.parts, "")[1])(manager)
            if (item := self.current(manager)) is not None:
                item["name"] = name
            await self.onward()(manager)

        return store

    def setter(self, field: str, then: str = "", fits: Callable[[str], bool] = bool) -> Store:
        """A part's answer (typed, or a choice's id) kept as the entry's ``field`` (unless it
        does not ``fit``), then on to the part ``then`` (an optional part's «Skip» is just
        ``onward(then)``)."""

        async def store(manager: DialogManager, value: str) -> None:
            if (item := self.current(manager)) is not None and fits(value):
                item[field] = value
            await self.onward(then)(manager)

        return store

    def stepper(self, field: str, refusal: Stepping) -> Handler:
        """➖ / ➕ on the entry's number ``field`` (the ➕'s widget id ends in «p»), unless the
        engine refuses the step."""

        async def press(callback: CallbackQuery, button: Any, manager: DialogManager) -> None:
            item, step = self.current(manager), 1 if (button.widget_id or "").endswith("p") else -1
            if item is None:
                await self.onward()(manager)
            elif not refused(manager, refusal(manager, self.at(manager), step), self.explain):
                item[field] = int(item[field]) + step

        return settled(press)

    async def delete(self, manager: DialogManager) -> None:
        """«🗑 Delete»: the entry at hand is taken out, back to the list."""
        if self.current(manager) is not None:
            self.entries(manager).pop(self.at(manager))
        await self.open(manager, -1, self.key, **{ADDING: False})

    async def dropped(self, manager: DialogManager) -> None:
        """«Back» from a part that leaves no half-asked entry behind: the new one is dropped."""
        if manager.dialog_data.get(ADDING):
            await self.delete(manager)
        else:
            await self.onward()(manager)
