"""The generic creation flow, every step kind on a toy system of its own, over the emulator:
text (required and optional), choose one (paged, or typed), choose N, allocate a budget with
caps and costs, a list of items, the preview; Back/Next/Skip, «Cancel» on every step, every
refusal in the press's answer, resume after a restart, a returned sheet at its preview, NPCs."""

from __future__ import annotations

from typing import Any

import pytest
from aiogram import Router
from aiogram.filters import Command
from aiogram.types import Message
from aiogram_dialog import DialogManager, StartMode
from sqlalchemy import text

from engine.common import SheetModel, Violation
from handlers import wizards
from handlers.wizards.common import WizardStart
from handlers.wizards.flow import build_dialog, flow_states
from tests.conftest import Harness
from tests.games.helpers import ALICE, create_game, seat_table
from tests.wizards.storyteller.driver import Player
from tests.wizards.toy.toy import TOY

STATES = flow_states(TOY)
FINISHED: list[SheetModel] = []


async def _finish(manager: DialogManager, sheet: SheetModel) -> list[Violation]:
    FINISHED.append(sheet)
    await manager.done()
    return []


def _routers() -> list[Router]:
    """The toy dialog and ``/toy [npc|back]`` that starts it for the table's one game."""
    router = Router(name="toy")

    @router.message(Command("toy"))
    async def start(message: Message, dialog_manager: DialogManager, uow: Any) -> None:
        arg = (message.text or "").split()[-1]
        game_id = int((await uow.session.execute(text("SELECT min(id) FROM games"))).scalar())
        draft = None
        if arg == "back":
            draft = {"name": "Rex", "house": "h1", "stats": {"might": 2}, "friends": ["Ann"]}
        start = WizardStart(game_id, "toy", {"points": 5}, draft=draft, npc=arg == "npc")
        await dialog_manager.start(STATES.name, data=start.as_data(), mode=StartMode.RESET_STACK)

    dialog = build_dialog(TOY.__class__(**{**TOY.__dict__, "finish": _finish}), STATES)
    return [router, dialog]


@pytest.fixture
async def toy(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> Player:
    real = wizards.create_dialogs
    monkeypatch.setattr(wizards, "create_dialogs", lambda: [*_routers(), *real()])
    await harness.start()
    seat_table(harness)
    await create_game(harness, "matter", "Toys")
    FINISHED.clear()
    return Player(harness, ALICE)


async def _open(p: Player, arg: str = "") -> None:
    await p.say(f"/toy {arg}".strip())


async def test_every_step_kind_to_the_submit(toy: Player) -> None:
    p = toy
    await _open(p)
    assert "Step 1 of 9: Name" in p.text and "✖️ Cancel" in p.labels()
    await p.press("nx")  # a required step, still empty
    # it says what the step takes (a typed name), not only that it is empty
    assert p.last_answer.show_alert and p.last_answer.text == "Type the answer in a message first."
    assert "Type the answer in a message first." in p.text
    await p.say("/x")  # not a name
    assert "Step 1 of 9" in p.text and "1 to 64 characters" in p.text
    await p.say("Rex <the toy>")
    assert "Step 2 of 9: Motto" in p.text and "Skip ▶" in p.labels()
    await p.say("Play\nall day")  # free text keeps its lines
    await p.press("bk")
    assert "Next ▶" in p.labels() and "Skip ▶" not in p.labels()  # a filled step
    await p.press("nx")

    assert "Step 3 of 9: House" in p.text and "1/3" in p.labels()  # 10 choices, 4 a page
    await p.press("pn")
    assert "2/3" in p.labels() and "House 4" in p.labels() and "House 0" not in p.labels()
    await p.press("c:h5")
    assert "Step 4 of 9: Gifts" in p.text
    await p.press("c:fire")
    await p.press("c:ice")
    before = p.labels()
    await p.press("c:wind")  # a third of two
    assert p.last_answer.show_alert and "At most 2" in (p.last_answer.text or "")
    assert p.labels() == before and "✓ Fire" in before
    await p.press("nx")

    assert "Step 5 of 9: Stats" in p.text and "Points left: 5 of 5" in p.text
    await p.press("d:might:p", 3)  # 1 + 1 + 2 (the third dot costs two)
    assert "Points left: 1 of 5" in p.text and "Might ●●●" in p.labels()
    await p.press("d:might:p")
    assert "Might is at the most, 3." == p.last_answer.text
    await p.press("d:wits:p")
    await p.press("d:wits:p")
    assert "Not enough points: this dot costs 1, 0 left." == p.last_answer.text
    await p.press("d:wits:m")
    await p.press("d:wits:m")
    await p.press("d:wits:m")
    assert "Wits cannot go below 0." == p.last_answer.text

    await p.press("nx")
    assert "Step 6 of 9: Friends" in p.text
    labels = p.labels()
    await p.press("rm")
    assert p.last_answer.text == "Nothing to remove yet."
    await p.press("nx")
    assert "Add at least 1" in (p.last_answer.text or "")
    await p.say("Ann")
    await p.say("Bob")
    assert p.labels() == labels and "1. Ann" in p.text and "2. Bob" in p.text
    await p.press("nx")

    assert "Step 7 of 9: Mentor" in p.text and "Old Toys" in p.labels()  # the GM's own list
    await p.press("c:g2")
    assert "Step 8 of 9: Summary" in p.text and "Dots: 3 · &lt;friends&gt; 2" in (
        p.message.html if p.message else ""
    )
    await p.press("bk")
    assert "Now: <Nobody>" in p.text and "✓ <Nobody>" in p.labels()
    await p.press("nx")
    await p.press("nx")

    assert "Step 9 of 9: Preview" in p.text and "Rex &lt;the toy&gt;" in (
        p.message.html if p.message else ""
    )
    assert "h5" in p.text and "fire, ice" in p.text and "might 3" in p.text
    await p.press("j0")  # back to the name; its Next returns to the preview
    assert "Now: Rex <the toy>" in p.text
    await p.say("Rex")
    assert "Preview" in p.text
    await p.press("ok")
    assert len(FINISHED) == 1 and FINISHED[0].name == "Rex"  # type: ignore[attr-defined]


async def test_engine_refuses_a_dot_and_resume_after_restart(toy: Player) -> None:
    p = toy
    await _open(p)
    await p.say("Rex")
    await p.press("nx")
    await p.say("my own house")  # a typed choice
    assert "Gifts" in p.text
    await p.press("nx")
    await p.press("d:might:p", 3)
    await p.h.restart()  # the wizard lives on in Postgres
    await p.press("d:grace:p")
    assert "Points left: 0 of 5" in p.text
    await p.press("bk")
    await p.press("nx")
    assert "Grace ●○○" in p.labels()


async def test_returned_sheet_opens_at_the_preview_and_npc_mode(toy: Player) -> None:
    p = toy
    await _open(p, "back")
    assert "Preview" in p.text and "Rex" in p.text and "friends: Ann" in p.text
    await p.press("j4")  # the stats; Next comes back
    await p.press("nx")
    assert "Preview" in p.text
    await _open(p, "npc")
    assert "Step 1 of 9" in p.text
    await p.say("Mook")
    for _ in range(5):
        await p.press("nx")
    assert "Add at least 1" in p.text
    await p.say("Nobody")
    await p.press("nx", 3)  # friends, the mentor (skipped), the summary
    assert "NPC preview" in p.text and "✅ Save the NPC" in p.labels()
