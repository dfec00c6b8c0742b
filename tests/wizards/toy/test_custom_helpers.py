"""What a ``Custom`` step's handlers share (``flow.custom``): a typed answer taken or refused
by the step's own rule (``typed_input``), the sheet so far with the game's options
(``sheet_so_far``), a refusal by msgid (``step_said``), and ``own_widgets.removers`` with its
own label and row (a released «❌ name», two a row); and ``Text.taken``, a name the party has
refused in the step's words; on toys over the emulator."""

from __future__ import annotations

from typing import Any

import pytest
from aiogram import Router
from aiogram.filters import Command
from aiogram.types import Message
from aiogram_dialog import DialogManager, StartMode
from aiogram_dialog.widgets.kbd import Button
from aiogram_dialog.widgets.text import Const
from sqlalchemy import text

from engine.common import SheetModel
from handlers.wizards.common import WizardStart
from handlers.wizards.flow import Custom, Flow, Text, build_dialog, flow_states
from handlers.wizards.flow.custom import Shown, Typed, draft, sheet_so_far, step_said, typed_input
from handlers.wizards.flow.own_widgets import removers
from tests.conftest import Harness
from tests.wizards.storyteller.driver import Player
from tests.wizards.toy.driven import play, serve
from tests.wizards.toy.toy import ToySheet


def _packed(typed: Typed) -> str | None:
    if len(typed.sheet.friends) >= typed.options["room"]:
        return typed.said("The bag holds {room} <things>.", room=typed.options["room"])
    typed.draft.setdefault("bag", []).append(typed.text)
    return None


async def _shake(callback: Any, widget: Any, manager: DialogManager) -> None:
    sheet, options = sheet_so_far(manager)
    if not sheet.friends:
        step_said(manager, "Nothing <in> a bag of {room}.", room=options["room"])


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
            typed_input(_packed),
            removers("bx", "bag", _bag, _unpack, text="❌ {item[name]}", width=2),
            Button(Const("shake"), id="sh", on_click=_shake),
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
    await p.press("sh")  # nothing packed yet: the button says so, in the answer and the step
    assert p.last_answer.show_alert and p.last_answer.text == "Nothing <in> a bag of 2."
    assert "Nothing &lt;in&gt; a bag of 2." in p.message.html
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


NAMED = Flow(
    name="named",
    steps=(Text("name", "Name", "Its name?", required=True, taken="«{name}» is <taken>."),),
    options=lambda raw: dict(raw),
    build=lambda d, o: ToySheet(name=d.get("name", "")),
    load=lambda sheet, o: {},
    validate=lambda sheet, o: [],
    render=lambda sheet, t, locale: "named",
)


def _named_routers() -> list[Router]:
    """``/named`` opens ``NAMED`` with a party of one, Rex."""
    router, states = Router(name="named"), flow_states(NAMED)

    @router.message(Command("named"))
    async def begin(message: Message, dialog_manager: DialogManager, uow: Any) -> None:
        game_id = (await uow.session.execute(text("SELECT min(id) FROM games"))).scalar()
        start = WizardStart(int(game_id), "toy", {}, party=["Rex"])
        await dialog_manager.start(states.name, data=start.as_data(), mode=StartMode.RESET_STACK)  # type: ignore[attr-defined]

    return [router, build_dialog(NAMED, states)]


async def test_a_name_the_party_has_is_refused_in_the_steps_words(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    p = await serve(harness, monkeypatch, _named_routers)
    await p.say("/named")
    await p.say("  rEX ")  # case and spaces aside
    assert "Its name?" in p.text and "«rEX» is &lt;taken&gt;." in p.message.html
    await p.say("Rexa")
    assert "Preview" in p.text
