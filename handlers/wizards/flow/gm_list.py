"""A GM's list of a game's records (lifegear's roles), a small dialog beside the record's flow.

``/<command>`` in the private chat lists the games of the system the sender is GM of (in a
group it points to the private chat); with one game it opens that game's list, else a tap on a
game does (``og``: «Another game» back to the games). The list shows each record's line and a
button per record (``r:<index>``) that opens the record's flow on it (the stored record as the
start draft, so at its preview); «➕ New» (``new``, hidden at the cap) opens it empty. The record
flow's submit (``save``) and delete button (``delete_button``) write it as the GM and return to
the list with a notice, shown there once, or say the refusal on the step. A message to the list
says it takes buttons (once: the same again redraws nothing). The states
(``<Name>SG:game``, ``:menu``) and widget ids are stored with open dialogs and carried by sent
buttons: keep them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.fsm.state import State, StatesGroup
from aiogram.types import Message
from aiogram_dialog import DialogManager, StartMode
from aiogram_dialog.widgets.kbd import Button, Cancel, Group
from aiogram_dialog.widgets.text import Format

from bot.i18n import Translator
from db.repositories.users import UserDTO
from engine.common import Violation, errors_only
from handlers.views.sheets import fit
from handlers.wizards.common import T, WizardDialog, WizardStart, esc
from handlers.wizards.flow.custom import step_refused
from handlers.wizards.flow.extra import SHOWN_MAX
from handlers.wizards.flow.own_widgets import go, pick, settled
from handlers.wizards.flow.own_window import own_window
from handlers.wizards.flow.stored import ERROR

GAME_ID, NOTICE = "game_id", "notice"  # dialog_data, stored with an open list


def list_states(name: str) -> type[StatesGroup]:
    """The list's ``StatesGroup`` ``<name>SG``: ``game`` (which game), ``menu`` (its list)."""
    return type(f"{name}SG", (StatesGroup,), {"game": State(), "menu": State()})


@dataclass(frozen=True)
class ListWords:
    """The list's words (msgids): the command in a group (``elsewhere``), no game of the
    system (``no_games``), the games' question, the list's head ({title}), an empty list, the
    hint under the list, «➕ New …»; a record saved, deleted ({name})."""

    elsewhere: str
    no_games: str
    which_game: str
    head: str
    empty: str
    hint: str
    new: str
    saved: str = ""
    deleted: str = ""


@dataclass(frozen=True)
class GmList:
    """``records(uow, game_id)``: the game's records (each with a ``name``, a pydantic model),
    ``line(record, t)`` one in the list (escaped HTML); ``opens``: the record flow's first
    state; ``cap``: no «New» at that many; ``gm_roles``: the members who may write them.
    ``put(uow, game_id, user_id, record, edited name)`` and ``delete(uow, game_id, user_id,
    edited name)`` write one (``refused``: the exception they refuse with, its ``reason`` a
    msgid and ``params``); ``check(record)``: the engine's violations, errors refuse the save."""

    command: str
    system: str
    states: Any  # ``list_states``
    opens: State
    records: Callable[[Any, int], Awaitable[Sequence[Any]]]
    line: Callable[[Any, Translator], str]
    gm_roles: tuple[str, ...]
    cap: int
    words: ListWords
    put: Callable[[Any, int, int, Any, str], Awaitable[Any]] | None = None
    delete: Callable[[Any, int, int, str], Awaitable[Any]] | None = None
    refused: type[Exception] = Exception
    check: Callable[[Any], list[Violation]] = lambda record: []

    def games(self, manager: DialogManager) -> dict[int, str]:
        """The GM's games as listed when the command was sent: id → title."""
        data = manager.start_data
        games = data.get("games", []) if isinstance(data, dict) else []
        return {int(g[0]): str(g[1]) for g in games}

    async def command_sent(
        self, message: Message, dialog_manager: DialogManager, uow: Any, user: UserDTO,
        t: Translator,
    ) -> None:  # fmt: skip
        if message.chat.type != "private":
            await message.answer(t(self.words.elsewhere))
            return
        mine = await uow.games.games_of(user.id, roles=self.gm_roles)
        games = [g for g in mine if g.system == self.system]
        if not games:
            await message.answer(t(self.words.no_games))
            return
        data = {"games": [[g.id, g.title] for g in games]}
        state = self.states.menu if len(games) == 1 else self.states.game
        await dialog_manager.start(state, data=data, mode=StartMode.RESET_STACK)

    async def on_start(self, start_data: Any, manager: DialogManager) -> None:
        games = self.games(manager)
        if len(games) == 1:
            manager.dialog_data[GAME_ID] = next(iter(games))

    async def on_game(self, _: Any, __: Any, manager: DialogManager, game_id: int) -> None:
        if game_id in self.games(manager):
            manager.dialog_data[GAME_ID] = game_id
            await manager.switch_to(self.states.menu)

    async def open(self, manager: DialogManager, index: int | None = None) -> None:
        """The record flow on the listed record ``index`` (its preview), or on a new one."""
        game_id = int(manager.dialog_data[GAME_ID])
        records = await self.records(manager.middleware_data["uow"], game_id)
        record = records[index] if index is not None and 0 <= index < len(records) else None
        others = [r.name for r in records if r is not record]
        stored = record.model_dump(mode="json") if record else None
        start = WizardStart(game_id, self.system, {}, party=others, draft=stored)
        await manager.start(self.opens, data=start.as_data())

    async def on_pick(self, _: Any, __: Any, manager: DialogManager, index: int) -> None:
        await self.open(manager, index)

    async def on_done(self, start_data: Any, notice: Any, manager: DialogManager) -> None:
        manager.dialog_data[NOTICE] = notice or ""

    async def games_getter(self, dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
        games = self.games(dialog_manager).items()
        return {"games": [{"i": i, "name": name[:40]} for i, name in games]}

    async def menu_getter(self, dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
        t, game_id = dialog_manager.middleware_data["t"], int(dialog_manager.dialog_data[GAME_ID])
        records = await self.records(dialog_manager.middleware_data["uow"], game_id)
        titles = self.games(dialog_manager)
        shown = "\n".join(f"{i + 1}. {self.line(r, t)}" for i, r in enumerate(records))
        return {
            "title": esc(titles.get(game_id, "?")),
            "records_text": fit(shown, SHOWN_MAX) or t(self.words.empty),
            "records": [{"i": i, "name": r.name[:40]} for i, r in enumerate(records)],
            "can_add": len(records) < self.cap,
            "many_games": len(titles) > 1,
            "notice": dialog_manager.dialog_data.pop(NOTICE, ""),
        }

    @staticmethod
    def edited(manager: DialogManager) -> str:
        """In the record's flow: the stored name of the record edited ("" for a new one)."""
        return str((WizardStart.of(manager).draft or {}).get("name") or "")

    async def write(self, manager: DialogManager, record: Any) -> None:
        """Save ``record`` (None: delete the one edited) as the GM; back to the list, or
        refused on the step."""
        t, user, name = (
            manager.middleware_data["t"],
            manager.middleware_data["user"],
            self.edited(manager),
        )
        uow, game_id = manager.middleware_data["uow"], WizardStart.of(manager).game_id
        try:
            if record is None and self.delete is not None:
                await self.delete(uow, game_id, user.id, name)
            elif record is not None and self.put is not None:
                await self.put(uow, game_id, user.id, record, name)
        except self.refused as refused:
            params = {k: esc(v) for k, v in getattr(refused, "params", {}).items()}
            step_refused(manager, t(getattr(refused, "reason", ""), **params))
            return
        said = self.words.deleted if record is None else self.words.saved
        await manager.done(result=t(said, name=esc(record.name if record else name)))

    async def save(self, manager: DialogManager, record: Any) -> list[Violation]:
        """The record flow's ``finish``: written unless the engine finds errors in it."""
        problems = errors_only(self.check(record))
        if not problems:
            await self.write(manager, record)
        return problems

    def delete_button(self, label: str) -> Button:
        """A button (``del``, ``label`` a msgid) under an edited record's preview deleting it."""

        async def delete(callback: Any, button: Any, manager: DialogManager) -> None:
            await self.write(manager, None)

        return Button(T(label), "del", on_click=delete, when=lambda d, w, m: bool(self.edited(m)))

    async def error_getter(self, dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
        """The last refusal (a message to the list: it takes buttons), on its window."""
        error = dialog_manager.dialog_data.get(ERROR) or {}
        here = error.get("at") == dialog_manager.current_context().state.state
        return {"error": error.get("text", "") if here else ""}

    def dialogs(self) -> list[Router]:
        """The command's router (in a group it points to the private chat) and the list."""
        router = Router(name=f"gm_list.{self.command}")
        router.message.register(self.command_sent, Command(self.command))
        menu = WizardDialog(
            own_window(
                T(self.words.which_game),
                Group(pick("{item[name]}", "g", "games", settled(self.on_game))),
                Cancel(T("Close")), getter=self.games_getter, state=self.states.game,
            ),
            own_window(
                Format("{notice}\n", when=F["notice"]), T(self.words.head),
                Format("{records_text}"), T(self.words.hint),
                Group(pick("✏️ {item[name]}", "r", "records", settled(self.on_pick)), width=1),
                go(self.words.new, "new", self.open, when=F["can_add"]),
                go("Another game", "og", self.states.game, when=F["many_games"]),
                Cancel(T("Close")), getter=self.menu_getter, state=self.states.menu,
            ),
            on_start=self.on_start, on_process_result=self.on_done, getter=self.error_getter,
        )  # fmt: skip
        return [router, menu]
