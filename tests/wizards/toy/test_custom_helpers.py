"""What a ``Custom`` step's handlers share (``flow.custom``): the sheet so far with the game's
options (``sheet_so_far``), a refusal by msgid (``step_said``), and ``own_widgets.removers``
with its own label and row (a released «❌ name», two a row); on a toy over the emulator."""

from __future__ import annotations

from typing import Any

import pytest
from aiogram.types import Message
from aiogram_dialog import DialogManager
from aiogram_dialog.widgets.input import TextInput

from engine.common import SheetModel
from handlers.wizards.flow import Custom, Flow, flow_states
from handlers.wizards.flow.custom import Shown, draft, sheet_so_far, step_fine, step_said
from handlers.wizards.flow.own_widgets import removers
from tests.conftest import Harness
from tests.wizards.storyteller.driver import Player
from tests.wizards.toy.driven import play
from tests.wizards.toy.toy import ToySheet


async def _packed(message: Message, widget: Any, manager: DialogManager, text: str) -> None:
    sheet, options = sheet_so_far(manager)
    assert isinstance(sheet, ToySheet)
    if len(sheet.friends) >= options["room"]:
        step_said(manager, "The bag holds {room} <things>.", room=options["room"])
        return
    draft(manager).setdefault("bag", []).append(text)
    step_fine(manager)


async def _unpack(manager: DialogManager, index: int) -> None:
    draft(manager)["bag"].pop(index)


def _bag(manager: DialogManager) -> list[Any]:
    return list(draft(manager).get("bag") or [])


def _shown(shown: Shown) -> dict[str, Any]:
    bag = _bag(shown.manager)
    return {
        "lines": [f"In the bag: {len(bag)}"],
        "bag": [{"i": i, "name": n} for i, n in enumerate(bag)],
    }


def _render(sheet: SheetModel, t: Any, locale: str) -> str:
    assert isinstance(sheet, ToySheet)
    return ", ".join(sheet.friends) or "empty"


BAG = Flow(
    name="bag",
    steps=(
        Custom("bag", "Bag", "Pack the bag.", data=_shown, widgets=lambda: [
            TextInput("in", on_success=_packed),
            removers("bx", "bag", _bag, _unpack, text="❌ {item[name]}", width=2),
        ]),
    ),
    options=lambda raw: dict(raw),
    build=lambda d, o: ToySheet(friends=tuple(d.get("bag") or ())),
    load=lambda sheet, o: {},
    validate=lambda sheet, o: [],
    render=_render,
)  # fmt: skip


@pytest.fixture
async def player(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> Player:
    return await play(harness, monkeypatch, BAG, flow_states(BAG), {"room": 2})


async def test_a_custom_step_reads_the_sheet_and_refuses_by_msgid(player: Player) -> None:
    p = player
    await p.say("/bag")
    await p.say("rope")
    await p.say("lamp")
    assert "In the bag: 2" in p.text and p.labels()[:2] == ["❌ rope", "❌ lamp"]
    await p.say("tent")  # the game's options say two things
    assert "The bag holds 2 &lt;things&gt;." in p.message.html
    assert "In the bag: 2" in p.text
    await p.press("bx:0")  # a name's own button takes it out
    assert "In the bag: 1" in p.text and p.labels()[0] == "❌ lamp"
    assert "holds" not in p.text  # the refusal was shown once
    await p.say("tent")
    await p.press("nx")
    assert "lamp, tent" in p.text
