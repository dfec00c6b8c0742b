"""The generic flow's ``Screens`` step and own preview, on a toy gadget over the emulator: the
module's own windows (a step of two windows) get the flow's states, the draft, the refusal in
the press's answer and once in the message (the same one again redraws nothing), ``{review}``,
«Cancel», resume after a restart on the step's second window and a returned sheet re-entered
at the own preview."""

from __future__ import annotations

from html import escape
from typing import Any

import pytest
from aiogram import Router
from aiogram.filters import Command
from aiogram.types import Message
from aiogram_dialog import DialogManager, StartMode, Window
from aiogram_dialog.widgets.input import TextInput
from aiogram_dialog.widgets.kbd import Back, Button, SwitchTo
from aiogram_dialog.widgets.text import Const, Format
from pydantic import BaseModel
from sqlalchemy import text

from handlers.wizards.common import WizardStart
from handlers.wizards.flow import (
    Flow,
    Screens,
    Text,
    build_dialog,
    flow_states,
    own_clear,
    own_draft,
    own_fail,
    own_switch,
)
from tests.conftest import Harness
from tests.wizards.storyteller.driver import Player
from tests.wizards.toy.driven import serve

FINISHED: list[dict[str, Any]] = []


class Gadget(BaseModel):
    name: str = ""
    parts: list[str] = []


async def _parts_data(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
    parts = own_draft(dialog_manager).get("parts") or []
    return {"parts": escape(", ".join(parts)) or "none", "count": len(parts)}


async def _to_part(callback: Any, widget: Any, manager: DialogManager) -> None:
    await own_switch(manager, "part")


async def _refuse(callback: Any, widget: Any, manager: DialogManager) -> None:
    own_fail(manager, "⛔ No &lt;spare&gt; parts.")


async def _on_part(message: Any, widget: Any, manager: DialogManager, part: str) -> None:
    draft = own_draft(manager)
    draft["parts"] = [*(draft.get("parts") or []), part]
    own_clear(manager)  # an answer the step takes: its refusal is left behind
    await manager.switch_to(manager.current_context().state.group.parts)


async def _finish(callback: Any, widget: Any, manager: DialogManager) -> None:
    FINISHED.append(dict(own_draft(manager)))
    await manager.done()


def _parts_windows(s: Any) -> list[Window]:
    return [
        Window(
            Format("Parts ({count}): {parts}"),
            Format("{error}", when="error"),
            Button(Const("Add"), id="add", on_click=_to_part),
            Button(Const("Spare"), id="spare", on_click=_refuse),
            Back(Const("Back"), id="back"),
            SwitchTo(Const("Done"), id="done", state=s.preview),
            SwitchTo(Const("To the preview"), id="tp", state=s.preview, when="review"),
            state=s.parts,
        ),
        Window(
            Format("Name a part ({count} so far)."),
            TextInput(id="pt", on_success=_on_part),
            state=s.part,
        ),
    ]


def _preview(s: Any) -> Window:
    return Window(
        Format("Gadget preview: {name} of {parts}"),
        SwitchTo(Const("Edit parts"), id="ep", state=s.parts),
        Button(Const("Build"), id="ok", on_click=_finish),
        getter=_preview_data,
        state=s.preview,
    )


async def _preview_data(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
    draft = own_draft(dialog_manager)
    return {"name": escape(draft.get("name", "")), "parts": escape(", ".join(draft["parts"]))}


GADGET = Flow(
    name="gadget",
    steps=(
        Text("name", "Name", "What is the gadget called?", required=True),
        Screens("parts", "Parts", "", _parts_windows, _parts_data, more=("part",)),
    ),
    options=lambda raw: dict(raw),
    build=lambda draft, options: Gadget.model_validate(draft),  # type: ignore[arg-type,return-value]
    load=lambda sheet, options: {"name": "", "parts": [], **(sheet or {})},
    validate=lambda sheet, options: [],
    render=lambda sheet, t, locale: "",
    own_preview=_preview,
)
STATES = flow_states(GADGET)


def _routers() -> list[Router]:
    router = Router(name="gadget")

    @router.message(Command("gadget"))
    async def start(message: Message, dialog_manager: DialogManager, uow: Any) -> None:
        back = (message.text or "").endswith("back")
        game_id = int((await uow.session.execute(text("SELECT min(id) FROM games"))).scalar())
        draft = {"name": "Clock", "parts": ["cog"]} if back else None
        start = WizardStart(game_id, "gadget", {}, draft=draft)
        await dialog_manager.start(STATES.name, data=start.as_data(), mode=StartMode.RESET_STACK)

    return [router, build_dialog(GADGET, STATES)]


@pytest.fixture
async def gadget(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> Player:
    FINISHED.clear()
    return await serve(harness, monkeypatch, _routers)


def test_custom_states_follow_the_preview() -> None:
    names = [state.state for state in STATES.__states__]
    assert names == ["GadgetSG:name", "GadgetSG:parts", "GadgetSG:preview", "GadgetSG:part"]


async def test_own_windows_get_the_flows_plumbing(gadget: Player) -> None:
    p = gadget
    await p.say("/gadget")
    await p.say("Clock")  # a standard step's Next leads to the custom step
    assert "Parts (0): none" in p.text and "✖️ Cancel" in p.labels()
    assert "To the preview" not in p.labels()
    await p.press("spare")
    assert p.last_answer.show_alert and p.last_answer.text == "⛔ No <spare> parts."
    assert "No <spare> parts." in p.text
    edits = p.message.edits if p.message else 0
    await p.press("spare")  # the same refusal again: a toast, the message left as it is
    assert not p.last_answer.show_alert and p.last_answer.text == "⛔ No <spare> parts."
    assert p.message is not None and p.message.edits == edits
    await p.press("add")
    assert "Name a part (0 so far)." in p.text and "✖️ Cancel" in p.labels()
    await p.h.restart()  # the step's second window lives on in Postgres
    await p.say("cog")
    assert "Parts (1): cog" in p.text and "No <spare>" not in p.text  # the refusal is gone
    await p.press("back")  # the states' order: back to the name
    assert "Step 1 of 3: Name" in p.text and "Now: <b>Clock</b>" in (p.message.html or "")
    await p.press("nx")
    await p.press("done")
    assert "Gadget preview: Clock of cog" in p.text
    await p.press("ep")
    assert "To the preview" in p.labels()  # the preview was reached: {review}
    await p.press("tp")
    await p.press("ok")
    assert FINISHED == [{"name": "Clock", "parts": ["cog"]}]


async def test_a_returned_sheet_opens_at_the_own_preview(gadget: Player) -> None:
    p = gadget
    await p.say("/gadget back")
    assert "Gadget preview: Clock of cog" in p.text and "✖️ Cancel" in p.labels()
    await p.press("ep")
    assert "Parts (1): cog" in p.text and "To the preview" in p.labels()
