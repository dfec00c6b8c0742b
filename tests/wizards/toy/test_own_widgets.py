"""The own-window pieces (``flow.own_widgets``), on a toy over the emulator: a ``Screens`` step
of one window made of them (a ➖/➕ counter, a typed answer refused in the step's own words,
entries removed by index, a refusal shown once) and the flow's own preview; a restart resumes
them."""

from __future__ import annotations

from html import escape
from typing import Any

import pytest
from aiogram import Router
from aiogram.fsm.state import State
from aiogram_dialog import DialogManager, Window
from aiogram_dialog.widgets.text import Format

from handlers import wizards
from handlers.wizards.flow import Flow, Screens, Text, build_dialog, flow_states, own_fail
from handlers.wizards.flow.dialog import DRAFT
from handlers.wizards.flow.own_widgets import ERROR_LINE, counter, go, removers, typed
from tests.wizards.storyteller.driver import Player
from tests.wizards.toy.driven import opener
from tests.wizards.toy.test_flow_kinds import toy  # noqa: F401 - the toy table, started
from tests.wizards.toy.toy import ToySheet


def _draft(manager: DialogManager) -> dict[str, Any]:
    found: dict[str, Any] = manager.dialog_data[DRAFT]
    return found


async def _getter(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
    draft = _draft(dialog_manager)
    friends = list(draft.get("friends") or [])
    return {
        "name": escape(draft.get("name", "")),
        "luck": int(draft.get("luck", 0)),
        "friends": escape(", ".join(friends)),
        "items": [{"i": i, "n": i + 1} for i in range(len(friends))],
    }


async def _luck(callback: Any, button: Any, manager: DialogManager) -> None:
    draft = _draft(manager)
    luck = int(draft.get("luck", 0)) + (1 if button.widget_id == "lp" else -1)
    if luck < 0:
        own_fail(manager, "⛔ No luck below nothing.")
    else:
        draft["luck"] = luck


async def _befriend(manager: DialogManager, name: str) -> None:
    _draft(manager).setdefault("friends", []).append(name)


async def _unfriend(manager: DialogManager, index: int) -> None:
    _draft(manager)["friends"].pop(index)


def _friends(manager: DialogManager) -> list[Any]:
    return list(_draft(manager).get("friends") or [])


def _luck_window(state: State) -> Window:
    return Window(
        Format("Own step. Luck: {luck}. Friends: {friends}"),
        ERROR_LINE,
        typed("fr", "A friend of 1 to {limit} letters.", _befriend),
        counter("lm", Format("🍀 {luck}"), "lv", "lp", _luck),
        removers("fx", "items", _friends, _unfriend),
        go("Next", "nx", STATES.preview),
        state=state,
        getter=_getter,
    )


def _preview_window(state: State) -> Window:
    return Window(
        Format("Own preview: {name}, luck {luck}, friends {friends}"),
        go("Luck", "gl", STATES.luck),
        state=state,
        getter=_getter,
    )


FLOW = Flow(
    name="owntoy",
    steps=(
        Text("name", "Name", "What is the toy called?", required=True),
        Screens("luck", "Luck", "", lambda states: [_luck_window(states.luck)]),
    ),
    options=lambda raw: dict(raw),
    build=lambda d, o: ToySheet(name=d.get("name", "")),
    load=lambda sheet, o: {},
    validate=lambda sheet, o: [],
    render=lambda s, t, locale: escape(s.name),
    own_preview=lambda states: _preview_window(states.preview),
)
STATES = flow_states(FLOW)


def _routers() -> list[Router]:
    return [opener("owntoy", STATES, {}), build_dialog(FLOW, STATES)]


@pytest.fixture
def own_toy(monkeypatch: pytest.MonkeyPatch) -> None:
    """This flow's dialog beside the bot's, for ``toy`` (requested after it) to start."""
    real = wizards.create_dialogs
    monkeypatch.setattr(wizards, "create_dialogs", lambda: [*_routers(), *real()])


async def test_an_own_step_and_an_own_preview_in_a_flow(own_toy: None, toy: Player) -> None:  # noqa: F811
    p = toy
    await p.say("/owntoy")
    assert "Step 1 of 3: Name" in p.text  # a kind of the flow's own, as always
    await p.say("Rex")
    assert p.text.startswith("Own step. Luck: 0") and "Step" not in p.text
    assert "✖️ Cancel" in p.labels()  # «Cancel» on the own step too

    await p.press("lm")  # below nothing: refused in the answer and in the message
    assert p.last_answer.show_alert and p.last_answer.text == "⛔ No luck below nothing."
    assert "⛔ No luck below nothing." in p.text
    shown = p.message.message_id if p.message else 0
    await p.press("lm")  # the same refusal again: a toast, the message left as it is
    assert not p.last_answer.show_alert and "No luck below nothing." in p.text
    assert p.message is not None and p.message.message_id == shown
    await p.press("lp", 2)
    assert "Luck: 2" in p.text and "🍀 2" in p.labels() and "No luck" not in p.text
    await p.press("lv")  # the counter's label does nothing
    assert "Luck: 2" in p.text

    await p.say("/x")  # not a name: refused in the step's own words
    assert "⛔ A friend of 1 to 64 letters." in p.text
    await p.say("Ann")
    await p.say("Bob")
    assert "Friends: Ann, Bob" in p.text and "❌ 2" in p.labels()
    await p.press("fx:0")
    assert "Friends: Bob" in p.text and "❌ 2" not in p.labels()

    await p.h.restart()  # the own step lives on in Postgres like any other
    await p.press("lp")
    assert "Luck: 3" in p.text
    await p.press("nx")
    assert "Own preview: Rex, luck 3, friends Bob" in p.text and "Step" not in p.text
    await p.press("gl")
    assert "Own step. Luck: 3" in p.text
