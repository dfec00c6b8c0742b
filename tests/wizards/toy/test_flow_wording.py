"""The flow's hooks for a system whose wizard reached players before the flow, on a toy of its
own (``hooks.WORDED``): its own wording and heads, a ``Custom`` step with its own buttons and
refusals, a start hook, and a wizard stored in an older shape resumed after the upgrade."""

from __future__ import annotations

from typing import Any

import pytest
from aiogram import Router
from aiogram.filters import Command
from aiogram.types import Message
from aiogram_dialog import DialogManager, StartMode
from sqlalchemy import text

from handlers import wizards
from handlers.wizards.common import WizardStart
from handlers.wizards.flow import build_dialog, flow_states
from tests.conftest import Harness
from tests.games.helpers import ALICE, create_game, seat_table
from tests.wizards.storyteller.driver import Player
from tests.wizards.toy.hooks import WORDED, store_older_shape

STATES = flow_states(WORDED)


def _with_worded() -> list[Router]:
    opener = Router(name="worded")

    @opener.message(Command("worded"))
    async def open_it(message: Message, dialog_manager: DialogManager, uow: Any) -> None:
        game = (await uow.session.execute(text("SELECT min(id) FROM games"))).scalar()
        start = WizardStart(int(game), "toy", {}).as_data()
        first = STATES.__states__[0]
        await dialog_manager.start(first, data=start, mode=StartMode.RESET_STACK)

    return [opener, build_dialog(WORDED, STATES), *real_dialogs()]


real_dialogs = wizards.create_dialogs


@pytest.fixture
async def player(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> Player:
    monkeypatch.setattr(wizards, "create_dialogs", _with_worded)
    await harness.start()
    seat_table(harness)
    await create_game(harness, "matter", "Hooks")
    p = Player(harness, ALICE)
    await p.say("/worded")
    return p


async def test_own_wording_heads_and_a_custom_step(player: Player) -> None:
    p = player
    assert p.text == "Step 1 of 2. What is it called?"  # its own head, no «Step 1 of 3: …»
    assert p.labels() == ["Next ▶️", "✖️ Cancel"]
    await p.say("/x")
    assert p.text.endswith("One line, at most 64.")
    await p.say("Rex <the toy>")
    assert p.text.startswith("Step 2 of 2. Count for Rex <the toy>, up to 7.")
    assert "Tally: 0 (started)" in p.text  # the start hook ran once the draft was loaded
    assert p.labels() == ["less", "more", "◀️ Back", "Next ▶️", "✖️ Cancel"]
    await p.press("ls")
    assert p.last_answer.show_alert and p.last_answer.text == "No <tally> to take back."
    assert p.text.endswith("No <tally> to take back.")
    await p.press("mr", 2)
    assert "Tally: 2" in p.text and "No <tally>" not in p.text
    await p.say("3")  # a step that takes no text says so
    assert p.text.endswith("Buttons only here.") and "Tally: 2" in p.text
    await p.press("bk")
    assert p.message is not None and "Now: <i>Rex &lt;the toy&gt;</i>" in p.message.html
    await p.press("nx")
    await p.press("nx")
    assert p.text.startswith("Look it over.") and "Rex <the toy> counted 2" in p.text
    assert p.labels()[:2] == ["✏️ The name", "✏️ The tally"]
    await p.say("hello")
    assert p.text.endswith("Buttons only here.")


async def test_a_wizard_stored_in_an_older_shape_resumes(player: Player) -> None:
    p = player
    await p.say("Rex")
    old = {"title": "Old Rex", "count": 3, "error": "a stale line", "review": False}
    await store_older_shape(p.h, "WordedSG:tally", old)
    await p.h.restart()
    await p.press("mr")
    assert p.text.startswith("Step 2 of 2. Count for Old Rex") and "Tally: 4" in p.text
    assert "a stale line" not in p.text
