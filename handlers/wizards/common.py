"""Shared pieces for the character-creation wizards (aiogram-dialog, one dialog per system).

Contract every ``handlers/wizards/<system>.py`` follows:

* ``START_STATE``: the first state of the wizard's ``StatesGroup`` (suffix ``SG``);
* ``create_dialogs() -> list[Router]``: fresh dialogs (and any extra router the system needs,
  e.g. a GM command that starts a second wizard); a dialog is a router and belongs to one
  dispatcher, so they are built per dispatcher, like every router here);
* the dialog is started with ``start_data`` = ``WizardStart(...).as_data()``;
* the preview's submit button calls ``await finish_wizard(manager, character)`` with the
  engine's ``Character``; when it returns violations the wizard shows them and stays.

Texts: ``T("English msgid with {placeholders}")`` translates through the update's translator
and formats with the window data; every user-supplied value in that data must already be
HTML-escaped (use ``esc``).
"""

from __future__ import annotations

import contextlib
import html
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError
from aiogram.fsm.state import State
from aiogram.types import CallbackQuery, Message
from aiogram_dialog import Dialog, DialogManager, ShowMode, Window
from aiogram_dialog.widgets.common import WhenCondition
from aiogram_dialog.widgets.kbd import Button, Cancel, Group, Keyboard
from aiogram_dialog.widgets.kbd.button import OnClick
from aiogram_dialog.widgets.text import Text

from bot.i18n import I18n, Translator
from db.repositories.users import UserDTO
from db.uow import UnitOfWork
from engine.common import SheetModel, Violation, errors_only
from handlers import submission
from handlers.callbacks import notify

TEXT_MAX = 500  # free-text answers (descriptions, backstory)
NAME_MAX = 64  # names of characters, clichés, aspects


class _Missing(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


class T(Text):
    """A translated, formatted text widget: ``T("Points left: {left}")``."""

    def __init__(self, msgid: str, when: WhenCondition = None) -> None:
        super().__init__(when=when)
        self.msgid = msgid

    async def _render_text(self, data: dict[str, Any], manager: DialogManager) -> str:
        t: Translator | None = manager.middleware_data.get("t")
        text = t(self.msgid) if t is not None else self.msgid
        return text.format_map(_Missing(data))


def esc(value: object) -> str:
    return html.escape(str(value), quote=False)


def clean_text(raw: str | None, limit: int = TEXT_MAX) -> str | None:
    """One trimmed answer of 1..limit characters (inner newlines kept), or None if unfit."""
    if raw is None:
        return None
    text = raw.strip()
    return text if 0 < len(text) <= limit and not text.startswith("/") else None


def clean_name(raw: str | None, limit: int = NAME_MAX) -> str | None:
    """A one-line name of 1..limit characters."""
    if raw is None:
        return None
    name = " ".join(raw.split())
    return name if 0 < len(name) <= limit and not name.startswith("/") else None


class WizardDialog(Dialog):
    """A wizard is one message: a typed answer redraws it in place.

    Why: aiogram-dialog's AUTO mode sends a fresh copy of the window after every message typed
    in a private chat, so a wizard of ten typed steps left ten copies, the old ones with stale
    errors. A handler that asks for another mode (a new wizard, no update) still gets it.
    """

    def __init__(
        self, *windows: Window, reentry: bool = True, cancel_id: str = "wcx", **kwargs: Any
    ) -> None:
        for window in windows:
            _ensure_cancel(window, cancel_id)
        super().__init__(*windows, **kwargs)
        self.reentry = reentry  # False: the wizard's on_start places a returned sheet itself

    async def process_start(
        self, manager: DialogManager, start_data: Any, state: State | None = None
    ) -> None:
        """A returned sheet is re-entered at its preview, the answers kept: the player fixes
        what the GM asked for from there (issue 36 item 12). ``review`` tells the steps that
        the preview was reached (their «Next» leads back to it)."""
        await super().process_start(manager, start_data, state)
        data = start_data if isinstance(start_data, dict) else {}
        if not self.reentry or not manager.has_context():  # on_start closed it: nothing to show
            return
        if data.get("draft") and data.get("character_id") is None:
            preview = next((s for s in self.states() if s.state.endswith(":preview")), None)
            if preview is not None:
                manager.dialog_data[REVIEW_KEY] = True
                await manager.switch_to(preview)

    async def _message_handler(self, message: Message, dialog_manager: DialogManager) -> None:
        if dialog_manager.show_mode is ShowMode.AUTO:
            dialog_manager.show_mode = ShowMode.EDIT
        if await _stopped_by_archive(dialog_manager):
            return
        await super()._message_handler(message, dialog_manager)
        _forget_refusal(dialog_manager)

    async def _callback_handler(
        self, callback: CallbackQuery, dialog_manager: DialogManager
    ) -> None:
        if await _stopped_by_archive(dialog_manager):
            return
        await super()._callback_handler(callback, dialog_manager)
        _forget_refusal(dialog_manager)


async def _stopped_by_archive(manager: DialogManager) -> bool:
    """A wizard of a game archived meanwhile stops with a word, at the next answer or press
    (without this the answer moved the wizard on, and only the submit said no)."""
    data = manager.start_data
    game_id = data.get("game_id") if isinstance(data, dict) else None
    if game_id is None:
        return False
    uow: UnitOfWork = manager.middleware_data["uow"]
    game = await uow.games.get(int(game_id))
    if game is not None and not game.archived:
        return False
    t: Translator = manager.middleware_data["t"]
    title = esc(game.title) if game is not None else "—"
    text = t("🗄 The game «{title}» is archived: this wizard is closed.").format(title=title)
    if isinstance(manager.event, CallbackQuery):
        tell_presser(manager, t("This game is archived."), alert=True)
    shown = manager.current_stack().last_message_id
    await manager.done(show_mode=ShowMode.NO_UPDATE)
    bot: Bot = manager.middleware_data["bot"]
    chat = manager.middleware_data["event_chat"]
    if shown is not None:  # the wizard's one message keeps its last step, without buttons
        with contextlib.suppress(TelegramAPIError):
            await bot.edit_message_reply_markup(chat_id=chat.id, message_id=shown)
    await bot.send_message(chat.id, text)
    return True


def _has_cancel(keyboard: Keyboard) -> bool:
    if isinstance(keyboard, Cancel):
        return True
    inner = getattr(keyboard, "buttons", ())
    return any(_has_cancel(button) for button in inner if isinstance(button, Keyboard))


def _ensure_cancel(window: Window, cancel_id: str = "wcx") -> None:
    """Every step can be left with one tap: a window without its own «Cancel» gets one last
    (``cancel_id``: the id a released wizard's «Cancel» carries, kept)."""
    if not _has_cancel(window.keyboard):
        cancel = Cancel(T("✖️ Cancel"), id=cancel_id, on_click=_say_cancelled)
        window.keyboard = Group(window.keyboard, cancel)


async def _say_cancelled(callback: CallbackQuery, button: Any, manager: DialogManager) -> None:
    t: Translator = manager.middleware_data["t"]
    tell_presser(manager, t("Cancelled."))
    # The step's text would stay on screen without its buttons («Step 2 of 4…»), as if the
    # wizard were still waiting: the message says it ended instead.
    if isinstance(callback.message, Message):
        with contextlib.suppress(TelegramAPIError):
            await callback.message.edit_text(t("✖️ Cancelled: nothing was saved."))


@dataclass(frozen=True)
class WizardStart:
    """What a wizard is started with (stored as JSON in the dialog context)."""

    game_id: int
    system: str
    options: dict[str, Any]
    party: list[str] = field(default_factory=list)  # other characters' names (for crossings)
    draft: dict[str, Any] | None = None  # a sheet to start from (returned or edited), as JSON
    npc: bool = False
    character_id: int | None = None  # editing this approved character instead of creating
    base_version: int | None = None  # the sheet version the editor was opened on

    def as_data(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id, "system": self.system, "options": self.options,
            "party": self.party, "draft": self.draft, "npc": self.npc,
            "character_id": self.character_id, "base_version": self.base_version,
        }  # fmt: skip

    @classmethod
    def of(cls, manager: DialogManager) -> WizardStart:
        data = manager.start_data
        assert isinstance(data, dict)
        return cls(
            game_id=int(data["game_id"]), system=str(data["system"]),
            options=dict(data.get("options") or {}), party=list(data.get("party") or []),
            draft=data.get("draft"), npc=bool(data.get("npc")),
            character_id=data.get("character_id"), base_version=data.get("base_version"),
        )  # fmt: skip


def making_npc(data: object, widget: object, manager: DialogManager) -> bool:
    """``when`` of what the GM's own NPC shows in the preview instead of the player's words:
    an NPC is saved and active at once, nobody approves it (issue 24 item 1)."""
    return WizardStart.of(manager).npc


def for_a_player(data: object, widget: object, manager: DialogManager) -> bool:
    return not making_npc(data, widget, manager)


def submit_button(label: str, on_click: OnClick, widget_id: str = "ok") -> Group:
    """The preview's last step: «✅ Send to the GM» (``label``) for a player's character,
    «✅ Save the NPC» for the GM's NPC; both call ``on_click`` (``finish_wizard``)."""
    return Group(
        Button(T(label), id=widget_id, on_click=on_click, when=for_a_player),
        Button(T("✅ Save the NPC"), id=widget_id + "n", on_click=on_click, when=making_npc),
    )


def npc_preview_head() -> T:
    return T(
        "<b>NPC preview</b>: check it and change any step; once saved it is active at once.\n",
        when=making_npc,
    )


def locale_of(manager: DialogManager) -> str:
    return str(manager.middleware_data.get("locale", "ru"))


def tell_presser(manager: DialogManager, text: str, *, alert: bool = False) -> None:
    """The text of the press's one answer, which aiogram-dialog sends after the redraw (or
    sooner, ``bot.answers``). Calling ``callback.answer`` as well would answer twice."""
    notify(manager.middleware_data["callback_answer"], text, alert=alert)


_TAG = re.compile(r"<[^>]+>")
REVIEW_KEY = "review"  # dialog_data: the preview was reached, Next on a step returns to it
REFUSED_KEY = "refused"  # dialog_data: the last refusal a press was answered with
_REFUSED_NOW = "wizard_refused"  # middleware_data: this update refused something


def refuse(manager: DialogManager, text: str) -> None:
    """A refusal's reason in the press's own answer (an alert), as well as in the message.

    ``text`` is the message's escaped HTML line; the answer takes plain text. A typed answer
    has no press to answer: the message alone carries the reason then (issue 36 item 8).
    The first time it is an alert; the same refusal pressed again (already on the screen) is
    a toast with the same words, so a player tapping on is not stopped by a modal each time.
    """
    if not text or not isinstance(manager.event, CallbackQuery):
        return
    again = manager.dialog_data.get(REFUSED_KEY) == text
    manager.dialog_data[REFUSED_KEY] = text
    manager.middleware_data[_REFUSED_NOW] = True
    tell_presser(manager, html.unescape(_TAG.sub("", text)).strip(), alert=not again)


def _forget_refusal(manager: DialogManager) -> None:
    """An update that refused nothing: the next refusal is news again (an alert)."""
    if not manager.middleware_data.pop(_REFUSED_NOW, False) and manager.has_context():
        manager.dialog_data.pop(REFUSED_KEY, None)


def violations_text(
    violations: list[Violation],
    locale: str,
    explain: Callable[[Violation, str], str] | None = None,
) -> str:
    """Blocking problems first, then warnings, as escaped bullet lines (``explain``: a
    system's own words for a violation, unescaped)."""
    errors = errors_only(violations)
    warnings = [v for v in violations if v not in errors]
    said = explain or (lambda v, loc: v.render(loc))
    lines = ["⛔ " + esc(said(v, locale)) for v in errors]
    lines += ["⚠️ " + esc(said(v, locale)) for v in warnings]
    return "\n".join(lines)


async def finish_wizard(manager: DialogManager, character: SheetModel) -> list[Violation]:
    """Submit the sheet for the GM's approval and close the wizard.

    Returns the blocking violations instead (nothing stored) when the engine refuses it.
    """
    data = manager.middleware_data
    uow: UnitOfWork = data["uow"]
    user: UserDTO = data["user"]
    bot: Bot = data["bot"]
    i18n: I18n = data["i18n"]
    start = WizardStart.of(manager)
    t: Translator = data["t"]
    problems = await submission.submit_from_wizard(
        uow, bot, i18n, t, start=start, user=user, character=character
    )
    if problems:
        return problems
    await manager.done()
    return []
