"""An own window whose typed answer is one of its widgets (``own_widgets.typed``, not
``own_window``'s ``Typed``): a message that is no text is asked for text, the window stays."""

from __future__ import annotations

from html import escape
from typing import Any

import pytest
from aiogram.fsm.state import State
from aiogram_dialog import DialogManager, Window
from aiogram_dialog.widgets.text import Format

from handlers.wizards.flow import Flow, Screens, own_draft
from handlers.wizards.flow.own_widgets import typed
from handlers.wizards.flow.own_window import own_window
from tests.conftest import Harness
from tests.games.helpers import ALICE
from tests.wizards.storyteller.driver import Player
from tests.wizards.toy.driven import opened_by, serve
from tests.wizards.toy.toy import ToySheet


async def _noted(manager: DialogManager, note: str) -> None:
    own_draft(manager)["note"] = note


async def _getter(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
    return {"note": escape(own_draft(dialog_manager).get("note", "none"))}


def _note_window(state: State) -> Window:
    typed_note = typed("nt", "A note of 1 to {limit}.", _noted)
    return own_window(Format("Note: {note}."), typed_note, state=state, getter=_getter)


NOTE = Flow(
    name="notetoy",
    steps=(Screens("note", "Note", "", lambda states: [_note_window(states.note)]),),
    options=lambda raw: dict(raw),
    build=lambda d, o: ToySheet(name=d.get("note", "")),
    load=lambda sheet, o: {},
    validate=lambda sheet, o: [],
    render=lambda s, t, locale: escape(s.name),
)


@pytest.fixture
async def note(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> Player:
    return await serve(harness, monkeypatch, opened_by("notetoy", NOTE, {}))


async def test_a_file_to_an_own_typed_window_is_asked_for_text(note: Player) -> None:
    p = note
    await p.say("/notetoy")
    assert "Note: none." in p.text
    p.h.emu.send_document(ALICE, ALICE, "note.json", b"{}")
    await p.h.emu.wait_idle()
    await p.settled()
    assert "Note: none." in p.text and "Please answer with text, or /cancel." in p.text
    await p.say("tea")
    assert "Note: tea." in p.text and "Please answer" not in p.text


async def test_the_same_refusal_again_sends_no_edit_telegram_would_refuse(note: Player) -> None:
    """A second file (or the same unfit text) redrew the window unchanged, and Telegram
    refused that edit («message is not modified»); now nothing is sent: it is on screen."""
    p = note
    await p.say("/notetoy")
    for _ in range(2):
        p.h.emu.send_document(ALICE, ALICE, "note.json", b"{}")
        await p.h.emu.wait_idle()
    await p.settled()
    assert "Please answer with text, or /cancel." in p.text
    failed = [c for c in p.h.emu.calls if not c.ok]
    assert failed == []
