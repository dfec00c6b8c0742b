"""The generic flow keeping a released wizard's look (``flow.look``) and an own window's frame
(``flow.own_window``), on a toy lamp over the emulator: questions that carry their own heading,
«To the preview» once it was reached, own words for a message on a buttons-only step, the
engine's violations in the system's words, the game's options re-read at each redraw; an own
window's typed answer refused in its own words, and anything else refused with a hint."""

from __future__ import annotations

from functools import partial
from html import escape
from typing import Any

import pytest
from aiogram_dialog import DialogManager, Window
from aiogram_dialog.widgets.kbd import SwitchTo
from aiogram_dialog.widgets.text import Const, Format
from pydantic import BaseModel
from sqlalchemy import text

from engine.common import Violation
from engine.text import msg, register_messages
from handlers.wizards.common import clean_name
from handlers.wizards.flow import (
    Flow,
    Info,
    Screens,
    Text,
    own_draft,
    own_switch,
)
from handlers.wizards.flow.own_window import Typed, own_window
from handlers.wizards.flow.wording import Wording
from tests.conftest import Harness
from tests.wizards.storyteller.driver import Player
from tests.wizards.toy.driven import opened_by, serve

register_messages({"lamp.dim": {"en": "A dim name.", "ru": "Тусклое имя."}})


class Lamp(BaseModel):
    name: str = ""
    shade: str = ""


def _glow(sheet: Any, options: Any, t: Any, locale: str) -> str:
    return f"Step two. {escape(sheet.name)} glows at {options.get('watts', 0)} W."


def _validate(sheet: Lamp, options: Any) -> list[Violation]:
    return [Violation("name", msg("lamp.dim"))] if sheet.name == "Dim" else []


async def _shade_data(dialog_manager: DialogManager, **_: Any) -> dict[str, Any]:
    return {"shade": escape(own_draft(dialog_manager).get("shade", "")) or "none"}


async def _on_shade(message: Any, widget: Any, manager: DialogManager, shade: str) -> None:
    own_draft(manager)["shade"] = shade
    await own_switch(manager, "preview")


def _shade(s: Any) -> list[Window]:
    return [
        own_window(
            Format("Step three. Shade: {shade}."),
            SwitchTo(Const("Skip"), id="sk", state=s.preview),
            state=s.shade,
            typed=Typed("sh", partial(clean_name, limit=8), _on_shade, "Shades: {limit} max.", 8),
        )
    ]


def _preview(s: Any) -> Window:
    return own_window(
        Const("Lamp preview"),
        SwitchTo(Const("Glow"), id="eg", state=s.glow),
        SwitchTo(Const("Shade"), id="es", state=s.shade),
        state=s.preview,
    )


LAMP = Flow(
    name="lamp",
    steps=(
        Text("name", "Name", "Step one. What is the lamp called?", required=True),
        Info("glow", "Glow", "", _glow),
        Screens("shade", "Shade", "", _shade, _shade_data),
    ),
    options=lambda raw: dict(raw),
    build=lambda draft, options: Lamp.model_validate(draft),  # type: ignore[arg-type,return-value]
    load=lambda sheet, options: {"name": "", **(sheet or {})},
    validate=_validate,  # type: ignore[arg-type]
    render=lambda sheet, t, locale: "",
    fields={"glow": ("name",)},
    own_preview=_preview,
    wording=Wording(own_heads=True, buttons_only="Only buttons here."),
    to_preview="To the lamp",
    explain=lambda violation, locale: f"Lamp says: {violation.render(locale)} <ok>",
    live_options=True,
)  # fmt: skip


@pytest.fixture
async def lamp(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> Player:
    return await serve(harness, monkeypatch, opened_by("lamp", LAMP, {"watts": 1}))


async def _watts(h: Harness, watts: int) -> None:
    async with h.engine.begin() as conn:
        options = {"o": f'{{"watts": {watts}}}'}
        await conn.execute(text("UPDATE games SET options = CAST(:o AS jsonb)"), options)


async def test_a_released_look_on_standard_steps(lamp: Player) -> None:
    p = lamp
    await _watts(p.h, 60)
    await p.say("/lamp")
    assert p.text.startswith("Step one. What is the lamp called?")  # no «Step 1 of 4: Name»
    assert "Step 1 of" not in p.text and "To the lamp" not in p.labels()
    await p.say("Dim")
    assert p.text.startswith("Step two. Dim glows at 60 W.")  # the game's options now
    await p.say("hello")  # a buttons-only step: its own words
    assert "Only buttons here." in p.text
    await p.press("nx")  # the engine's violation in the system's words, escaped
    assert p.last_answer.show_alert and "Lamp says: A dim name. <ok>" in p.last_answer.text
    assert "⛔ Lamp says: A dim name. &lt;ok&gt;" in (p.message.html if p.message else "")
    await p.press("bk")
    await p.say("Bright")
    await _watts(p.h, 75)
    await p.press("nx")
    assert p.text.startswith("Step three. Shade: none.")
    await p.press("sk")
    assert "Lamp preview" in p.text
    await p.press("eg")
    assert "Bright glows at 75 W." in p.text and "To the lamp" in p.labels()
    await p.press("tp")
    assert "Lamp preview" in p.text


async def test_an_own_windows_frame(lamp: Player) -> None:
    p = lamp
    await p.say("/lamp")
    await p.say("Bright")
    await p.press("nx")
    await p.say("far too long a shade")  # the typed answer refused in the window's words
    assert "Step three. Shade: none.\n\nShades: 8 max." in p.text
    await p.say("green")
    assert "Lamp preview" in p.text
    await p.say("hello")  # a window without a typed answer: a hint, the window stays
    assert "Lamp preview" in p.text and "Please use the buttons, or /cancel." in p.text
    await p.press("es")
    assert "Shade: green." in p.text and "Please use" not in p.text
